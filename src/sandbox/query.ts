/**
 * The data API's queries (platform-api.md part C, "Getting the data"), the service's side, written
 * from the spec: reading a query (`measures`, `dimensions`, `timeDimensions`, `filters`, `order`,
 * `limit`, `offset`, `total`), resolving its members against the deployment's cubes, and running it
 * over the cube's rows. Values leave as strings (numbers too; null stays null), time values as local
 * ISO date-times without zone, in Cube's REST shape. docs/sandbox.md says what is left out.
 */
import {
  type Cell,
  type CubeData,
  type DimensionSeed,
  formatTime,
  type MeasureSeed,
  type Row,
  timeValue,
} from "./cubes.js";

export const DEFAULT_LIMIT = 10_000;
export const MAX_LIMIT = 50_000;
export const GRANULARITIES = ["day", "week", "month", "quarter", "year"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

const OPERATORS = [
  "equals",
  "notEquals",
  "contains",
  "notContains",
  "startsWith",
  "endsWith",
  "gt",
  "gte",
  "lt",
  "lte",
  "set",
  "notSet",
  "inDateRange",
  "notInDateRange",
  "beforeDate",
  "afterDate",
] as const;
type Operator = (typeof OPERATORS)[number];

/** A query the data API cannot run: 400 `{error}` naming what is wrong. */
export class QueryError extends Error {
  override readonly name = "QueryError";
}

export interface TimeDimensionQuery {
  dimension: string;
  granularity?: Granularity;
  dateRange?: [string, string];
}

export type Filter =
  | { member: string; operator: Operator; values?: (string | number)[] }
  | { or: Filter[] }
  | { and: Filter[] };

/** A query as read and checked: every list present, `order` as pairs, `limit` filled in. */
export interface Query {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimensionQuery[];
  filters: Filter[];
  order: [string, "asc" | "desc"][];
  limit: number;
  offset: number;
  total: boolean;
}

const QUERY_FIELDS = new Set([
  "measures",
  "dimensions",
  "timeDimensions",
  "filters",
  "order",
  "limit",
  "offset",
  "total",
  "segments",
  // Accepted and ignored: the sandbox's times have no zone, and it caches nothing.
  "timezone",
  "renewQuery",
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new QueryError(`Invalid query: ${field} must be a list of member names.`);
  }
  return value as string[];
}

function readFilter(value: unknown, path: string): Filter {
  if (!isObject(value)) throw new QueryError(`Invalid query: ${path} must be an object.`);
  if ("or" in value || "and" in value) {
    const key = "or" in value ? "or" : "and";
    const list = value[key];
    if (!Array.isArray(list))
      throw new QueryError(`Invalid query: ${path}.${key} must be a list of filters.`);
    const inner = list.map((f, i) => readFilter(f, `${path}.${key}[${i}]`));
    return key === "or" ? { or: inner } : { and: inner };
  }
  const member = value.member ?? value.dimension;
  if (typeof member !== "string")
    throw new QueryError(`Invalid query: ${path}.member must be a member name.`);
  const operator = value.operator;
  if (typeof operator !== "string" || !(OPERATORS as readonly string[]).includes(operator)) {
    throw new QueryError(
      `Invalid query: ${path}.operator "${String(operator)}" is not supported (use one of ${OPERATORS.join(", ")}).`,
    );
  }
  const values = value.values;
  if (
    values !== undefined &&
    (!Array.isArray(values) || values.some((v) => typeof v !== "string" && typeof v !== "number"))
  ) {
    throw new QueryError(`Invalid query: ${path}.values must be a list of strings.`);
  }
  const op = operator as Operator;
  const list = (values ?? []) as (string | number)[];
  if (op !== "set" && op !== "notSet" && list.length === 0) {
    throw new QueryError(`Invalid query: ${path}.values is needed for the operator ${op}.`);
  }
  if ((op === "inDateRange" || op === "notInDateRange") && list.length !== 2) {
    throw new QueryError(`Invalid query: ${path}.values must be [from, to] for ${op}.`);
  }
  return { member, operator: op, values: list };
}

function readOrder(value: unknown): [string, "asc" | "desc"][] {
  if (value === undefined || value === null) return [];
  const pairs: unknown[] = Array.isArray(value) ? value : isObject(value) ? Object.entries(value) : [null];
  return pairs.map((pair) => {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== "string" ||
      (pair[1] !== "asc" && pair[1] !== "desc")
    ) {
      throw new QueryError(
        'Invalid query: order must be {"<member>": "asc"|"desc"} or a list of [member, direction] pairs.',
      );
    }
    return [pair[0], pair[1]];
  });
}

