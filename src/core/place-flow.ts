/**
 * "Place a report here" (docs/pane.md, "Place a report here"; platform-api.md, "Placing a report"),
 * as one flow written once: the plan (the report and the active cell as a new placement), the
 * cells written exactly as a refresh writes them (the refresh flow's program: load, lay out, ask
 * before overwriting cells that are not empty, write in blocks), then the call that records the
 * placement (`connect-workbook` with the address, the extent and the checksum of what was written),
 * the recovery when its answer is lost, and the outcome in words. `runPlace` (the pane in Excel and
 * the preview) and `runPlaceSync` (Apps Script) execute it.
 */

import type { LoadAnswer } from "./data-api.js";
import type { DataLoadProgress } from "./data-client.js";
import { revealInvisible } from "./display.js";
import { isPlatformError, PlatformError } from "./errors.js";
import {
  type CellRange,
  formatCell,
  formatLocation,
  normalizeCell,
  parseCell,
  quoteSheetName,
} from "./location.js";
import { type PlacedReport, placementKey, reportName } from "./placement-view.js";
import { findPlacementAt, placementAnchor, placementSheetName, placementsOf } from "./placements.js";
import { runProgram, runProgramSync } from "./program.js";
import {
  type CellBlock,
  type CellRead,
  DEFAULT_WRITE_LIMITS,
  type RefreshEffect,
  type RefreshOutcome,
  refreshProgram,
  type WriteLimits,
} from "./refresh-flow.js";
import { formatRange, type RefreshItem } from "./refresh-plan.js";
import type { ConnectWorkbookInput, Report } from "./schema.js";

/** The host a placement is recorded for (`ReportPlacement.host`); null where the service has no name for it. */
export type PlaceHost = "EXCEL" | "GOOGLE_SHEETS" | null;

/** Where the user asked to place the report: the workbook, the active sheet and the active cell. */
export interface PlaceTarget {
  workbookId: string;
  workbookName: string;
  sheetId: string | null;
  sheetName: string;
  /** The active cell, A1; the new placement's anchor. */
  cell: string;
  host: PlaceHost;
}

/** One report to place: the refresh flow's item for a placement that does not exist yet. */
export interface PlaceItem extends RefreshItem {
  target: PlaceTarget;
}

export type PlacePlan = { kind: "ready"; item: PlaceItem } | { kind: "refused"; message: string };

/**
 * The plan for placing `report` at `target`: refused when the report is not a report (a folder or a
 * workbook of the platform has no data), the cell is not one, or a placement of this workbook is
 * already under it (Place a report here is offered only where none is).
 */
export function planPlace(
  report: Report,
  target: PlaceTarget,
  placedHere: readonly PlacedReport[],
): PlacePlan {
  const name = reportName(report);
  if (report.type && report.type !== "REPORT") {
    return {
      kind: "refused",
      message: `Not placed: ${name} is a ${report.type.toLowerCase()}, not a report.`,
    };
  }
  const cell = normalizeCell(target.cell);
  const anchor = cell ? parseCell(cell) : null;
  if (!cell || !anchor) return { kind: "refused", message: `Not placed: "${target.cell}" is not a cell.` };
  const under = findPlacementAt(placedHere, {
    workbookId: target.workbookId,
    sheetId: target.sheetId,
    sheetName: target.sheetName,
    cell,
  });
  if (under) {
    return {
      kind: "refused",
      message: `Not placed: ${reportName(under.report)} is already placed under ${quoteSheetName(revealInvisible(target.sheetName))}!${cell}. Choose an empty cell.`,
    };
  }
  const resultLocation = formatLocation({ sheetName: target.sheetName, start: cell, end: null });
  const p = {
    workbookId: target.workbookId,
    workbookName: target.workbookName,
    sheetId: target.sheetId,
    sheetName: target.sheetName,
    anchorCell: cell,
    resultLocation,
    host: target.host,
  };
  const placement: PlacedReport = { ...p, report, key: `new:${placementKey(report, p)}` };
  return {
    kind: "ready",
    item: {
      placement,
      sheet: { id: target.sheetId, name: target.sheetName },
      anchor,
      previous: null,
      isNew: true,
      target: { ...target, cell },
    },
  };
}

