/// <reference types="google-apps-script" />
/**
 * Writing and reading a placement's cells in Google Sheets: the host's half of the refresh flow
 * (src/core/refresh-flow.ts decides the blocks, the order, what to clear and what to ask). Google's
 * rules this follows (docs/google-sheets.md, "Refresh in Google Sheets"):
 *
 * - A range must lie within the sheet's grid: rows and columns the result needs beyond it are added
 *   first (insertRowsAfter / insertColumnsAfter), once per placement, before its first block.
 * - A spreadsheet holds at most 10,000,000 cells, counted over every sheet's whole grid: a result
 *   that would take it past that is refused before anything is written, with the figures.
 * - `Range.setValues` reads a string as if it were typed: "00123" becomes a number, "=A1" a
 *   formula. Every text cell is written behind an apostrophe, which Sheets keeps out of the value,
 *   so text reads back as the same text.
 * - Dates are serial numbers under a date number format: Sheets stores a date as that number, so
 *   the day is exact whatever the spreadsheet's time zone; `getValues` hands such a cell back as a
 *   Date.
 * - Each block is followed by `SpreadsheetApp.flush()`, so that what was written is applied before
 *   the next block (and before the execution may end).
 */
import { utcMsToSerial } from "../../../core/date-serial.js";
import { PlatformError } from "../../../core/errors.js";
import { formatCount } from "../../../core/limits.js";
import { parseCell } from "../../../core/location.js";
import type { CellBlock, CellRead } from "../../../core/refresh-flow.js";

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Google Sheets: "up to 10 million cells" per spreadsheet (Google Drive Help, "Files you can store"). */
export const SHEETS_CELL_LIMIT = 10_000_000;

function sheetOf(target: { id: string | null; name: string }): Sheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheets = spreadsheet.getSheets();
  const sheet =
    (target.id != null ? sheets.find((s) => String(s.getSheetId()) === String(target.id)) : undefined) ??
    sheets.find((s) => s.getName() === target.name);
  if (!sheet) {
    throw new PlatformError(
      "not-found",
      `The sheet "${target.name}" is not in this spreadsheet any more: it may have been deleted.`,
    );
  }
  return sheet;
}

/** Cells of every sheet's grid together (what Google counts against the 10 million). */
function spreadsheetCells(): number {
  let total = 0;
  for (const s of SpreadsheetApp.getActiveSpreadsheet().getSheets())
    total += s.getMaxRows() * s.getMaxColumns();
  return total;
}

/**
 * Makes the sheet's grid reach row `bottom` and column `right` (1-based), adding what is missing;
 * refuses, before adding anything, a grid that would take the spreadsheet past 10 million cells.
 */
export function ensureGrid(target: { id: string | null; name: string }, bottom: number, right: number): void {
  const sheet = sheetOf(target);
  const rows = sheet.getMaxRows();
  const columns = sheet.getMaxColumns();
  const newRows = Math.max(rows, bottom);
  const newColumns = Math.max(columns, right);
  if (newRows === rows && newColumns === columns) return;
  const after = spreadsheetCells() - rows * columns + newRows * newColumns;
  if (after > SHEETS_CELL_LIMIT) {
    throw new PlatformError(
      "bad-request",
      `Google Sheets holds at most ${formatCount(SHEETS_CELL_LIMIT)} cells in a spreadsheet, and the new result needs "${target.name}" to grow to ${formatCount(newRows)} rows by ${formatCount(newColumns)} columns: ${formatCount(after)} cells in all. Delete unused sheets, rows or columns, or ask the report's owner to narrow it`,
    );
  }
  if (newRows > rows) sheet.insertRowsAfter(rows, newRows - rows);
  if (newColumns > columns) sheet.insertColumnsAfter(columns, newColumns - columns);
}

/** A grid value as Sheets should store it: text behind an apostrophe, empty as "". */
function cellValue(value: unknown): string | number | boolean {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "string") return `'${value}`;
  if (typeof value === "number" || typeof value === "boolean") return value;
  return `'${String(value)}`;
}

/**
 * The part of `a1` inside the sheet's grid, or null: what lies beyond holds nothing and cannot be
 * addressed. The part kept starts where the range does, so positions still count from its first cell.
 */
