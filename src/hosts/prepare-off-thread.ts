/**
 * A refresh's heavy pure work off the page's thread: the page's side (the worker's is
 * prepare-result.ts). The page does the effects the worker's load program asks for, through the
 * data client it already has, and receives a PreparedResult whose values it asks for one block at a
 * time. One worker serves a whole run, one placement after the other.
 */
import type { DataEffect, DataLoadProgress } from "../core/data-client.js";
import { PlatformError } from "../core/errors.js";
import type { PreparedResult, WriteLimits } from "../core/refresh-flow.js";
import type { GridCell } from "../core/report-grid.js";
import type { Report } from "../core/schema.js";
import { crossError, type FromWorker, type ToWorker, uncrossError } from "./prepare-result.js";

/** What the page needs of a Worker (a test gives a stand-in). */
export interface WorkerLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "error", listener: (event: unknown) => void): void;
  terminate(): void;
}

/** The worker could not run (its script did not load, or it failed): the page does the work itself. */
export class WorkerUnavailable extends Error {
  override readonly name = "WorkerUnavailable";
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DataLoadProgress) => void;
  /** A request's body as the bytes read (DataResponseBytes), for the worker to decode. */
  asBytes?: boolean;
}

export interface OffThreadPreparer {
  /**
   * `report`'s data loaded (every effect done by `runEffect`), laid out, split within `limits` and
   * hashed in the worker. Rejects with WorkerUnavailable when the worker cannot run.
   */
  prepare(
    report: Report,
    limits: WriteLimits,
    runEffect: (effect: DataEffect, options: LoadOptions) => Promise<unknown>,
    options?: LoadOptions,
  ): Promise<PreparedResult>;
  /** Ends the worker. */
  close(): void;
}

function stopped(): PlatformError {
  return new PlatformError("aborted", "Stopped.");
}

export function createOffThreadPreparer(createWorker: () => WorkerLike): OffThreadPreparer {
  let worker: WorkerLike | null = null;
  let broken: Error | null = null;
  let nextId = 0;
  /** Requests waiting for the worker's answer, by id. */
  const waiting = new Map<number, { resolve(message: FromWorker): void; reject(error: Error): void }>();
  /** The load options of the prepare in progress (its effects are done with them). */
  let current: {
    runEffect: (effect: DataEffect, options: LoadOptions) => Promise<unknown>;
    options: LoadOptions;
  } | null = null;

  /** To the worker; nothing once it is closed (an effect may end after the run did). */
  const send = (message: ToWorker, transfer: Transferable[] = []) => worker?.postMessage(message, transfer);

  function fail(error: Error): void {
    broken = error;
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  }

  function start(): WorkerLike {
    if (broken) throw broken;
    if (worker) return worker;
    try {
      worker = createWorker();
    } catch (e) {
      broken = new WorkerUnavailable(`The refresh worker could not start: ${String(e)}`);
      throw broken;
    }
    worker.addEventListener("error", () => {
      fail(new WorkerUnavailable("The refresh worker failed."));
    });
    worker.addEventListener("message", (event) => {
      const m = event.data as FromWorker;
      if (m.t === "effect") {
        const run = current;
        if (!run) return;
        run.runEffect(m.effect, { ...run.options, asBytes: true }).then(
          (value) => {
            // A body of bytes is moved to the worker, not copied: the page never decodes it.
            const body = (value as { body?: unknown } | null)?.body;
            send(
              { t: "effect-done", id: m.id, ok: true, value },
              body instanceof Uint8Array ? [body.buffer] : [],
            );
          },
          (e: unknown) => send({ t: "effect-done", id: m.id, ok: false, error: crossError(e) }),
        );
        return;
      }
      const w = waiting.get(m.id);
      if (!w) return;
      waiting.delete(m.id);
      if (m.t === "failed") w.reject(uncrossError(m.error));
      else w.resolve(m);
    });
    return worker;
  }

  /** Sends `message` (with a new id) and waits for the answer of the same id; Stop rejects at once. */
  function ask(message: (id: number) => ToWorker, signal?: AbortSignal): Promise<FromWorker> {
    start();
    const id = ++nextId;
    return new Promise<FromWorker>((resolve, reject) => {
      if (signal?.aborted) {
        reject(stopped());
        return;
      }
      const onAbort = () => {
        waiting.delete(id);
        reject(stopped());
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      waiting.set(id, {
        resolve(m) {
          signal?.removeEventListener("abort", onAbort);
          resolve(m);
        },
        reject(e) {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      });
      send(message(id));
    });
  }

  return {
    async prepare(report, limits, runEffect, options = {}) {
      current = { runEffect, options };
      const answer = await ask((id) => ({ t: "prepare", id, report, limits }), options.signal);
      if (answer.t !== "prepared") throw new Error(`The refresh worker answered ${answer.t} to prepare.`);
      const values = async (from: number, to: number): Promise<GridCell[][]> => {
        const got = await ask((id) => ({ t: "values", id, from, to }));
        if (got.t !== "values") throw new Error(`The refresh worker answered ${got.t} to values.`);
        return got.values;
      };
      return { prepared: true, ...answer.shape, values };
    },
    close() {
      worker?.terminate();
      worker = null;
      current = null;
      fail(new WorkerUnavailable("The refresh worker was closed."));
      broken = null;
    },
  };
}