/** What `connect-workbook` is sent for a placement written at `written` (platform-api.md, "Placing a report"). */
export function placeRecord(
  item: PlaceItem,
  written: CellRange,
  checksum: ConnectWorkbookInput["resultChecksum"],
): ConnectWorkbookInput {
  const { target } = item;
  const start = formatCell({ col: written.left, row: written.top });
  const end = formatCell({ col: written.right, row: written.bottom });
  return {
    externalWorkbookId: target.workbookId,
    resultLocation: formatLocation({ sheetName: target.sheetName, start, end: end === start ? null : end }),
    sheetId: target.sheetId,
    sheetName: target.sheetName,
    anchorCell: start,
    endResultCell: end,
    workbookName: target.workbookName,
    host: target.host,
    resultChecksum: checksum ?? null,
  };
}

/**
 * The placement `report` holds at the target (this workbook, the sheet by id when both have one,
 * else by name, the same anchor), with its report, or null.
 */
export function placedAt(report: Report, target: PlaceTarget): PlacedReport | null {
  const anchor = normalizeCell(target.cell);
  for (const p of placementsOf(report)) {
    if (p.workbookId !== target.workbookId) continue;
    const a = placementAnchor(p);
    if (!a || normalizeCell(a) !== anchor) continue;
    const sameSheet =
      p.sheetId && target.sheetId ? p.sheetId === target.sheetId : placementSheetName(p) === target.sheetName;
    if (sameSheet) return { ...p, report, key: placementKey(report, p) };
  }
  return null;
}

export type PlaceEffect =
  | Exclude<RefreshEffect, { type: "record" }>
  | { type: "connect"; item: PlaceItem; input: ConnectWorkbookInput }
  /** The report read again: did a call whose answer was lost record the placement? */
  | { type: "reread"; item: PlaceItem };

export type PlaceFailure =
  /** Excel: the workbook's id property could not be saved, so a placement could not be found again. */
  | "no-workbook-id"
  | "no-access"
  | "query-failed"
  | "would-overwrite"
  | "stopped"
  | "write-failed"
  | "record-failed";

export type PlaceOutcome =
  | {
      status: "placed";
      item: PlaceItem;
      /** The report as the service recorded it, and the new placement in it. */
      report: Report;
      placement: PlacedReport;
      written: CellRange;
      message: string;
    }
  | {
      status: "not-placed";
      item: PlaceItem;
      reason: PlaceFailure;
      message: string;
      /** The cells were written (wholly, or these sheet rows) but nothing was recorded. */
      written?: CellRange | null;
      newRows?: { from: number; to: number } | null;
    };

function where(item: PlaceItem, range: CellRange): string {
  return `${quoteSheetName(revealInvisible(item.sheet.name))}!${formatRange(range)}`;
}

/** "Placed Revenue by Region at Summary!B2:F8." */
export function placedMessage(item: PlaceItem, written: CellRange): string {
  return `Placed ${reportName(item.placement.report)} at ${where(item, written)}.`;
}

/**
 * A refresh outcome of the cells' part, said for a placement: the refresh flow's reasons, with
 * "Not placed" for "Not refreshed" and placing again for refreshing again.
 */
function notPlacedFrom(
  item: PlaceItem,
  o: Extract<RefreshOutcome, { status: "not-refreshed" }>,
): PlaceOutcome {
  const reason: PlaceFailure =
    o.reason === "no-access" ||
    o.reason === "query-failed" ||
    o.reason === "would-overwrite" ||
    o.reason === "stopped" ||
    o.reason === "write-failed"
      ? o.reason
      : "write-failed";
  const message = o.message
    .replace(/^Not refreshed:/, "Not placed:")
    .replace(/the new result of /, "")
    .replace(
      /Nothing was recorded: refresh it again\.$/,
      "Nothing was recorded: clear those rows, or place it again.",
    )
    .replace(/the rest still shows the old one\./, "the rest was not written.");
  return { status: "not-placed", item, reason, message, newRows: o.newRows ?? null };
}