function whole(value: unknown, field: string, min: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new QueryError(`Invalid query: ${field} must be a whole number of at least ${min}.`);
  }
  return value;
}

/** Reads a query: an object, or the same as JSON text (as Cube accepts it). */
export function readQuery(input: unknown): Query {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch {
      throw new QueryError("Invalid query: the query is not valid JSON.");
    }
  }
  if (!isObject(value)) throw new QueryError('Invalid query: send {"query": {...}}.');
  for (const key of Object.keys(value)) {
    if (!QUERY_FIELDS.has(key)) throw new QueryError(`Invalid query: unknown field "${key}".`);
  }
  if (stringList(value.segments, "segments").length > 0) {
    throw new QueryError("Segments are not supported by the sandbox.");
  }
  const timeDimensions = (value.timeDimensions ?? []) as unknown;
  if (!Array.isArray(timeDimensions)) throw new QueryError("Invalid query: timeDimensions must be a list.");
  const tds = timeDimensions.map((td, i): TimeDimensionQuery => {
    if (!isObject(td) || typeof td.dimension !== "string") {
      throw new QueryError(`Invalid query: timeDimensions[${i}].dimension must be a member name.`);
    }
    const out: TimeDimensionQuery = { dimension: td.dimension };
    if (td.granularity !== undefined && td.granularity !== null) {
      if (
        typeof td.granularity !== "string" ||
        !(GRANULARITIES as readonly string[]).includes(td.granularity)
      ) {
        throw new QueryError(
          `Invalid query: timeDimensions[${i}].granularity "${String(td.granularity)}" is not one of ${GRANULARITIES.join(", ")}.`,
        );
      }
      out.granularity = td.granularity as Granularity;
    }
    if (td.dateRange !== undefined && td.dateRange !== null) {
      const r = td.dateRange;
      if (
        !Array.isArray(r) ||
        r.length !== 2 ||
        r.some((d) => typeof d !== "string" || timeValue(d) === null)
      ) {
        throw new QueryError(
          `Invalid query: timeDimensions[${i}].dateRange must be two dates ["2024-01-01", "2024-12-31"] (relative ranges are not supported by the sandbox).`,
        );
      }
      out.dateRange = [r[0] as string, r[1] as string];
    }
    return out;
  });
  const filters = value.filters ?? [];
  if (!Array.isArray(filters)) throw new QueryError("Invalid query: filters must be a list.");
  const limit = whole(value.limit, "limit", 0) ?? DEFAULT_LIMIT;
  if (limit > MAX_LIMIT) {
    throw new QueryError(
      `The query limit ${limit} is above the maximum of ${MAX_LIMIT} rows: page with limit and offset.`,
    );
  }
  if (value.total !== undefined && typeof value.total !== "boolean") {
    throw new QueryError("Invalid query: total must be true or false.");
  }
  return {
    measures: stringList(value.measures, "measures"),
    dimensions: stringList(value.dimensions, "dimensions"),
    timeDimensions: tds,
    filters: filters.map((f, i) => readFilter(f, `filters[${i}]`)),
    order: readOrder(value.order),
    limit,
    offset: whole(value.offset, "offset", 0) ?? 0,
    total: value.total === true,
  };
}

/** The same query always writes the same text (keys sorted): what a "Continue wait" job is known by. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Every member a query names (time dimensions without granularity suffix), in order of appearance. */
export function membersOf(query: Query): string[] {
  const out: string[] = [
    ...query.measures,
    ...query.dimensions,
    ...query.timeDimensions.map((t) => t.dimension),
  ];
  const walk = (f: Filter) => {
    if ("or" in f) f.or.forEach(walk);
    else if ("and" in f) f.and.forEach(walk);
    else out.push(f.member);
  };
  query.filters.forEach(walk);
  for (const [m] of query.order) out.push(stripGranularity(m));
  return out;
}

