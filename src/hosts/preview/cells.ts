/**
 * How the preview's cells show what a refresh wrote (numbers grouped, dates by their format), and
 * one written block applied or a range read back: the preview's side of the refresh flow
 * (src/core/refresh-flow.ts).
 */
import { formatCell, parseCell, rangeOf } from "../../core/location.js";

/** A serial date (days since 1899-12-30) as the format shows it: "2024-03-01", "2024-03", "2024". */
function serialText(serial: number, format: string): string {
  const d = new Date(Math.round((serial - 25_569) * 86_400_000));
  const iso = d.toISOString();
  if (format === "yyyy") return iso.slice(0, 4);
  if (format === "yyyy-mm") return iso.slice(0, 7);
  if (format.includes("hh")) return `${iso.slice(0, 10)} ${iso.slice(11, format.includes("ss") ? 19 : 16)}`;
  return iso.slice(0, 10);
}

/** How the grid shows a written value: numbers grouped, dates by their format, empty as "". */
export function displayValue(value: unknown, format: string | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  if (typeof value === "number") {
    if (format) return serialText(value, format);
    const [whole, fraction] = String(Math.abs(value)).split(".");
    const grouped = (whole ?? "").replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${value < 0 ? "-" : ""}${grouped}${fraction ? `.${fraction.slice(0, 4)}` : ""}`;
  }
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  return String(value);
}

/** Cells written by a refresh: the block's values from its top-left cell, and what to clear first. */
export interface PreviewCellBlock {
  sheetId: string | null;
  sheetName: string;
  topLeft: string;
  values: readonly (readonly unknown[])[];
  /** Date areas relative to the block, with their formats. */
  dateFormats: readonly { row: number; column: number; rows: number; columns: number; format: string }[];
  clear: readonly string[];
}

/** Applies one block to a sheet's shown text and written values (both changed in place). */
export function applyBlock(
  shown: Map<string, string>,
  written: Map<string, unknown>,
  block: PreviewCellBlock,
): void {
  const start = parseCell(block.topLeft);
  if (!start) throw new Error(`Not a cell: ${block.topLeft}`);
  for (const address of block.clear) {
    const [a, b] = address.split(":");
    const range = rangeOf(a ?? "", b);
    if (!range) continue;
    for (let row = range.top; row <= range.bottom; row++) {
      for (let col = range.left; col <= range.right; col++) {
        const cell = formatCell({ col, row });
        shown.delete(cell);
        written.delete(cell);
      }
    }
  }
  const formatAt = (r: number, c: number) =>
    block.dateFormats.find(
      (f) => r >= f.row && r < f.row + f.rows && c >= f.column && c < f.column + f.columns,
    )?.format;
  block.values.forEach((row, r) => {
    row.forEach((value, c) => {
      const cell = formatCell({ col: start.col + c, row: start.row + r });
      const text = displayValue(value, formatAt(r, c));
      if (text === "") {
        shown.delete(cell);
        written.delete(cell);
      } else {
        shown.set(cell, text);
        written.set(cell, value);
      }
    });
  });
}

/** A range as a host reads it back: what was written, else the text shown, else "". */
export function readBack(
  shown: ReadonlyMap<string, string> | undefined,
  written: ReadonlyMap<string, unknown> | undefined,
  address: string,
): unknown[][] {
  const [a, b] = address.split(":");
  const range = rangeOf(a ?? "", b);
  if (!range) throw new Error(`Not a range: ${address}`);
  const out: unknown[][] = [];
  for (let row = range.top; row <= range.bottom; row++) {
    const line: unknown[] = [];
    for (let col = range.left; col <= range.right; col++) {
      const cell = formatCell({ col, row });
      line.push(written?.has(cell) ? written.get(cell) : (shown?.get(cell) ?? ""));
    }
    out.push(line);
  }
  return out;
}

/**
 * What a cell holds once the user types `text` into it and commits, as Excel reads typed input: a
 * number when the text is one (sign, digits grouped by commas or not, a decimal point, an exponent:
 * "1,234.5", "-3", "2e3"), empty when nothing is left, otherwise the text as typed. A leading
 * apostrophe keeps the rest as text ("'007"), as in Excel. Other kinds Excel guesses (dates,
 * percentages, TRUE/FALSE) stay text here.
 */
export function typedValue(text: string): number | string | null {
  if (text.startsWith("'")) return text.length > 1 ? text.slice(1) : null;
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (/^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/.test(trimmed) && /\d/.test(trimmed)) {
    const number = Number(trimmed.replaceAll(",", ""));
    if (Number.isFinite(number)) return number;
  }
  return text;
}

/**
 * The text an edit of a cell starts from (F2, double click): a number shown as a number is edited
 * as typed, not grouped ("1234.5" for "1,234.5"); a date, text or anything else as it is shown.
 */
export function editText(written: unknown, shown: string | undefined): string {
  if (typeof written === "number" && shown === displayValue(written, undefined)) return String(written);
  return shown ?? "";
}

/**
 * Applies a hand edit of one cell to a sheet's shown text and written values (both changed in
 * place): the typed value (`typedValue`), or the cell emptied.
 */
export function applyEdit(
  shown: Map<string, string>,
  written: Map<string, unknown>,
  address: string,
  text: string,
): void {
  const value = typedValue(text);
  if (value === null) {
    shown.delete(address);
    written.delete(address);
    return;
  }
  shown.set(address, displayValue(value, undefined));
  written.set(address, value);
}
