/**
 * Refresh, planned (platform-api.md, "Recording a refresh"; docs/decisions.md, "Refresh"): which
 * placements a Refresh, Refresh report or Refresh all takes and in what order, which it cannot take
 * and why, where the new result lands, which cells it newly covers (they must be empty, or the user
 * is asked) and which of the old extent it clears, the blocks a host writes it in, and the record
 * sent afterwards. Pure: the hosts write, the clients send, this decides.
 */
import { revealInvisible } from "./display.js";
import { type CellRange, type CellRef, formatCell, parseCell, quoteSheetName } from "./location.js";
import {
  locatePlacement,
  type PlacedReport,
  reportKey,
  reportName,
  type SheetRef,
} from "./placement-view.js";
import { placementAnchor, placementRange, toDisconnectInput } from "./placements.js";
import type { RefreshInput, ResultChecksum } from "./schema.js";

/** What the user asked to refresh. */
export type RefreshScope =
  /** "Refresh": one placement, by its key (`placementKey`). */
  | { kind: "placement"; key: string }
  /** "Refresh report": every placement of one report in this workbook, by `reportKey`. */
  | { kind: "report"; reportKey: string }
  /** "Refresh all": every placement of this workbook. */
  | { kind: "all" };

/** One placement a refresh will write, on the sheet where it is now. */
export interface RefreshItem {
  placement: PlacedReport;
  /** The sheet as it is called now (a renamed tab keeps its id). */
  sheet: { id: string | null; name: string };
  anchor: CellRef;
  /** The cells the placement covered before (its anchor to its stored last cell), when known. */
  previous: CellRange | null;
  /** A placement being made (Place a report here, src/core/place-flow.ts), not one refreshed. */
  isNew?: boolean;
}

export type NotRefreshedReason =
  | "sheet-gone"
  | "sheet-recreated"
  | "no-anchor"
  | "no-access"
  | "query-failed"
  | "would-overwrite"
  | "edited"
  | "stopped"
  | "write-failed"
  | "record-failed";

export interface NotRefreshed {
  placement: PlacedReport;
  reason: NotRefreshedReason;
  /** The reason in words, for the placement's row. */
  message: string;
}

export interface RefreshPlan {
  /** In writing order: sheet by sheet in workbook order, then top to bottom, left to right. */
  items: RefreshItem[];
  /** Placements of the scope that cannot be refreshed, each with its reason (never skipped silently). */
  notRefreshed: NotRefreshed[];
}

function inScope(p: PlacedReport, scope: RefreshScope): boolean {
  switch (scope.kind) {
    case "placement":
      return p.key === scope.key;
    case "report":
      return reportKey(p.report) === scope.reportKey;
    case "all":
      return true;
  }
}

/**
 * The plan for `scope` over this workbook's placements (`here`), given the workbook's sheets as they
 * are now. A placement whose sheet is gone, or was deleted and recreated under the same name (its
 * cells are not on the new tab: docs/decisions.md), or whose anchor cannot be read, is listed as
 * not refreshed with the reason; Refresh all counts only what it will try.
 */
