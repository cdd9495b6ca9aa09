/**
 * A1 addresses as spreadsheets write them: `B2`, `$B$2`, `Sheet1!B2`, `'Q1 Sales'!B2:F9`,
 * `'It''s'!A1`. Columns run A..XFD (Excel's last column); rows from 1 up to 10,000,000 (Excel stops
 * at 1,048,576; Google Sheets allows more rows).
 */

export interface Location {
  /** The sheet (tab) name, unquoted; null when the text names no sheet. */
  sheetName: string | null;
  /** First cell, upper-case, without `$`: "B2". */
  start: string;
  /** Last cell of a range, or null for a single cell. */
  end: string | null;
}

export interface CellRef {
  /** 1-based column number: A = 1. */
  col: number;
  /** 1-based row number. */
  row: number;
}

const MAX_COLUMN = 16384; // XFD
const MAX_ROW = 10_000_000;

const CELL = /^\$?([A-Za-z]{1,3})\$?([0-9]{1,8})$/;

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function columnLetters(col: number): string {
  let s = "";
  let n = col;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Parses one cell ("b2", "$B$2") to its column and row, or null when it is not a cell in range. */
export function parseCell(text: string): CellRef | null {
  const m = CELL.exec(text.trim());
  if (!m) return null;
  const col = columnNumber(m[1]!);
  const row = Number(m[2]);
  if (col < 1 || col > MAX_COLUMN || row < 1 || row > MAX_ROW) return null;
  return { col, row };
}

export function formatCell(ref: CellRef): string {
  return `${columnLetters(ref.col)}${ref.row}`;
}

/** "$b$2" -> "B2"; null when the text is not a cell. */
export function normalizeCell(text: string): string | null {
  const ref = parseCell(text);
  return ref ? formatCell(ref) : null;
}

// A sheet name that needs no quotes: letters, digits, underscore and dot, not starting with a digit
// or a dot. Anything else (spaces, punctuation, a leading digit) is written quoted.
const PLAIN_SHEET = /^[\p{L}_][\p{L}\p{N}_.]*$/u;
// Names a spreadsheet would read as a reference if unquoted: a cell (A1, XFD10) or R1C1 forms.
const REFERENCE_LIKE = /^([A-Za-z]{1,3}[0-9]+|[Rr][0-9]*[Cc][0-9]*|[Rr][0-9]*|[Cc][0-9]*)$/;

function sheetNameNeedsQuotes(name: string): boolean {
  return !PLAIN_SHEET.test(name) || REFERENCE_LIKE.test(name) || /^(true|false)$/i.test(name);
}

export function quoteSheetName(name: string): string {
  return sheetNameNeedsQuotes(name) ? `'${name.replace(/'/g, "''")}'` : name;
}

/**
 * Parses a location. Returns null for text that is not one (no cell, a column beyond XFD, an empty
 * or badly quoted sheet name, trailing text).
 */
export function parseLocation(text: string): Location | null {
  if (typeof text !== "string") return null;
  const input = text.trim();
  let sheetName: string | null = null;
  let rest = input;

  if (input.startsWith("'")) {
    // Quoted name: '' stands for one quote; the name ends at a lone quote followed by "!".
    let i = 1;
    let name = "";
    for (;;) {
      if (i >= input.length) return null;
      const ch = input[i]!;
      if (ch === "'") {
        if (input[i + 1] === "'") {
          name += "'";
          i += 2;
          continue;
        }
        break;
      }
      name += ch;
      i++;
    }
    if (input[i + 1] !== "!" || name.length === 0) return null;
    sheetName = name;
    rest = input.slice(i + 2);
  } else {
    const bang = input.lastIndexOf("!");
    if (bang >= 0) {
      const name = input.slice(0, bang);
      // Spreadsheets quote names with spaces or punctuation, but a service may not: accept any
      // name without the characters a sheet name can never hold.
      if (!/^[^'![\]*?/\\:\s](?:[^'![\]*?/\\:]*[^'![\]*?/\\:\s])?$/u.test(name)) return null;
      sheetName = name;
      rest = input.slice(bang + 1);
    }
  }

  const parts = rest.split(":");
  if (parts.length > 2) return null;
  const start = normalizeCell(parts[0]!);
  if (!start || parts[0] !== parts[0]!.trim()) return null;
  let end: string | null = null;
  if (parts.length === 2) {
    end = normalizeCell(parts[1]!);
    if (!end || parts[1] !== parts[1]!.trim()) return null;
  }
  return { sheetName, start, end };
}

/** Writes a location back as text; `parseLocation(formatLocation(loc))` gives `loc` back. */
export function formatLocation(loc: Location): string {
  const range = loc.end ? `${loc.start}:${loc.end}` : loc.start;
  return loc.sheetName === null ? range : `${quoteSheetName(loc.sheetName)}!${range}`;
}

/** A rectangle of cells, inclusive, normalised so that top-left comes first. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function rangeOf(start: string, end: string | null | undefined): CellRange | null {
  const a = parseCell(start);
  const b = end ? parseCell(end) : a;
  return a && b ? rangeBetween(a, b) : null;
}

/** The rectangle with corners `a` and `b`, in either order. */
export function rangeBetween(a: CellRef, b: CellRef): CellRange {
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col),
  };
}

export function rangeContains(range: CellRange, cell: CellRef): boolean {
  return (
    cell.row >= range.top && cell.row <= range.bottom && cell.col >= range.left && cell.col <= range.right
  );
}