function stripGranularity(member: string): string {
  const parts = member.split(".");
  if (parts.length === 3 && (GRANULARITIES as readonly string[]).includes(parts[2]!))
    return `${parts[0]}.${parts[1]}`;
  return member;
}

export type Resolved =
  | { kind: "dimension"; cube: CubeData; def: DimensionSeed }
  | { kind: "measure"; cube: CubeData; def: MeasureSeed };

/** A member by its full name among the deployment's cubes, or null. */
export function resolveMember(cubes: readonly CubeData[], member: string): Resolved | null {
  const dot = member.indexOf(".");
  if (dot < 0) return null;
  const cube = cubes.find((c) => c.seed.name === member.slice(0, dot));
  if (!cube) return null;
  const name = member.slice(dot + 1);
  const dim = cube.seed.dimensions.find((d) => d.name === name);
  if (dim) return { kind: "dimension", cube, def: dim };
  const measure = cube.seed.measures.find((m) => m.name === name);
  if (measure) return { kind: "measure", cube, def: measure };
  return null;
}

/**
 * Checks that every member exists in the deployment's cubes and fits where it is used (a measure
 * among `measures`, a time dimension among `timeDimensions`); all from one cube (the sandbox does no
 * joins). Answers that cube.
 */
export function checkMembers(cubes: readonly CubeData[], query: Query): CubeData {
  const used = membersOf(query);
  for (const m of used) if (!resolveMember(cubes, m)) throw new QueryError(`Unknown member: ${m}.`);
  for (const m of query.measures) {
    if (resolveMember(cubes, m)?.kind !== "measure")
      throw new QueryError(`${m} is not a measure: list it among dimensions.`);
  }
  for (const m of query.dimensions) {
    if (resolveMember(cubes, m)?.kind !== "dimension")
      throw new QueryError(`${m} is not a dimension: list it among measures.`);
  }
  for (const td of query.timeDimensions) {
    const r = resolveMember(cubes, td.dimension);
    if (r?.kind !== "dimension" || r.def.type !== "time")
      throw new QueryError(`${td.dimension} is not a time dimension.`);
  }
  const names = new Set(used.map((m) => m.slice(0, m.indexOf("."))));
  if (names.size === 0) throw new QueryError("The query names no member: send measures or dimensions.");
  if (names.size > 1) {
    throw new QueryError(
      `The sandbox does not join cubes: the query uses ${[...names].join(", ")}; use one cube per query.`,
    );
  }
  const cube = cubes.find((c) => c.seed.name === [...names][0]);
  return cube!;
}

// ---------------------------------------------------------------------------------------------
// Running a query.

function truncate(ms: number, g: Granularity): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (g) {
    case "day":
      return Date.UTC(y, m, d.getUTCDate());
    case "week": {
      const day = Date.UTC(y, m, d.getUTCDate());
      const weekday = (d.getUTCDay() + 6) % 7; // Monday = 0 (ISO weeks)
      return day - weekday * 86_400_000;
    }
    case "month":
      return Date.UTC(y, m, 1);
    case "quarter":
      return Date.UTC(y, m - (m % 3), 1);
    case "year":
      return Date.UTC(y, 0, 1);
  }
}

/** [from, to] of a date range, `to` inclusive to its last millisecond when it is a date alone. */
function rangeOf(range: readonly (string | number)[]): [number, number] {
  const from = timeValue(String(range[0]));
  const toText = String(range[1]);
  const to = timeValue(toText);
  if (from === null || to === null) throw new QueryError(`Invalid date range: ${JSON.stringify(range)}.`);
  return [from, /^\d{4}-\d{2}-\d{2}$/.test(toText.trim()) ? to + 86_399_999 : to];
}

/** A filter value read as the member's type (a time as ms, a number as a number). */
function typed(value: string | number, type: string): Cell {
  if (type === "time") {
    const t = timeValue(String(value));
    if (t === null) throw new QueryError(`Invalid query: "${value}" is not a date.`);
    return t;
  }
  if (type === "number") {
    const n = Number(value);
    if (Number.isNaN(n)) throw new QueryError(`Invalid query: "${value}" is not a number.`);
    return n;
  }
  if (type === "boolean") return String(value) === "true";
  return String(value);
}