function withinGrid(sheet: Sheet, a1: string): GoogleAppsScript.Spreadsheet.Range | null {
  const [first, last] = a1.split(":");
  const a = parseCell(first ?? "");
  const b = parseCell(last ?? first ?? "");
  if (!a || !b) throw new PlatformError("bad-request", `Not a range: ${a1}`);
  const bottom = Math.min(b.row, sheet.getMaxRows());
  const right = Math.min(b.col, sheet.getMaxColumns());
  if (bottom < a.row || right < a.col) return null;
  return sheet.getRange(a.row, a.col, bottom - a.row + 1, right - a.col + 1);
}

/** One block: the cleared ranges, the values, the header's weight, the dates' format; then a flush. */
export function writeBlock(block: CellBlock): void {
  const sheet = sheetOf(block.sheet);
  // The old extent may reach past a grid the user has since made smaller.
  for (const address of block.clear) withinGrid(sheet, address)?.clearContent();
  const rows = block.values.length;
  const columns = block.values[0]?.length ?? 0;
  const start = parseCell(block.topLeft);
  if (!start) throw new PlatformError("bad-request", `Not a cell: ${block.topLeft}`);
  if (rows > 0 && columns > 0) {
    ensureGrid(block.sheet, start.row + rows - 1, start.col + columns - 1);
    sheet
      .getRange(start.row, start.col, rows, columns)
      .setValues(block.values.map((row) => row.map(cellValue)));
    if (block.boldRows > 0)
      sheet.getRange(start.row, start.col, block.boldRows, columns).setFontWeight("bold");
    for (const area of block.dateFormats) {
      sheet
        .getRange(start.row + area.row, start.col + area.column, area.rows, area.columns)
        .setNumberFormat(area.format);
    }
  }
  SpreadsheetApp.flush();
}

/** The values of a range, as `getValues` gives them ("" for an empty cell), within the grid. */
export function readCells({ sheet, range }: CellRead): unknown[][] {
  return withinGrid(sheetOf(sheet), range)?.getValues() ?? [];
}

/**
 * Cells one `readCells` call of the sidebar may return: 50,000 (the pane reads a large range in
 * slices of that size, taskpane/editWatch.ts). Google documents no size limit for what a server
 * function returns through google.script.run, so the cap is chosen, not documented: it keeps one
 * answer to a few MB of JSON and one read well inside the 6 minutes.
 */
export const READ_CELLS_PER_CALL = 50_000;

/** Whether `value` is a Date (of any realm: `instanceof` fails across them). */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === "[object Date]";
}

/**
 * A Date `getValues` gave for a date cell, as the serial number the cell holds. The Date is the
 * instant of the cell's wall-clock time in the spreadsheet's time zone (which may differ from the
 * script's), so its wall-clock time is read back in that zone (`Utilities.formatDate`), to the
 * millisecond, and counted as date-serial.ts counts it: the number refresh wrote, so the checksum
 * compares equal.
 */
function dateCellSerial(date: Date, timeZone: string): number | string {
  const text = Utilities.formatDate(date, timeZone, "yyyy-MM-dd'T'HH:mm:ss.SSS");
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/.exec(text);
  if (!m) return text;
  const [y, mo, d, h, mi, sec, ms] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return utcMsToSerial(Date.UTC(y, mo - 1, d, h, mi, sec, ms));
}

/**
 * The values of a range for the sidebar (hand edits): as `getValues` gives them ("" for an empty
 * cell), within the grid, with what google.script.run cannot carry made plain: a date cell's Date
 * as its serial number (google.script.run fails on a Date), anything else not a primitive as text.
 * At most READ_CELLS_PER_CALL cells.
 */
export function readValues(read: CellRead): (string | number | boolean)[][] {
  const [first, last] = read.range.split(":");
  const a = parseCell(first ?? "");
  const b = parseCell(last ?? first ?? "");
  if (!a || !b || b.row < a.row || b.col < a.col) {
    throw new PlatformError("bad-request", `The cells to read are not a range: ${read.range.slice(0, 40)}`);
  }
  const cells = (b.row - a.row + 1) * (b.col - a.col + 1);
  if (cells > READ_CELLS_PER_CALL) {
    throw new PlatformError(
      "bad-request",
      `The sidebar asked for ${formatCount(cells)} cells at once; the add-on reads at most ${formatCount(READ_CELLS_PER_CALL)} a call. Close and reopen the sidebar.`,
    );
  }
  const values = readCells(read);
  let timeZone: string | null = null;
  return values.map((row) =>
    row.map((v) => {
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return v;
      if (v === null || v === undefined) return "";
      if (isDate(v)) {
        timeZone ??= SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone();
        return dateCellSerial(v, timeZone);
      }
      return String(v);
    }),
  );
}
