/**
 * Refresh for the hosts whose pane calls the service itself (Excel and the preview): the core's
 * refresh flow (src/core/refresh-flow.ts) run over the host's cells and the direct gateway (the data
 * API, and the record). The flow's code loads with the first refresh.
 *
 * Where the page can start a worker, each placement's data is parsed, laid out, split into blocks
 * and hashed in one (prepare-result.ts), the page doing only the I/O and the writes: on the page's
 * one thread each of those is a long piece of work that input waits for (docs/benchmarks.md,
 * "Refresh"). Without a worker, or when it cannot run, the page does it all, in separate tasks.
 */
import type { DataEffect, DataLoadProgress } from "../core/data-client.js";
import type { PlaceItem, PlaceOutcome } from "../core/place-flow.js";
import type { CellBlock, CellRead, RefreshOutcome, WriteLimits } from "../core/refresh-flow.js";
import type { RefreshItem } from "../core/refresh-plan.js";
import type { DirectGateway } from "./direct-gateway.js";
import type { PlaceHandlers, RefreshHandlers } from "./host.js";
import type { OffThreadPreparer, WorkerLike } from "./prepare-off-thread.js";

/** A host's cells: one round trip per block written or range read. */
export interface HostCells {
  write(block: CellBlock): Promise<void>;
  read(read: CellRead): Promise<unknown[][]>;
}

/**
 * A new task of the page's event loop. The load's last step (parsing the answer, up to 50,000 rows
 * a page) and the grid's layout are each long pieces of work on the page's one thread: with a task
 * between them, input that arrived meanwhile is handled after the first, not after both
 * (docs/benchmarks.md, "Refresh": the pane stays responsive during a run).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The page's refresh worker (refresh-worker.ts), a module worker from the page's own origin (the
 * pages' Content-Security-Policy: `worker-src` falls back to `script-src 'self'`); null where the
 * page has no Worker (Node, jsdom).
 */
export function defaultRefreshWorker(): (() => WorkerLike) | null {
  if (typeof Worker !== "function") return null;
  return () => new Worker(new URL("./refresh-worker.ts", import.meta.url), { type: "module" });
}

/** The gateway's part in a refresh; `runDataEffect` lets a worker's load use its data client. */
export type RefreshGateway = Pick<DirectGateway, "loadReportData" | "recordRefresh"> & {
  runDataEffect?: (
    effect: DataEffect,
    options: { signal?: AbortSignal; onProgress?: (progress: DataLoadProgress) => void; asBytes?: boolean },
  ) => Promise<unknown>;
};

export async function refreshWithGateway(
  items: readonly RefreshItem[],
  handlers: RefreshHandlers,
  gateway: RefreshGateway,
  cells: HostCells,
  limits?: WriteLimits,
  createWorker: (() => WorkerLike) | null = defaultRefreshWorker(),
): Promise<RefreshOutcome[]> {
  const { runRefresh } = await import("../core/refresh-flow.js");
  const runDataEffect = gateway.runDataEffect?.bind(gateway);
  // The worker's code loads with the first refresh, and the worker lives for this run.
  let offThread: OffThreadPreparer | null = null;
  if (createWorker && runDataEffect) {
    const { createOffThreadPreparer } = await import("./prepare-off-thread.js");
    offThread = createOffThreadPreparer(createWorker);
  }
  let workerFailed = false;
  try {
    return await runRefresh(
      items,
      {
        load: async (item, onProgress, signal, loadLimits) => {
          if (offThread && runDataEffect && loadLimits && !workerFailed) {
            try {
              return await offThread.prepare(item.placement.report, loadLimits, runDataEffect, {
                signal,
                onProgress,
              });
            } catch (e) {
              if (!(e instanceof Error && e.name === "WorkerUnavailable")) throw e;
              // The worker could not run (its script refused, or it failed): the page does the work.
              workerFailed = true;
            }
          }
          const answer = await gateway.loadReportData(item.placement.report, { signal, onProgress });
          await nextTask();
          return answer;
        },
        read: (read) => cells.read(read),
        write: async (block) => {
          // Each block in a task of its own: apart from the work before it (its values received
          // from the worker, or the previous block's rows hashed), so input waits for one at most.
          await nextTask();
          return cells.write(block);
        },
        record: (item, input) =>
          gateway.recordRefresh(item.placement.report.deploymentId, item.placement.report.id, input),
        confirmOverwrite: (_item, question) => handlers.confirmOverwrite(question),
      },
      { limits, signal: handlers.signal, onProgress: handlers.onProgress, onOutcome: handlers.onOutcome },
    );
  } finally {
    offThread?.close();
  }
}

/**
 * "Place a report here" for the same hosts: the core's place flow (src/core/place-flow.ts) over the
 * host's cells and the direct gateway (the data API, connect-workbook, the report read again when
 * an answer was lost). Its code loads with the first place.
 */
export async function placeWithGateway(
  item: PlaceItem,
  handlers: PlaceHandlers,
  gateway: Pick<DirectGateway, "loadReportData" | "connectReportToWorkbook" | "getReport">,
  cells: HostCells,
  limits?: WriteLimits,
): Promise<PlaceOutcome> {
  const { runPlace } = await import("../core/place-flow.js");
  const report = item.placement.report;
  return runPlace(
    item,
    {
      load: (_item, onProgress, signal) => gateway.loadReportData(report, { signal, onProgress }),
      read: (read) => cells.read(read),
      write: (block) => cells.write(block),
      connect: (_item, input) => gateway.connectReportToWorkbook(report.deploymentId, report.id, input),
      getReport: () => gateway.getReport(report.deploymentId, report.id),
      confirmOverwrite: (_item, question) => handlers.confirmOverwrite(question),
    },
    { limits, signal: handlers.signal },
  );
}
