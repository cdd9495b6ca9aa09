/**
 * A refresh's heavy pure work off the page's thread (docs/architecture.md, "The refresh worker"):
 * the worker side. It runs the core's load program (src/core/data-client.ts `loadProgram`), whose
 * every effect (data URL, token, request, pause, progress) the page does and answers, so the keys,
 * the tokens and the transport (direct or through the relay) stay where they are; then the parse
 * of each page (inside the program), the grid's layout, its blocks and its checksum happen here,
 * and the page gets the shape, the blocks and the checksum (a PreparedResult), then each block's
 * values as it writes them. On the page's one thread each of those was a long piece of work that
 * input waited for (docs/benchmarks.md, "Refresh").
 *
 * The messages are plain data (structured clone); errors cross as SerializedPlatformError.
 */
import { reportQuery } from "../core/data-api.js";
import { type DataEffect, type DataResponseBytes, dataResponseOf, loadProgram } from "../core/data-client.js";
import { isPlatformError, PlatformError, type SerializedPlatformError } from "../core/errors.js";
import type { WriteLimits } from "../core/refresh-flow.js";
import { planBlocks } from "../core/refresh-plan.js";
import { type DateFormatArea, type GridCell, reportGrid } from "../core/report-grid.js";
import type { ResultChecksum } from "../core/result-checksum.js";
import { resultChecksum } from "../core/result-checksum.js";
import type { Report } from "../core/schema.js";

/** An error as it crosses: a PlatformError's JSON, or any other error's message. */
export type CrossedError = SerializedPlatformError | { name: "Error"; message: string };

/** What the page sends the worker. */
export type ToWorker =
  /** Load `report`'s data and lay it out; blocks within `limits`. Replaces the previous result. */
  | { t: "prepare"; id: number; report: Report; limits: WriteLimits }
  /** The answer to an effect the worker asked for. */
  | { t: "effect-done"; id: number; ok: true; value: unknown }
  | { t: "effect-done"; id: number; ok: false; error: CrossedError }
  /** The values of grid rows [from, to) of the last result prepared. */
  | { t: "values"; id: number; from: number; to: number };

/** The shape of a prepared result: everything but its values. */
export interface PreparedShape {
  rows: number;
  columns: number;
  headerRows: number;
  dateFormats: DateFormatArea[];
  blocks: { from: number; to: number }[];
  checksum: ResultChecksum;
}

/** What the worker sends the page. */
export type FromWorker =
  /** An effect of the load program, for the page to do; answered with "effect-done" and the same id. */
  | { t: "effect"; id: number; effect: DataEffect }
  | { t: "prepared"; id: number; shape: PreparedShape }
  | { t: "values"; id: number; values: GridCell[][] }
  /** A "prepare" or "values" that failed. */
  | { t: "failed"; id: number; error: CrossedError };

/** Where messages come in and go out: the worker's global scope, or a test's stand-in. */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

export function crossError(e: unknown): CrossedError {
  if (isPlatformError(e)) return e.toJSON();
  return { name: "Error", message: e instanceof Error ? e.message : String(e) };
}

export function uncrossError(e: CrossedError): Error {
  return e.name === "PlatformError" ? PlatformError.fromJSON(e) : new Error(e.message);
}

/** Serves "prepare" and "values" on `port`: the worker's whole job. */
export function servePreparation(port: MessagePortLike): void {
  let nextEffect = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let values: GridCell[][] | null = null;

  const send = (message: FromWorker) => port.postMessage(message);

  /**
   * One effect, done by the page. A request's body comes as the bytes the page read (transferred,
   * not copied), decoded here.
   */
  const effect = (e: DataEffect): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = ++nextEffect;
      pending.set(id, { resolve, reject });
      send({ t: "effect", id, effect: e });
    }).then((value) => (e.type === "request" ? dataResponseOf(value as DataResponseBytes) : value));

  async function prepare(report: Report, limits: WriteLimits): Promise<PreparedShape> {
    values = null;
    const program = loadProgram({
      deploymentId: report.deploymentId,
      query: reportQuery(report),
      reportName: report.name,
      now: Date.now,
      // The page's messages are redacted there; the program redacts the token itself.
      secrets: [],
    });
    let next = program.next();
    while (!next.done) {
      let value: unknown;
      try {
        value = await effect(next.value);
      } catch (e) {
        next = program.throw(e);
        continue;
      }
      next = program.next(value);
    }
    const grid = reportGrid(report, next.value);
    values = grid.values;
    return {
      rows: grid.rows,
      columns: grid.columns,
      headerRows: grid.headerRows,
      dateFormats: grid.dateFormats,
      blocks: planBlocks(grid.values, limits.maxBlockBytes),
      checksum: resultChecksum(grid.values),
    };
  }

  port.addEventListener("message", (event) => {
    const m = event.data as ToWorker;
    if (m.t === "effect-done") {
      const waiting = pending.get(m.id);
      pending.delete(m.id);
      if (m.ok) waiting?.resolve(m.value);
      else waiting?.reject(uncrossError(m.error));
    } else if (m.t === "prepare") {
      prepare(m.report, m.limits).then(
        (shape) => send({ t: "prepared", id: m.id, shape }),
        (e: unknown) => send({ t: "failed", id: m.id, error: crossError(e) }),
      );
    } else if (m.t === "values") {
      if (!values) {
        send({ t: "failed", id: m.id, error: crossError(new Error("No result is prepared.")) });
      } else {
        send({ t: "values", id: m.id, values: values.slice(m.from, m.to) });
      }
    }
  });
}