/** One leaf filter as a predicate over a value of its member. */
function predicate(f: Extract<Filter, { member: string }>, type: string): (v: Cell) => boolean {
  const values = f.values ?? [];
  const text = (v: Cell) => (v === null ? "" : String(v).toLowerCase());
  const needles = values.map((v) => String(v).toLowerCase());
  const num = (v: Cell) => (typeof v === "number" ? v : Number.NaN);
  switch (f.operator) {
    case "equals": {
      const set = values.map((v) => typed(v, type));
      return (v) => v !== null && set.includes(v);
    }
    case "notEquals": {
      const set = values.map((v) => typed(v, type));
      return (v) => v === null || !set.includes(v);
    }
    case "contains":
      return (v) => v !== null && needles.some((n) => text(v).includes(n));
    case "notContains":
      return (v) => v === null || !needles.some((n) => text(v).includes(n));
    case "startsWith":
      return (v) => v !== null && needles.some((n) => text(v).startsWith(n));
    case "endsWith":
      return (v) => v !== null && needles.some((n) => text(v).endsWith(n));
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const bound = typed(values[0]!, type === "time" ? "time" : "number") as number;
      const op = f.operator;
      return (v) => {
        const x = num(v);
        if (Number.isNaN(x)) return false;
        return op === "gt" ? x > bound : op === "gte" ? x >= bound : op === "lt" ? x < bound : x <= bound;
      };
    }
    case "set":
      return (v) => v !== null;
    case "notSet":
      return (v) => v === null;
    case "inDateRange":
    case "notInDateRange": {
      const [from, to] = rangeOf(values);
      const inside = (v: Cell) => typeof v === "number" && v >= from && v <= to;
      return f.operator === "inDateRange" ? inside : (v) => !inside(v);
    }
    case "beforeDate": {
      const t = typed(values[0]!, "time") as number;
      return (v) => typeof v === "number" && v < t;
    }
    case "afterDate": {
      const t = typed(values[0]!, "time") as number;
      return (v) => typeof v === "number" && v > t;
    }
  }
}

interface Compiled {
  test(row: Row, measures: Record<string, Cell>): boolean;
}

/** Filters on dimensions apply to the cube's rows; filters on measures to the grouped rows. */
function compileFilter(cubes: readonly CubeData[], f: Filter, onMeasures: boolean): Compiled | null {
  if ("or" in f || "and" in f) {
    const list = "or" in f ? f.or : f.and;
    const inner = list.map((x) => compileFilter(cubes, x, onMeasures));
    const live = inner.filter((x): x is Compiled => x !== null);
    if (live.length === 0) return null;
    if (live.length !== inner.length)
      throw new QueryError("The sandbox cannot mix measure and dimension filters in one or/and group.");
    return "or" in f
      ? { test: (r, m) => live.some((c) => c.test(r, m)) }
      : { test: (r, m) => live.every((c) => c.test(r, m)) };
  }
  const r = resolveMember(cubes, f.member)!;
  if ((r.kind === "measure") !== onMeasures) return null;
  const p = predicate(f, r.kind === "dimension" ? r.def.type : "number");
  const name = r.def.name;
  return onMeasures ? { test: (_r, m) => p(m[f.member] ?? null) } : { test: (row) => p(row[name] ?? null) };
}

function aggregate(def: MeasureSeed, rows: readonly Row[]): number | null {
  if (def.aggregation === "count") {
    if (def.of === undefined) return rows.length;
    return rows.filter((r) => r[def.of!] !== null && r[def.of!] !== undefined).length;
  }
  const values = rows
    .map((r) => r[def.of!])
    .filter((v): v is string | number | boolean => v !== null && v !== undefined);
  if (def.aggregation === "countDistinct") return new Set(values).size;
  const nums = values.filter((v): v is number => typeof v === "number");
  if (nums.length === 0) return def.aggregation === "sum" ? 0 : null;
  switch (def.aggregation) {
    case "sum":
      return nums.reduce((a, b) => a + b, 0);
    case "avg":
      return nums.reduce((a, b) => a + b, 0) / nums.length;
    case "min":
      return Math.min(...nums);
    default:
      return Math.max(...nums);
  }
}