export function planRefresh(
  here: readonly PlacedReport[],
  scope: RefreshScope,
  sheets: readonly SheetRef[],
): RefreshPlan {
  const items: RefreshItem[] = [];
  const notRefreshed: NotRefreshed[] = [];
  for (const placement of here) {
    if (!inScope(placement, scope)) continue;
    const where = locatePlacement(placement, sheets);
    const name = reportName(placement.report);
    const onASheet = where.sheetId !== null || sheets.some((s) => s.name === where.sheetName);
    if (where.note?.kind === "not-found") {
      // Stored without a sheet id: its sheet may have been renamed (placement-moves.ts, Move here).
      notRefreshed.push({
        placement,
        reason: "sheet-gone",
        message: `Not refreshed: no sheet is named "${revealInvisible(where.sheetName)}" now, so ${name} was not found. If its sheet was renamed, use Move here first.`,
      });
      continue;
    }
    if (where.note?.kind === "missing" || !onASheet) {
      notRefreshed.push({
        placement,
        reason: "sheet-gone",
        message: `Not refreshed: the sheet "${revealInvisible(where.sheetName)}" of ${name} is no longer in this workbook.`,
      });
      continue;
    }
    if (where.note?.kind === "recreated") {
      notRefreshed.push({
        placement,
        reason: "sheet-recreated",
        message: `Not refreshed: the sheet "${revealInvisible(where.sheetName)}" was deleted and added again since ${name} was placed, so its cells are not this placement's.`,
      });
      continue;
    }
    const anchorText = placement.anchorCell || placementAnchor(placement);
    const anchor = anchorText ? parseCell(anchorText) : null;
    if (!anchor) {
      notRefreshed.push({
        placement,
        reason: "no-anchor",
        message: `Not refreshed: the service does not say where ${name} starts on its sheet.`,
      });
      continue;
    }
    items.push({
      placement,
      sheet: { id: where.sheetId, name: where.sheetName },
      anchor,
      previous: placementRange(placement),
    });
  }
  const order = new Map(sheets.map((s, i) => [s.id ?? s.name, i]));
  const sheetIndex = (item: RefreshItem) =>
    order.get(item.sheet.id ?? item.sheet.name) ?? order.get(item.sheet.name) ?? Number.MAX_SAFE_INTEGER;
  items.sort(
    (a, b) => sheetIndex(a) - sheetIndex(b) || a.anchor.row - b.anchor.row || a.anchor.col - b.anchor.col,
  );
  return { items, notRefreshed };
}

/** The cells a result of `rows` x `columns` covers from `anchor` (at least the anchor itself). */
export function resultRange(anchor: CellRef, rows: number, columns: number): CellRange {
  return {
    top: anchor.row,
    left: anchor.col,
    bottom: anchor.row + Math.max(1, rows) - 1,
    right: anchor.col + Math.max(1, columns) - 1,
  };
}

/** "B2:F8" (or "B2" for one cell). */
export function formatRange(range: CellRange): string {
  const start = formatCell({ col: range.left, row: range.top });
  const end = formatCell({ col: range.right, row: range.bottom });
  return start === end ? start : `${start}:${end}`;
}

/**
 * The part of `a` outside `b`, as at most four rectangles (above, below, left, right of the
 * overlap); all of `a` when they do not overlap or `b` is null.
 */
export function rangesOutside(a: CellRange, b: CellRange | null): CellRange[] {
  if (!b) return [a];
  const top = Math.max(a.top, b.top);
  const bottom = Math.min(a.bottom, b.bottom);
  const left = Math.max(a.left, b.left);
  const right = Math.min(a.right, b.right);
  if (top > bottom || left > right) return [a];
  const out: CellRange[] = [];
  if (a.top < top) out.push({ top: a.top, bottom: top - 1, left: a.left, right: a.right });
  if (a.bottom > bottom) out.push({ top: bottom + 1, bottom: a.bottom, left: a.left, right: a.right });
  if (a.left < left) out.push({ top, bottom, left: a.left, right: left - 1 });
  if (a.right > right) out.push({ top, bottom, left: right + 1, right: a.right });
  return out;
}

/** Where a new result of `rows` x `columns` lands, what it newly takes and what it leaves. */
export interface WriteExtent {
  range: CellRange;
  /** Cells the new result covers that the old extent did not: they must be empty, or the user asked. */
  taken: CellRange[];
  /** Cells of the old extent the new result no longer covers: cleared. */
  cleared: CellRange[];
}

export function writeExtent(item: RefreshItem, rows: number, columns: number): WriteExtent {
  const range = resultRange(item.anchor, rows, columns);
  return {
    range,
    taken: rangesOutside(range, item.previous),
    cleared: item.previous ? rangesOutside(item.previous, range) : [],
  };
}

