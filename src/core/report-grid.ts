/**
 * A report's data answer as the cells a host writes (docs/platform-api.md, "A report's grid"):
 * one rectangular 2-D array of plain values that crosses google.script.run and postMessage as it
 * is, plus what a host needs to format it (where dates are, with which format).
 *
 * Sans I/O: the data client loads the answer (all its pages' rows in one `data`), this module lays
 * it out flat or as a pivot (the report's `pivotItems`), and the host writes it.
 */
import { excelDateSerial } from "./date-serial.js";
import { invalidResponse, PlatformError } from "./errors.js";
import { formatCount, MAX_GRID_CELLS, MAX_GRID_COLUMNS, MAX_GRID_ROWS } from "./limits.js";
import type { Report } from "./schema.js";

/**
 * One cell: text, a number, a boolean, or null for an empty cell. A date is its serial number
 * (days since 1899-12-30, excelDateSerial) in an area of `dateFormats`: both hosts store dates so.
 */
export type GridCell = string | number | boolean | null;

/** What a member's cells hold; "mixed" for a pivot column whose rows hold several measures. */
export type ColumnKind = "text" | "number" | "date" | "boolean" | "mixed";

/** A rectangle of cells that hold dates, and the number format to show them with (both hosts read it). */
export interface DateFormatArea {
  row: number;
  column: number;
  rows: number;
  columns: number;
  format: string;
}

export interface ReportGrid {
  layout: "flat" | "pivot";
  /** Rows of equal length: `rows` x `columns`. */
  values: GridCell[][];
  rows: number;
  columns: number;
  /** Rows of titles above the data (1 when flat). */
  headerRows: number;
  /** Columns of row labels left of the values (0 when flat). */
  headerColumns: number;
  /** The kind of each column's cells below the header rows (titles and "Total" labels aside). */
  columnKinds: ColumnKind[];
  /** Where the dates are; every other cell keeps the host's default format. */
  dateFormats: DateFormatArea[];
}

/** The report as the grid needs it: its query and its layout. */
export type GridReport = Pick<Report, "jsonQuery" | "pivotItems">;

/**
 * The number format of a time dimension's cells by granularity (Excel and Google Sheets read the
 * same codes). A quarter shows its first month; a week its first day (the data API starts weeks
 * on Monday).
 */
export const DATE_FORMATS: Readonly<Record<string, string>> = {
  year: "yyyy",
  quarter: "yyyy-mm",
  month: "yyyy-mm",
  week: "yyyy-mm-dd",
  day: "yyyy-mm-dd",
  hour: "yyyy-mm-dd hh:mm",
  minute: "yyyy-mm-dd hh:mm",
  second: "yyyy-mm-dd hh:mm:ss",
};
/** A time member without a granularity, or with one of the deployment's own. */
export const DATE_TIME_FORMAT = "yyyy-mm-dd hh:mm:ss";

/** The label of the totals row and column. */
export const TOTAL_LABEL = "Total";
/** The title over the measure names when measures are on the rows axis. */
export const MEASURES_LABEL = "Measures";
/** The title of the single value column when measures are on the rows and no member is on the columns. */
export const VALUE_LABEL = "Value";

type Kind = "text" | "number" | "date" | "boolean";

/** A member of the query as it becomes a column (flat) or a level of a pivot. */
export interface GridMember {
  /** Its key in the answer's rows: `orders.status`, or `orders.created_at.month` for a time dimension. */
  key: string;
  /** The member the query names (`orders.created_at` for `orders.created_at.month`). */
  member: string;
  role: "dimension" | "measure";
  title: string;
  kind: Kind;
  /** The date format of its cells, for a time member. */
  format: string | null;
}

/** The answer of the data API's load (several pages' `data` concatenated), as far as the grid reads it. */
export interface LoadAnswer {
  query?: unknown;
  data: Record<string, unknown>[];
  annotation?: unknown;
}

/**
 * The cells of a report's answer: flat (a title row, then one row per data row) when the report has
 * no pivot rows or columns, else a pivot (docs/platform-api.md, "A report's grid").
 */