/** Whether a failed call may still have been applied by the service (its answer lost on the way). */
function mayHaveApplied(error: PlatformError): boolean {
  return (
    error.kind === "timeout" ||
    error.kind === "network" ||
    error.kind === "invalid-response" ||
    (error.kind === "server" && error.status !== 503)
  );
}

function asPlatformError(e: unknown): PlatformError {
  return isPlatformError(e) ? e : new PlatformError("server", e instanceof Error ? e.message : String(e));
}

/**
 * Placing one report, as a program of effects: the refresh flow's program for the cells (its
 * "record" is this flow's business), then `connect-workbook`. Without `placementId` the service
 * updates the placement at the same workbook, sheet and anchor if there is one, so the call is safe
 * to repeat (docs/decisions.md, "Placing: create or update"): a call whose answer was lost is checked
 * by reading the report again, and sent once more if the placement is not there.
 */
export function* placeProgram(
  item: PlaceItem,
  limits: WriteLimits = DEFAULT_WRITE_LIMITS,
): Generator<PlaceEffect, PlaceOutcome, unknown> {
  const name = reportName(item.placement.report);
  const cells = refreshProgram(item, limits);
  let next = cells.next();
  while (!next.done) {
    const effect = next.value;
    if (effect.type === "record") {
      // The cells are written: the program's own record is replaced by the placement's.
      cells.return(undefined as never);
      const written = writtenRange(effect.input.endResultCell, item);
      const input = placeRecord(item, written, effect.input.resultChecksum);
      let lastError: PlatformError | null = null;
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const report = (yield { type: "connect", item, input }) as Report;
          const placement = placedAt(report, item.target);
          if (placement) return placedOutcome(item, report, placement, written);
          lastError = new PlatformError("invalid-response", "the service answered without the new placement");
          break;
        } catch (e) {
          lastError = asPlatformError(e);
          if (!mayHaveApplied(lastError)) break;
          // The answer was lost, not necessarily the call: the report read again tells.
          try {
            const report = (yield { type: "reread", item }) as Report;
            const placement = placedAt(report, item.target);
            if (placement) return placedOutcome(item, report, placement, written);
          } catch {
            // Unknown either way: the next attempt (the same address, so never a second placement) decides.
          }
        }
      }
      return {
        status: "not-placed",
        item,
        reason: "record-failed",
        written,
        message: `${name} was written at ${where(item, written)}, but the service could not record the placement (${lastError?.message ?? "no answer"}): it is not listed, and Refresh cannot find it. Place it again at ${quoteSheetName(revealInvisible(item.sheet.name))}!${item.target.cell} to record it (the same cells are written again).`,
      };
    }
    let value: unknown;
    try {
      value = yield effect as PlaceEffect;
    } catch (e) {
      next = cells.throw(e);
      continue;
    }
    next = cells.next(value);
  }
  const outcome = next.value;
  if (outcome.status === "not-refreshed") return notPlacedFrom(item, outcome);
  // The refresh program returns "refreshed" only after its record, which this flow never answers.
  throw new Error("The place flow ended without recording the placement.");
}

function writtenRange(endCell: string | null | undefined, item: PlaceItem): CellRange {
  const end = endCell ? parseCell(endCell) : null;
  return {
    top: item.anchor.row,
    left: item.anchor.col,
    bottom: end?.row ?? item.anchor.row,
    right: end?.col ?? item.anchor.col,
  };
}

function placedOutcome(
  item: PlaceItem,
  report: Report,
  placement: PlacedReport,
  written: CellRange,
): PlaceOutcome {
  return { status: "placed", item, report, placement, written, message: placedMessage(item, written) };
}