/** A value a host reads back: empty when null, undefined or "" (Excel's and Apps Script's empty). */
export function isEmptyCell(value: unknown): boolean {
  return value === null || value === undefined || value === "";
}

/** The first cell of `values` (read from `range`) that is not empty, as A1, or null. */
export function firstFilledCell(range: CellRange, values: readonly (readonly unknown[])[]): string | null {
  for (let r = 0; r < values.length; r++) {
    const row = values[r] ?? [];
    for (let c = 0; c < row.length; c++) {
      if (!isEmptyCell(row[c])) return formatCell({ row: range.top + r, col: range.left + c });
    }
  }
  return null;
}

/** The question asked before cells that are not the placement's are overwritten. */
export function overwriteQuestion(
  item: RefreshItem,
  taken: readonly CellRange[],
  firstFilled: string,
): string {
  const where = `${quoteSheetName(revealInvisible(item.sheet.name))}!${taken.map(formatRange).join(", ")}`;
  if (item.isNew) {
    return `${reportName(item.placement.report)} placed here covers ${where}, and ${firstFilled} is not empty. Overwrite those cells?`;
  }
  return `${reportName(item.placement.report)} has grown: its new result also covers ${where}, and ${firstFilled} is not empty. Overwrite those cells?`;
}

// ---------------------------------------------------------------------------------------------
// Blocks: a large result is written in several host round trips, each within the host's limit.

/**
 * A rough upper bound of the bytes one cell adds to a host's write request (its JSON): a number's
 * digits, a string's characters three times over (UTF-8 and escapes), a few bytes of punctuation.
 */
function cellBytes(value: unknown): number {
  if (value === null || value === undefined) return 3;
  if (typeof value === "number") return 24;
  if (typeof value === "boolean") return 6;
  if (typeof value === "string") return value.length * 3 + 3;
  return 64;
}

/** A run of rows of the grid, written in one host round trip: rows `from` to `to` (exclusive). */
export interface WriteBlock {
  from: number;
  to: number;
}

/**
 * The rows of `values` in blocks whose estimated request stays within `maxBytes` (Excel on the web:
 * 5 MB per `context.sync()`; the caller leaves headroom for the request's own envelope). A single
 * row larger than that is a block of its own: the host reports it if it still fails.
 */
export function planBlocks(values: readonly (readonly unknown[])[], maxBytes: number): WriteBlock[] {
  const blocks: WriteBlock[] = [];
  let from = 0;
  let size = 0;
  for (let r = 0; r < values.length; r++) {
    const row = values[r] ?? [];
    let bytes = 2;
    for (let c = 0; c < row.length; c++) bytes += cellBytes(row[c]);
    if (r > from && size + bytes > maxBytes) {
      blocks.push({ from, to: r });
      from = r;
      size = 0;
    }
    size += bytes;
  }
  if (values.length > from) blocks.push({ from, to: values.length });
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// The record, and what the user reads.

/**
 * The record of a refresh: the placement addressed as for a disconnect (by id when it has one; by
 * its stored sheet name and anchor otherwise, with the sheet id only when it is the sheet's now:
 * disconnect rules 1-7), the checksum of what was written, and the new last cell.
 */
export function refreshRecord(item: RefreshItem, written: CellRange, checksum: ResultChecksum): RefreshInput {
  const address = toDisconnectInput(item.placement, { sheetId: item.sheet.id, sheetName: item.sheet.name });
  return {
    ...address,
    resultChecksum: checksum,
    endResultCell: formatCell({ col: written.right, row: written.bottom }),
  };
}

/** "Refreshed Revenue by Region at Summary!B2:F8." */
export function refreshedMessage(item: RefreshItem, written: CellRange): string {
  return `Refreshed ${reportName(item.placement.report)} at ${quoteSheetName(revealInvisible(item.sheet.name))}!${formatRange(written)}.`;
}
