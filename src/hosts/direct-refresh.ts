/**
 * Refresh for the hosts whose pane calls the service itself (Excel and the preview): the core's
 * refresh flow (src/core/refresh-flow.ts) run over the host's cells and the direct gateway (the data
 * API, and the record). The flow's code loads with the first refresh.
 */
import type { PlaceItem, PlaceOutcome } from "../core/place-flow.js";
import type { CellBlock, CellRead, RefreshOutcome, WriteLimits } from "../core/refresh-flow.js";
import type { RefreshItem } from "../core/refresh-plan.js";
import type { DirectGateway } from "./direct-gateway.js";
import type { PlaceHandlers, RefreshHandlers } from "./host.js";

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

export async function refreshWithGateway(
  items: readonly RefreshItem[],
  handlers: RefreshHandlers,
  gateway: Pick<DirectGateway, "loadReportData" | "recordRefresh">,
  cells: HostCells,
  limits?: WriteLimits,
): Promise<RefreshOutcome[]> {
  const { runRefresh } = await import("../core/refresh-flow.js");
  return runRefresh(
    items,
    {
      load: async (item, onProgress, signal) => {
        const answer = await gateway.loadReportData(item.placement.report, { signal, onProgress });
        await nextTask();
        return answer;
      },
      read: (read) => cells.read(read),
      write: (block) => cells.write(block),
      record: (item, input) =>
        gateway.recordRefresh(item.placement.report.deploymentId, item.placement.report.id, input),
      confirmOverwrite: (_item, question) => handlers.confirmOverwrite(question),
    },
    { limits, signal: handlers.signal, onProgress: handlers.onProgress, onOutcome: handlers.onOutcome },
  );
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