/** A cell as the data API writes it: a string (numbers without float noise), or null. */
export function cellText(value: Cell, type: string): string | null {
  if (value === null || value === undefined) return null;
  if (type === "time" && typeof value === "number") return formatTime(value);
  if (typeof value === "number") return String(Number(value.toFixed(6)));
  return String(value);
}

/** One output column: the key it is written under and how to read it from a grouped row. */
export interface Column {
  key: string;
  member: string;
  kind: "dimension" | "timeDimension" | "measure";
  type: string;
  granularity?: Granularity;
}

/** The columns of a query's answer in the order of the flat layout: dimensions, granular time dimensions, measures. */
export function columnsOf(cubes: readonly CubeData[], query: Query): Column[] {
  const cols: Column[] = query.dimensions.map((m) => ({
    key: m,
    member: m,
    kind: "dimension",
    type: (resolveMember(cubes, m)!.def as DimensionSeed).type,
  }));
  for (const td of query.timeDimensions) {
    if (!td.granularity) continue;
    cols.push({
      key: `${td.dimension}.${td.granularity}`,
      member: td.dimension,
      kind: "timeDimension",
      type: "time",
      granularity: td.granularity,
    });
  }
  for (const m of query.measures) cols.push({ key: m, member: m, kind: "measure", type: "number" });
  return cols;
}

export interface Answer {
  columns: Column[];
  /** Grouped rows, values typed (time as ms), keyed by column key; already ordered and paged. */
  rows: Record<string, Cell>[];
  /** Rows before limit and offset. */
  total: number;
}

/**
 * Runs a checked query over its cube's rows (already narrowed by row-level security): dimension
 * filters and date ranges, grouping by dimensions and truncated time dimensions, measures over each
 * group, measure filters, order, offset and limit.
 */
export function runQuery(cubes: readonly CubeData[], rows: readonly Row[], query: Query): Answer {
  const columns = columnsOf(cubes, query);
  const rowFilters = query.filters
    .map((f) => compileFilter(cubes, f, false))
    .filter((c): c is Compiled => c !== null);
  const measureFilters = query.filters
    .map((f) => compileFilter(cubes, f, true))
    .filter((c): c is Compiled => c !== null);
  const ranges = query.timeDimensions
    .filter((td) => td.dateRange)
    .map((td) => ({
      name: td.dimension.slice(td.dimension.indexOf(".") + 1),
      range: rangeOf(td.dateRange!),
    }));
  const short = (member: string) => member.slice(member.indexOf(".") + 1);

  const groups = new Map<string, { key: Record<string, Cell>; rows: Row[] }>();
  const empty: Record<string, Cell> = {};
  for (const row of rows) {
    if (!rowFilters.every((f) => f.test(row, empty))) continue;
    if (
      !ranges.every(({ name, range }) => {
        const v = row[name];
        return typeof v === "number" && v >= range[0] && v <= range[1];
      })
    ) {
      continue;
    }
    const key: Record<string, Cell> = {};
    for (const c of columns) {
      if (c.kind === "measure") continue;
      const v = row[short(c.member)] ?? null;
      key[c.key] = c.kind === "timeDimension" && typeof v === "number" ? truncate(v, c.granularity!) : v;
    }
    const id = JSON.stringify(columns.filter((c) => c.kind !== "measure").map((c) => key[c.key]));
    let group = groups.get(id);
    if (!group) {
      group = { key, rows: [] };
      groups.set(id, group);
    }
    group.rows.push(row);
  }
  // Only measures and no group rows: one row over nothing (counts 0), as a SQL aggregate answers.
  if (groups.size === 0 && columns.every((c) => c.kind === "measure") && columns.length > 0) {
    groups.set("[]", { key: {}, rows: [] });
  }

  let out: Record<string, Cell>[] = [];
  const measureDefs = query.measures.map((m) => [m, resolveMember(cubes, m)!.def as MeasureSeed] as const);
  for (const group of groups.values()) {
    const values: Record<string, Cell> = { ...group.key };
    for (const [m, def] of measureDefs) values[m] = aggregate(def, group.rows);
    if (measureFilters.every((f) => f.test({}, values))) out.push(values);
  }

  const order = query.order.length > 0 ? query.order : defaultOrder(query);
  const keyFor = (member: string): string => {
    const col =
      columns.find((c) => c.key === member) ??
      columns.find((c) => c.kind === "timeDimension" && c.member === member);
    if (!col)
      throw new QueryError(
        `Cannot order by ${member}: it is not among the query's dimensions, measures or time dimensions with a granularity.`,
      );
    return col.key;
  };
  const sorters = order.map(([member, dir]) => [keyFor(member), dir === "asc" ? 1 : -1] as const);
  out.sort((a, b) => {
    for (const [key, sign] of sorters) {
      const c = compareCells(a[key] ?? null, b[key] ?? null);
      if (c !== 0) return sign * c;
    }
    return 0;
  });
  const total = out.length;
  out = out.slice(query.offset, query.offset + query.limit);
  return { columns, rows: out, total };
}