/** What runs a place: the host's cells, the data, the service, and the user. */
export interface PlaceRunner {
  load(item: PlaceItem, onProgress: (p: DataLoadProgress) => void, signal?: AbortSignal): Promise<LoadAnswer>;
  read(read: CellRead): Promise<unknown[][]>;
  write(block: CellBlock): Promise<void>;
  connect(item: PlaceItem, input: ConnectWorkbookInput): Promise<Report>;
  /** The report as the service has it now. */
  getReport(item: PlaceItem): Promise<Report>;
  /** Asked before cells that are not empty are overwritten; false places nothing. */
  confirmOverwrite(item: PlaceItem, question: string): Promise<boolean>;
}

export interface PlaceOptions {
  limits?: WriteLimits;
  /** Cancel: a load in progress is abandoned; once writing has begun, the placement is finished. */
  signal?: AbortSignal;
  onProgress?: (progress: { phase: string; rows?: number; totalRows?: number | null }) => void;
}

function stopped(item: PlaceItem): PlaceOutcome {
  return {
    status: "not-placed",
    item,
    reason: "stopped",
    message: `Not placed: cancelled before ${reportName(item.placement.report)} was written.`,
  };
}

export async function runPlace(
  item: PlaceItem,
  runner: PlaceRunner,
  options: PlaceOptions = {},
): Promise<PlaceOutcome> {
  if (options.signal?.aborted) return stopped(item);
  const program = placeProgram(item, options.limits);
  let writing = false;
  return runProgram(
    program,
    async (effect) => {
      let value: unknown;
      switch (effect.type) {
        case "load":
          value = await runner.load(item, (p) => options.onProgress?.(p), options.signal);
          break;
        case "read":
          value = await runner.read(effect.read);
          break;
        case "confirm":
          value = options.signal?.aborted ? false : await runner.confirmOverwrite(item, effect.question);
          break;
        case "write":
          writing = true;
          value = await runner.write(effect.block);
          break;
        case "values":
          value = await effect.result.values(effect.from, effect.to);
          break;
        case "connect":
          value = await runner.connect(item, effect.input);
          break;
        case "reread":
          value = await runner.getReport(item);
          break;
        case "progress":
          options.onProgress?.({ phase: effect.phase, rows: effect.rows, totalRows: effect.totalRows });
          break;
      }
      return value;
    },
    (effect) =>
      !writing && options.signal?.aborted && effect.type !== "progress" ? stopped(item) : undefined,
  );
}

/** The same for Apps Script, where every call blocks. */
export interface SyncPlaceRunner {
  load(item: PlaceItem): LoadAnswer;
  read(read: CellRead): unknown[][];
  write(block: CellBlock): void;
  connect(item: PlaceItem, input: ConnectWorkbookInput): Report;
  getReport(item: PlaceItem): Report;
  /**
   * The answer given beforehand (the sidebar asked the user and called again), or a function that
   * is handed the question and answers it (Apps Script: it keeps the question for the sidebar and
   * answers no, so nothing is written in this execution).
   */
  overwrite: boolean | ((question: string) => boolean);
}

export function runPlaceSync(
  item: PlaceItem,
  runner: SyncPlaceRunner,
  options: Pick<PlaceOptions, "limits" | "onProgress"> = {},
): PlaceOutcome {
  const program = placeProgram(item, options.limits);
  const outcome = runProgramSync(program, (effect) => {
    let value: unknown;
    switch (effect.type) {
      case "load":
        value = runner.load(item);
        break;
      case "read":
        value = runner.read(effect.read);
        break;
      case "confirm":
        value = typeof runner.overwrite === "function" ? runner.overwrite(effect.question) : runner.overwrite;
        break;
      case "write":
        runner.write(effect.block);
        break;
      case "values":
        // A synchronous load answers the data itself, never a prepared result.
        throw new Error("A prepared result needs the asynchronous runner.");
      case "connect":
        value = runner.connect(item, effect.input);
        break;
      case "reread":
        value = runner.getReport(item);
        break;
      case "progress":
        options.onProgress?.({ phase: effect.phase, rows: effect.rows, totalRows: effect.totalRows });
        break;
    }
    return value;
  });
  return outcome;
}
