/**
 * "Place a report here" and the hand-edit reads in the Google Sheets sidebar (docs/google-sheets.md,
 * "Place a report here in Google Sheets"). The sidebar cannot write cells or call the service: the
 * Apps Script server does both, in one or more `placeReportStep` executions within the 6-minute
 * limit. This drives them as ./refresh.ts drives a refresh: it asks the overwrite question the
 * server hands back and calls again with the answer, and calls again where the last execution
 * stopped. Cancel before writing begins: `stopRefresh` marks the run (the same Stop mark a refresh
 * run has), and the next step is sent with `stop`.
 *
 * `readCellsInSlices`: a range read for the hand-edit check, in slices of rows of at most
 * READ_CELLS_PER_CALL cells, one `readCells` call each (google.script.run carries no Date, and one
 * call's answer is kept small). Loaded with the first place or read: the first screen does without it.
 */
import { PlatformError } from "../../../core/errors.js";
import { parseCell } from "../../../core/location.js";
import type { PlaceItem, PlaceOutcome } from "../../../core/place-flow.js";
import type { CellRead } from "../../../core/refresh-flow.js";
import { formatRange } from "../../../core/refresh-plan.js";
import type { PlaceHandlers } from "../../host.js";
import type { PlaceStepAnswer, PlaceStepRequest } from "../server/place-protocol.js";
import type { ServerCall } from "./bridge.js";

/** The server's cap on one `readCells` call (server/cells.ts, READ_CELLS_PER_CALL). */
export const READ_CELLS_PER_CALL = 50_000;

/** A run's id: 16 random bytes in hex (the server accepts letters, digits and dashes). */
function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `place-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function placeInSheets(
  run: ServerCall,
  item: PlaceItem,
  handlers: PlaceHandlers,
  options: { runId?: string } = {},
): Promise<PlaceOutcome> {
  const runId = options.runId ?? newRunId();
  const { signal } = handlers;
  let stopSent = false;
  const onAbort = () => {
    if (stopSent) return;
    stopSent = true;
    run("stopRefresh", runId).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  const report = item.placement.report;
  try {
    let request: PlaceStepRequest | null = {
      runId,
      deploymentId: report.deploymentId,
      reportId: report.id,
      target: { sheetId: item.target.sheetId, sheetName: item.target.sheetName, cell: item.target.cell },
    };
    while (request) {
      if (signal?.aborted) request = { ...request, stop: true };
      const answer: PlaceStepAnswer = await run("placeReportStep", request);
      if (answer.outcome) return { ...answer.outcome, item } as PlaceOutcome;
      if (!answer.next) break;
      if (answer.question !== null) {
        // Nothing was written: the server waits for the answer (Cancel answers no).
        const yes = signal?.aborted ? false : await handlers.confirmOverwrite(answer.question);
        request = { ...answer.next, overwrite: yes && !signal?.aborted };
      } else {
        request = answer.next;
      }
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  throw new PlatformError(
    "invalid-response",
    "The add-on's script ended the place without an outcome. Press Reload list to see whether it was placed.",
  );
}

/** The range's values, one `readCells` call per slice of rows of at most READ_CELLS_PER_CALL cells. */
export async function readCellsInSlices(run: ServerCall, read: CellRead): Promise<unknown[][]> {
  const [first, last] = read.range.split(":");
  const a = parseCell(first ?? "");
  const b = parseCell(last ?? first ?? "");
  if (!a || !b) return run("readCells", read);
  const width = b.col - a.col + 1;
  const step = Math.max(1, Math.floor(READ_CELLS_PER_CALL / width));
  if (b.row - a.row + 1 <= step) return run("readCells", read);
  const rows: unknown[][] = [];
  for (let top = a.row; top <= b.row; top += step) {
    const range = formatRange({ top, bottom: Math.min(b.row, top + step - 1), left: a.col, right: b.col });
    const slice = await run("readCells", { sheet: read.sheet, range });
    rows.push(...slice);
    // A slice past the grid's last row comes back short: the rest is not in the sheet.
    if (slice.length < Math.min(b.row, top + step - 1) - top + 1) break;
  }
  return rows;
}