/** Cube's default order: the first time dimension with a granularity, else the first measure (desc), else the first dimension. */
function defaultOrder(query: Query): [string, "asc" | "desc"][] {
  const td = query.timeDimensions.find((t) => t.granularity);
  if (td) return [[`${td.dimension}.${td.granularity}`, "asc"]];
  if (query.measures[0]) return [[query.measures[0], "desc"]];
  if (query.dimensions[0]) return [[query.dimensions[0], "asc"]];
  return [];
}

/** Nulls last; numbers by value; text by code points (the same on every machine). */
function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The annotation of an answer: title, shortTitle, type (and format) per member, as Cube writes it. */
export function annotationOf(cubes: readonly CubeData[], query: Query) {
  const entry = (member: string) => {
    const r = resolveMember(cubes, member)!;
    const cubeTitle = r.cube.seed.title ?? r.cube.seed.name;
    const shortTitle = r.def.shortTitle ?? r.def.title;
    const type = r.kind === "measure" ? (r.def.type ?? "number") : r.def.type;
    return {
      title: `${cubeTitle} ${r.def.title}`,
      shortTitle,
      type,
      ...(r.def.format ? { format: r.def.format } : {}),
    };
  };
  const measures: Record<string, unknown> = {};
  const dimensions: Record<string, unknown> = {};
  const timeDimensions: Record<string, unknown> = {};
  for (const m of query.measures) measures[m] = entry(m);
  for (const m of query.dimensions) dimensions[m] = entry(m);
  for (const td of query.timeDimensions) {
    if (!td.granularity) continue;
    const base = entry(td.dimension);
    timeDimensions[`${td.dimension}.${td.granularity}`] = {
      ...base,
      granularity: {
        name: td.granularity,
        title: td.granularity[0]!.toUpperCase() + td.granularity.slice(1),
      },
    };
    timeDimensions[td.dimension] = base;
  }
  return { measures, dimensions, segments: {}, timeDimensions };
}

/**
 * The rows as the load answer writes them: objects keyed by member, values as strings; a time
 * dimension with a granularity under `<member>.<granularity>` and `<member>` alike.
 */
export function loadRows(answer: Answer): Record<string, string | null>[] {
  return answer.rows.map((row) => {
    const out: Record<string, string | null> = {};
    for (const c of answer.columns) {
      const text = cellText(row[c.key] ?? null, c.type);
      out[c.key] = text;
      if (c.kind === "timeDimension") out[c.member] = text;
    }
    return out;
  });
}

/** The query as the answer echoes it: every list present, `order` as pairs, the effective limit. */
export function normalizedQuery(query: Query): Record<string, unknown> {
  return {
    measures: query.measures,
    dimensions: query.dimensions,
    timeDimensions: query.timeDimensions,
    filters: query.filters,
    order: query.order.length > 0 ? query.order : defaultOrder(query),
    limit: query.limit,
    ...(query.offset ? { offset: query.offset } : {}),
    ...(query.total ? { total: true } : {}),
    timezone: "UTC",
  };
}
