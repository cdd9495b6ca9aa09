/**
 * How the preview's grid lays out a sheet: the placements drawn on it (shaded), which of them cover
 * a cell the grid draws, and how many rows and columns it draws. Pure; no DOM here.
 */

import { MAX_GRID_COLUMNS, MAX_GRID_ROWS } from "../../core/limits.js";
import { type CellRange, columnLetters, formatCell } from "../../core/location.js";
import { placementRange, placementsOf } from "../../core/placements.js";
import type { Report } from "../../core/schema.js";
import { GRID_COLUMNS, GRID_ROWS, type PreviewSheet, sheetOfPlacement } from "./sheet-of-placement.js";

/** A placement drawn on a sheet. */
export interface ShadedRange {
  key: string;
  reportName: string;
  range: CellRange;
  /** The placement stores a sheet id this workbook no longer has (a tab recreated since). */
  staleSheetId: boolean;
}

/** A sheet's size in rows and columns. */
export interface SheetSize {
  readonly rows: number;
  readonly columns: number;
}

/** Rows and columns the grid draws past the last one in use, so there is always more to go to. */
export const GRID_MARGIN: SheetSize = { rows: 20, columns: 4 };

/**
 * How many rows and columns the grid draws for a sheet: at least GRID_ROWS x GRID_COLUMNS, and past
 * the cells in use (values written or typed), every placement drawn on it and the selection by
 * GRID_MARGIN, never more than a worksheet has. Arrowing past the last row grows the grid by one.
 */
export function gridSize(used: SheetSize, shaded: readonly ShadedRange[], selection: CellRange): SheetSize {
  let rows = Math.max(used.rows, selection.bottom);
  let columns = Math.max(used.columns, selection.right);
  for (const { range } of shaded) {
    rows = Math.max(rows, range.bottom);
    columns = Math.max(columns, range.right);
  }
  return {
    rows: Math.min(Math.max(GRID_ROWS, rows + GRID_MARGIN.rows), MAX_GRID_ROWS),
    columns: Math.min(Math.max(GRID_COLUMNS, columns + GRID_MARGIN.columns), MAX_GRID_COLUMNS),
  };
}

/** What `shadedRanges` reads of a workbook's snapshot. */
export interface ShadingSource {
  readonly workbookId: string;
  readonly reports: readonly Report[];
  readonly sheets: readonly PreviewSheet[];
}

/**
 * The placements of `snapshot.reports` in this workbook drawn on `sheetId`, in list order. It reads
 * only the reports, the sheets and the workbook id, so a caller can keep the result while only the
 * selection moves.
 */
export function shadedRanges(snapshot: ShadingSource, sheetId: string): ShadedRange[] {
  const out: ShadedRange[] = [];
  for (const report of snapshot.reports) {
    placementsOf(report).forEach((p, i) => {
      if (p.workbookId !== snapshot.workbookId) return;
      const on = sheetOfPlacement(p, snapshot.sheets);
      const range = placementRange(p);
      if (!on || on.sheet.id !== sheetId || !range) return;
      out.push({
        key: `${report.id}:${p.id ?? i}:${p.resultLocation}`,
        reportName: report.name,
        range,
        staleSheetId: on.staleSheetId,
      });
    });
  }
  return out;
}

/**
 * The ranges covering one row, in list order: the grid asks them (`shadeOf`) about each cell of the
 * row it draws. Only the rows in view are drawn, so the cost follows the cells on screen and the
 * placements on the sheet, never a placement's size (one of 50,000 rows shades as fast as one of 5).
 */
export function rangesOnRow(ranges: readonly ShadedRange[], row: number): ShadedRange[] {
  return ranges.filter((r) => row >= r.range.top && row <= r.range.bottom);
}

/** The shading of a cell of a row: the first of the row's ranges (`rangesOnRow`) covering its column. */
export function shadeOf(rowRanges: readonly ShadedRange[], col: number): ShadedRange | undefined {
  return rowRanges.find((r) => col >= r.range.left && col <= r.range.right);
}

/** A range in A1 form: "B2:F8", or "B2" for one cell. */
export function rangeText(range: CellRange): string {
  const start = formatCell({ col: range.left, row: range.top });
  const end = formatCell({ col: range.right, row: range.bottom });
  return start === end ? start : `${start}:${end}`;
}

/** "A".."N": the grid's column letters. */
export const COLUMN_NAMES: readonly string[] = Array.from({ length: GRID_COLUMNS }, (_, i) =>
  columnLetters(i + 1),
);