export function reportGrid(report: GridReport, answer: unknown): ReportGrid {
  const loaded = readAnswer(answer);
  const members = gridMembers(queryOf(report, loaded), loaded.annotation);
  const pivot = report.pivotItems;
  if (!pivot || (pivot.rows.length === 0 && pivot.columns.length === 0))
    return flatGrid(members, loaded.data);
  return pivotGrid(members, loaded.data, pivot);
}

// ---------------------------------------------------------------------------------------------
// The answer and the query

function readAnswer(answer: unknown): LoadAnswer {
  const what = "a report's data";
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
    throw invalidResponse(what, "the answer is not an object");
  }
  const { data, annotation, query } = answer as Record<string, unknown>;
  if (!Array.isArray(data)) throw invalidResponse(what, "it has no data array");
  for (let i = 0; i < data.length; i++) {
    const row = data[i] as unknown;
    if (row === null || typeof row !== "object" || Array.isArray(row)) {
      throw invalidResponse(what, `data row ${i + 1} is not an object`);
    }
  }
  return { data: data as Record<string, unknown>[], annotation, query };
}

interface QueryMembers {
  dimensions: string[];
  timeDimensions: { dimension: string; granularity: string }[];
  measures: string[];
}

function queryOf(report: GridReport, answer: LoadAnswer): QueryMembers {
  let query: unknown = answer.query;
  if (report.jsonQuery != null && report.jsonQuery.trim() !== "") {
    try {
      query = JSON.parse(report.jsonQuery);
    } catch {
      throw new PlatformError(
        "bad-request",
        "The report's query is not valid JSON, so its cells cannot be laid out. Open the report on the Reporting Platform and save it again.",
      );
    }
  }
  if (query === null || typeof query !== "object") {
    throw new PlatformError(
      "bad-request",
      "The report has no query, so it has no cells to place. Open it on the Reporting Platform and give it one.",
    );
  }
  const q = query as Record<string, unknown>;
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
  const timeDimensions: QueryMembers["timeDimensions"] = [];
  if (Array.isArray(q.timeDimensions)) {
    for (const td of q.timeDimensions as unknown[]) {
      const { dimension, granularity } = (td ?? {}) as Record<string, unknown>;
      // A time dimension without a granularity only filters (its dateRange): it has no column.
      if (typeof dimension === "string" && typeof granularity === "string" && granularity) {
        timeDimensions.push({ dimension, granularity });
      }
    }
  }
  return { dimensions: strings(q.dimensions), timeDimensions, measures: strings(q.measures) };
}

interface AnnotationEntry {
  title?: unknown;
  type?: unknown;
}

function annotationLookup(annotation: unknown): (key: string) => AnnotationEntry | undefined {
  const a = (annotation !== null && typeof annotation === "object" ? annotation : {}) as Record<
    string,
    unknown
  >;
  const groups = ["measures", "dimensions", "timeDimensions", "segments"]
    .map((g) => a[g])
    .filter((g): g is Record<string, unknown> => g !== null && typeof g === "object");
  return (key) => {
    for (const g of groups) {
      const entry = g[key];
      if (entry !== null && typeof entry === "object" && Object.hasOwn(g, key))
        return entry as AnnotationEntry;
    }
    return undefined;
  };
}

function kindOfType(type: unknown, fallback: Kind): Kind {
  if (type === "number") return "number";
  if (type === "time") return "date";
  if (type === "boolean") return "boolean";
  if (type === "string") return "text";
  return fallback;
}

/**
 * The query's members in the flat layout's order: dimensions, time dimensions with a granularity,
 * measures. Titles are the annotation's `title` (not `shortTitle`: two cubes' "Count" would read
 * alike); a member the annotation does not describe is titled with its name.
 */
export function gridMembers(query: QueryMembers, annotation: unknown): GridMember[] {
  const lookup = annotationLookup(annotation);
  const titleOf = (entry: AnnotationEntry | undefined, key: string) =>
    typeof entry?.title === "string" && entry.title !== "" ? entry.title : key;
  const out: GridMember[] = [];
  const seen = new Set<string>();
  const add = (m: GridMember) => {
    if (seen.has(m.key)) return;
    seen.add(m.key);
    out.push(m);
  };
  for (const key of query.dimensions) {
    const entry = lookup(key);
    const kind = kindOfType(entry?.type, "text");
    add({
      key,
      member: key,
      role: "dimension",
      title: titleOf(entry, key),
      kind,
      format: kind === "date" ? DATE_TIME_FORMAT : null,
    });
  }
  for (const { dimension, granularity } of query.timeDimensions) {
    const key = `${dimension}.${granularity}`;
    const entry = lookup(key) ?? lookup(dimension);
    add({
      key,
      member: dimension,
      role: "dimension",
      title: titleOf(entry, key),
      kind: "date",
      format: Object.hasOwn(DATE_FORMATS, granularity) ? DATE_FORMATS[granularity]! : DATE_TIME_FORMAT,
    });
  }
  for (const key of query.measures) {
    const entry = lookup(key);
    const kind = kindOfType(entry?.type, "number");
    add({
      key,
      member: key,
      role: "measure",
      title: titleOf(entry, key),
      kind,
      format: kind === "date" ? DATE_TIME_FORMAT : null,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cells

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Digits a double holds exactly, and all that Excel keeps of a number. */
const MAX_EXACT_DIGITS = 15;

/**
 * A number's text as a number; text that is not a plain decimal stays text, and so does an integer
 * of more than 15 digits (an id: as a number it would lose its last digits).
 */
export function parseNumberCell(text: string): GridCell {
  if (!DECIMAL.test(text)) return text;
  const n = +text;
  if (!Number.isFinite(n)) return text;
  if (
    text.length > MAX_EXACT_DIGITS &&
    !/[.eE]/.test(text) &&
    text.replace(/^[+-]?0*/, "").length > MAX_EXACT_DIGITS
  ) {
    return text;
  }
  return n === 0 ? 0 : n;
}

/** Turns raw values of one member into cells; dates are cached (a month repeats on many rows). */
class CellReader {
  private readonly dates = new Map<string, GridCell>();
  constructor(readonly kind: Kind) {}

  read(raw: unknown): GridCell {
    if (raw === null || raw === undefined) return null;
    if (typeof raw === "string") {
      switch (this.kind) {
        case "text":
          return raw;
        case "number":
          return parseNumberCell(raw);
        case "date":
          return this.date(raw);
        case "boolean":
          return raw === "true" ? true : raw === "false" ? false : raw;
      }
    }
    if (typeof raw === "number") {
      // A text member's value is text whatever its JSON type (an id sent as a number stays an id).
      if (this.kind === "text" || !Number.isFinite(raw)) return String(raw);
      return raw === 0 ? 0 : raw;
    }
    if (typeof raw === "boolean") return raw;
    return JSON.stringify(raw) ?? String(raw);
  }

  private date(raw: string): GridCell {
    let cell = this.dates.get(raw);
    if (cell === undefined) {
      // Outside 1900-03-01 .. 9999-12-31, or not a date: the text as it came.
      cell = excelDateSerial(raw) ?? raw;
      if (this.dates.size < 100_000) this.dates.set(raw, cell);
    }
    return cell;
  }
}

// ---------------------------------------------------------------------------------------------
// Caps

function checkExtent(rows: number, columns: number): void {
  const advice = "Narrow the report's query on the Reporting Platform (a filter, fewer members or a limit).";
  if (rows > MAX_GRID_ROWS) {
    throw new PlatformError(
      "bad-request",
      `This report's result has ${formatCount(rows)} rows, more than the ${formatCount(MAX_GRID_ROWS)} a sheet holds. ${advice}`,
    );
  }
  if (columns > MAX_GRID_COLUMNS) {
    throw new PlatformError(
      "bad-request",
      `This report's result has ${formatCount(columns)} columns, more than the ${formatCount(MAX_GRID_COLUMNS)} a sheet holds. ${advice}`,
    );
  }
  if (rows * columns > MAX_GRID_CELLS) {
    throw new PlatformError(
      "bad-request",
      `This report's result has ${formatCount(rows * columns)} cells, more than the ${formatCount(MAX_GRID_CELLS)} the add-in places at once. ${advice}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Flat

function flatGrid(members: readonly GridMember[], data: readonly Record<string, unknown>[]): ReportGrid {
  const columns = members.length;
  const rows = data.length + 1;
  checkExtent(rows, columns);
  const keys = members.map((m) => m.key);
  const readers = members.map((m) => new CellReader(m.kind));
  const values: GridCell[][] = new Array(rows);
  values[0] = members.map((m) => m.title);
  for (let i = 0; i < data.length; i++) {
    const row = data[i]!;
    const out: GridCell[] = new Array(columns);
    for (let c = 0; c < columns; c++) out[c] = readers[c]!.read(row[keys[c]!]);
    values[i + 1] = out;
  }
  const dateFormats: DateFormatArea[] = [];
  if (data.length > 0) {
    members.forEach((m, c) => {
      if (m.format) dateFormats.push({ row: 1, column: c, rows: data.length, columns: 1, format: m.format });
    });
  }
  return {
    layout: "flat",
    values,
    rows,
    columns,
    headerRows: 1,
    headerColumns: 0,
    columnKinds: members.map((m) => m.kind),
    dateFormats,
  };
}

// ---------------------------------------------------------------------------------------------
// Pivot

type PivotItems = NonNullable<Report["pivotItems"]>;

/** Distinct combinations of some members' values, in first-seen order, with each data row's index. */
interface Keys {
  /** The cells of each distinct combination. */
  cells: GridCell[][];
  /** The raw values of each, for sorting. */
  raw: unknown[][];
  /** For each data row, the index of its combination. */
  of: Int32Array;
}

function distinctKeys(members: readonly GridMember[], data: readonly Record<string, unknown>[]): Keys {
  const readers = members.map((m) => new CellReader(m.kind));
  const index = new Map<string, number>();
  const cells: GridCell[][] = [];
  const raw: unknown[][] = [];
  const of = new Int32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const row = data[i]!;
    let id = "";
    for (const m of members) {
      const v = row[m.key];
      // null and the text "null" are different values; \u0000 cannot occur in either.
      id +=
        v === null || v === undefined ? "\u0000n" : `\u0000s${typeof v === "string" ? v : JSON.stringify(v)}`;
    }
    let k = index.get(id);
    if (k === undefined) {
      k = cells.length;
      index.set(id, k);
      raw.push(members.map((m) => row[m.key]));
      cells.push(members.map((m, j) => readers[j]!.read(row[m.key])));
    }
    of[i] = k;
  }
  return { cells, raw, of };
}

/**
 * Column combinations in time order: by each time member's value (ISO text sorts as time), other
 * members keep the answer's order (the query's `order` decides it). Returns the new order.
 */
function timeOrder(members: readonly GridMember[], keys: Keys): number[] {
  const order = keys.cells.map((_, i) => i);
  const timed = members.map((m, j) => (m.kind === "date" ? j : -1)).filter((j) => j >= 0);
  if (timed.length === 0) return order;
  const text = (v: unknown) => (typeof v === "string" ? v : v == null ? "\uffff" : String(v));
  return order.sort((a, b) => {
    for (const j of timed) {
      const x = text(keys.raw[a]![j]);
      const y = text(keys.raw[b]![j]);
      if (x !== y) return x < y ? -1 : 1;
    }
    return a - b;
  });
}

/** Resolves pivotItems' names to the query's members; a time dimension may be named without its granularity. */
function resolve(
  names: readonly string[],
  members: readonly GridMember[],
  taken: Set<GridMember>,
): GridMember[] {
  const out: GridMember[] = [];
  for (const name of names) {
    const m =
      members.find((x) => x.key === name && !taken.has(x)) ??
      members.find((x) => x.member === name && !taken.has(x));
    if (m) {
      taken.add(m);
      out.push(m);
    }
  }
  return out;
}

function sumOf(values: readonly GridCell[]): GridCell {
  let sum = 0;
  let any = false;
  for (const v of values) {
    if (typeof v === "number") {
      sum += v;
      any = true;
    }
  }
  return any ? sum : null;
}

function pivotGrid(
  members: readonly GridMember[],
  data: readonly Record<string, unknown>[],
  pivot: PivotItems,
): ReportGrid {
  const taken = new Set<GridMember>();
  const dims = members.filter((m) => m.role === "dimension");
  const allMeasures = members.filter((m) => m.role === "measure");
  const colMembers = resolve(pivot.columns, dims, taken);
  const rowMembers = resolve(pivot.rows, dims, taken);
  // Every member of the query appears: a dimension pivotItems does not place goes to the rows
  // (otherwise rows that differ only in it would collide), a measure it does not list comes last.
  for (const m of dims) if (!taken.has(m)) rowMembers.push(m);
  const measures = resolve(pivot.measures, allMeasures, taken);
  for (const m of allMeasures) if (!taken.has(m)) measures.push(m);

  const rowKeys = distinctKeys(rowMembers, data);
  const colKeys = distinctKeys(colMembers, data);
  const colOrder = timeOrder(colMembers, colKeys);
  const colPosition = new Int32Array(colOrder.length);
  colOrder.forEach((k, position) => {
    colPosition[k] = position;
  });
  const readers = measures.map((m) => new CellReader(m.kind));
  const measureKeys = measures.map((m) => m.key);
  const nRows = rowKeys.cells.length;
  const nCols = colKeys.cells.length;
  const nMeasures = measures.length;

  // value(r, c, m): the cell of row combination r, column combination c (in its sorted position)
  // and measure m; the first data row of a combination wins (pages do not overlap, so there is one).
  const found = new Uint8Array(nRows * nCols);
  const cells: GridCell[] = new Array(nRows * nCols * nMeasures).fill(null);
  for (let i = 0; i < data.length; i++) {
    const at = rowKeys.of[i]! * nCols + colPosition[colKeys.of[i]!]!;
    if (found[at]) continue;
    found[at] = 1;
    for (let m = 0; m < nMeasures; m++)
      cells[at * nMeasures + m] = readers[m]!.read(data[i]![measureKeys[m]!]);
  }
  const value = (r: number, c: number, m: number) => cells[(r * nCols + c) * nMeasures + m]!;
  const columnCells = colOrder.map((k) => colKeys.cells[k]!);

  const layout: PivotLayout = {
    rowMembers,
    colMembers,
    measures,
    rowCells: rowKeys.cells,
    columnCells,
    value,
    before: pivot.measuresPosition === "before",
    rowTotals: pivot.showRowTotals === true && colMembers.length > 0,
    columnTotals: pivot.showColumnTotals === true,
  };
  return pivot.measuresAxis === "rows" ? measuresOnRows(layout) : measuresOnColumns(layout);
}

interface PivotLayout {
  rowMembers: GridMember[];
  colMembers: GridMember[];
  measures: GridMember[];
  rowCells: GridCell[][];
  columnCells: GridCell[][];
  value: (row: number, column: number, measure: number) => GridCell;
  before: boolean;
  rowTotals: boolean;
  columnTotals: boolean;
}

/** Consecutive runs of indexes for which `test` holds, as [first, count]. */
function runs(count: number, test: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    if (!test(i)) continue;
    const last = out[out.length - 1];
    if (last && last[0] + last[1] === i) last[1]++;
    else out.push([i, 1]);
  }
  return out;
}

/** Measures on the columns axis (the default): each column combination crossed with the measures. */
function measuresOnColumns(p: PivotLayout): ReportGrid {
  const { rowMembers, colMembers, measures } = p;
  const noColumns = colMembers.length === 0;
  // Without column members, one column of values (its key holds no member).
  const nKeys = noColumns ? 1 : p.columnCells.length;
  // One value column per (column combination, measure); c = -1 is a row total.
  const valueColumns: { c: number; m: number }[] = [];
  if (p.before) {
    for (let m = 0; m < measures.length; m++) {
      for (let c = 0; c < nKeys; c++) valueColumns.push({ c, m });
      if (p.rowTotals) valueColumns.push({ c: -1, m });
    }
  } else {
    for (let c = 0; c < nKeys; c++) for (let m = 0; m < measures.length; m++) valueColumns.push({ c, m });
    if (p.rowTotals) for (let m = 0; m < measures.length; m++) valueColumns.push({ c: -1, m });
  }
  // A row of measure titles only when it tells something: several measures, or no column members.
  const measureRow = measures.length > 1 || noColumns;
  const headerLevels: ("measures" | number)[] = colMembers.map((_, i) => i);
  if (measureRow) {
    if (p.before) headerLevels.unshift("measures");
    else headerLevels.push("measures");
  }
  const corner = rowMembers.length;
  const headerRows = headerLevels.length;
  const bodyRows = p.rowCells.length;
  const rows = headerRows + bodyRows + (p.columnTotals ? 1 : 0);
  const columns = corner + valueColumns.length;
  checkExtent(rows, columns);

  const values: GridCell[][] = [];
  headerLevels.forEach((level, h) => {
    const row: GridCell[] = new Array(columns).fill(null);
    if (h === headerRows - 1) for (let j = 0; j < corner; j++) row[j] = rowMembers[j]!.title;
    else if (corner > 0 && level !== "measures") row[corner - 1] = colMembers[level]!.title;
    valueColumns.forEach(({ c, m }, j) => {
      if (level === "measures") row[corner + j] = measures[m]!.title;
      else if (c >= 0) row[corner + j] = noColumns ? null : p.columnCells[c]![level]!;
      else if (level === 0) row[corner + j] = TOTAL_LABEL;
    });
    values.push(row);
  });
  for (let r = 0; r < bodyRows; r++) {
    const row: GridCell[] = new Array(columns);
    for (let j = 0; j < corner; j++) row[j] = p.rowCells[r]![j]!;
    valueColumns.forEach(({ c, m }, j) => {
      row[corner + j] = c >= 0 ? p.value(r, c, m) : rowTotal(p, r, m, nKeys);
    });
    values.push(row);
  }
  if (p.columnTotals) {
    const row: GridCell[] = new Array(columns).fill(null);
    if (corner > 0) row[0] = TOTAL_LABEL;
    valueColumns.forEach(({ c, m }, j) => {
      if (measures[m]!.kind !== "number") return;
      const column: GridCell[] = [];
      for (let r = 0; r < bodyRows; r++) column.push(c >= 0 ? p.value(r, c, m) : rowTotal(p, r, m, nKeys));
      row[corner + j] = sumOf(column);
    });
    values.push(row);
  }

  const dateFormats: DateFormatArea[] = [];
  if (bodyRows > 0) {
    rowMembers.forEach((m, j) => {
      if (m.format)
        dateFormats.push({ row: headerRows, column: j, rows: bodyRows, columns: 1, format: m.format });
    });
    valueColumns.forEach(({ c, m }, j) => {
      const f = measures[m]!.format;
      if (f && c >= 0)
        dateFormats.push({ row: headerRows, column: corner + j, rows: bodyRows, columns: 1, format: f });
    });
  }
  headerLevels.forEach((level, h) => {
    if (level === "measures") return;
    const f = colMembers[level]!.format;
    if (!f) return;
    for (const [first, count] of runs(valueColumns.length, (j) => valueColumns[j]!.c >= 0)) {
      dateFormats.push({ row: h, column: corner + first, rows: 1, columns: count, format: f });
    }
  });
  const columnKinds: ColumnKind[] = [
    ...rowMembers.map((m) => m.kind),
    ...valueColumns.map(({ c, m }) => (c >= 0 ? measures[m]!.kind : "number")),
  ];
  return {
    layout: "pivot",
    values,
    rows,
    columns,
    headerRows,
    headerColumns: corner,
    columnKinds,
    dateFormats,
  };
}

/** The sum of one row's values of measure m across the column combinations (null unless a number). */
function rowTotal(p: PivotLayout, r: number, m: number, nKeys: number): GridCell {
  if (p.measures[m]!.kind !== "number") return null;
  const cells: GridCell[] = [];
  for (let c = 0; c < nKeys; c++) cells.push(p.value(r, c, m));
  return sumOf(cells);
}

/** Measures on the rows axis: each row combination crossed with the measures, a label column naming them. */
function measuresOnRows(p: PivotLayout): ReportGrid {
  const { rowMembers, colMembers, measures } = p;
  const noColumns = colMembers.length === 0;
  // Without column members, one column of values (its key holds no member).
  const nKeys = noColumns ? 1 : p.columnCells.length;
  // Body rows: one per (row combination, measure); r = -1 is a column total.
  const bodyRows: { r: number; m: number }[] = [];
  if (p.before) {
    for (let m = 0; m < measures.length; m++)
      for (let r = 0; r < p.rowCells.length; r++) bodyRows.push({ r, m });
  } else {
    for (let r = 0; r < p.rowCells.length; r++)
      for (let m = 0; m < measures.length; m++) bodyRows.push({ r, m });
  }
  const dataRows = bodyRows.length;
  if (p.columnTotals) for (let m = 0; m < measures.length; m++) bodyRows.push({ r: -1, m });
  // The label column sits before the row members' columns or after them (measuresPosition).
  const labelColumn = p.before ? 0 : rowMembers.length;
  const memberColumn = (j: number) => (p.before ? j + 1 : j);
  const corner = rowMembers.length + 1;
  const valueCount = nKeys + (p.rowTotals ? 1 : 0);
  const headerRows = Math.max(1, colMembers.length);
  const rows = headerRows + bodyRows.length;
  const columns = corner + valueCount;
  checkExtent(rows, columns);

  const values: GridCell[][] = [];
  for (let h = 0; h < headerRows; h++) {
    const row: GridCell[] = new Array(columns).fill(null);
    if (h === headerRows - 1) {
      for (let j = 0; j < rowMembers.length; j++) row[memberColumn(j)] = rowMembers[j]!.title;
      row[labelColumn] = MEASURES_LABEL;
    } else {
      row[corner - 1] = colMembers[h]!.title;
    }
    for (let c = 0; c < nKeys; c++) row[corner + c] = noColumns ? VALUE_LABEL : p.columnCells[c]![h]!;
    if (p.rowTotals && h === 0) row[corner + nKeys] = TOTAL_LABEL;
    values.push(row);
  }
  for (const { r, m } of bodyRows) {
    const row: GridCell[] = new Array(columns).fill(null);
    row[labelColumn] = measures[m]!.title;
    if (r >= 0) {
      for (let j = 0; j < rowMembers.length; j++) row[memberColumn(j)] = p.rowCells[r]![j]!;
      for (let c = 0; c < nKeys; c++) row[corner + c] = p.value(r, c, m);
      if (p.rowTotals) row[corner + nKeys] = rowTotal(p, r, m, nKeys);
    } else {
      const first = p.before ? 1 : 0;
      if (rowMembers.length > 0) row[first] = TOTAL_LABEL;
      if (measures[m]!.kind === "number") {
        for (let c = 0; c < valueCount; c++) {
          const column: GridCell[] = [];
          for (let q = 0; q < p.rowCells.length; q++) {
            column.push(c < nKeys ? p.value(q, c, m) : rowTotal(p, q, m, nKeys));
          }
          row[corner + c] = sumOf(column);
        }
      }
    }
    values.push(row);
  }

  const dateFormats: DateFormatArea[] = [];
  if (dataRows > 0) {
    rowMembers.forEach((m, j) => {
      if (m.format) {
        dateFormats.push({
          row: headerRows,
          column: memberColumn(j),
          rows: dataRows,
          columns: 1,
          format: m.format,
        });
      }
    });
    // A time measure's rows hold dates: one area per run of rows of the same format.
    const formatOf = (i: number) => measures[bodyRows[i]!.m]!.format;
    for (let i = 0; i < dataRows; i++) {
      const format = formatOf(i);
      if (!format || nKeys === 0) continue;
      const last = dateFormats[dateFormats.length - 1];
      if (last && last.format === format && last.column === corner && last.row + last.rows === headerRows + i)
        last.rows++;
      else dateFormats.push({ row: headerRows + i, column: corner, rows: 1, columns: nKeys, format });
    }
  }
  colMembers.forEach((m, h) => {
    if (m.format) dateFormats.push({ row: h, column: corner, rows: 1, columns: nKeys, format: m.format });
  });
  const kinds = new Set(measures.map((m) => m.kind));
  const valueKind: ColumnKind = kinds.size === 1 ? [...kinds][0]! : "mixed";
  const columnKinds: ColumnKind[] = new Array(columns);
  for (let j = 0; j < rowMembers.length; j++) columnKinds[memberColumn(j)] = rowMembers[j]!.kind;
  columnKinds[labelColumn] = "text";
  for (let c = 0; c < valueCount; c++) columnKinds[corner + c] = c < nKeys ? valueKind : "number";
  return {
    layout: "pivot",
    values,
    rows,
    columns,
    headerRows,
    headerColumns: corner,
    columnKinds,
    dateFormats,
  };
}
