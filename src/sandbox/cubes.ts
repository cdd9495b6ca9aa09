/**
 * The data behind the data API: the seed's `cubes` (docs/sandbox.md, "Seed format"). A cube belongs
 * to one deployment and has dimensions (columns of its rows) and measures (aggregations over them).
 * Its rows are written out in the seed (`rows`) or made by a small seeded generator (`generator`), so
 * a demo can hold tens of thousands of rows without a large file and every run has the same ones.
 */
// First: zod's jitless setting (core/zod.ts) before any schema here is built. In a page whose
// policy forbids eval (the preview), zod probes `new Function` when an object schema is built
// without it, and the browser reports the refused probe as a policy violation.
import "../core/zod.js";
import { z } from "zod";

/** A member's short name: `region` in `orders.region`. */
const MemberName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "a name is letters, digits or _");

export const DIMENSION_TYPES = ["string", "number", "time", "boolean"] as const;
export const AGGREGATIONS = ["sum", "count", "countDistinct", "avg", "min", "max"] as const;

const DimensionSeed = z.strictObject({
  name: MemberName,
  title: z.string().min(1),
  shortTitle: z.string().min(1).optional(),
  type: z.enum(DIMENSION_TYPES),
  format: z.string().min(1).optional(),
});

const MeasureSeed = z.strictObject({
  name: MemberName,
  title: z.string().min(1),
  shortTitle: z.string().min(1).optional(),
  /** What the annotation calls it; "number" unless set. */
  type: z.enum(["number", "count", "countDistinct", "sum", "avg", "min", "max"]).optional(),
  aggregation: z.enum(AGGREGATIONS),
  /** The dimension it aggregates; a `count` without it counts rows. */
  of: MemberName.optional(),
  format: z.string().min(1).optional(),
});

const CellValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** How the generator makes one column (docs/sandbox.md lists them). */
const ColumnSpec = z.union([
  z.strictObject({
    sequence: z.strictObject({
      prefix: z.string().optional(),
      start: z.number().int().optional(),
      pad: z.number().int().min(0).max(12).optional(),
      /** Each value repeats this many rows (order lines of one order): default 1. */
      every: z.number().int().min(1).optional(),
    }),
  }),
  z.strictObject({
    pick: z.array(CellValue).min(1),
    weights: z.array(z.number().positive()).optional(),
  }),
  z.strictObject({
    pickBy: z.strictObject({ column: MemberName, values: z.record(z.string(), z.array(CellValue).min(1)) }),
  }),
  z.strictObject({
    lookup: z.strictObject({ column: MemberName, values: z.record(z.string(), CellValue) }),
  }),
  z.strictObject({ int: z.tuple([z.number().int(), z.number().int()]) }),
  z.strictObject({
    decimal: z.tuple([z.number(), z.number()]),
    decimals: z.number().int().min(0).max(6).optional(),
  }),
  z.strictObject({ date: z.tuple([z.iso.date(), z.iso.date()]) }),
  z.strictObject({
    multiply: z.tuple([MemberName, MemberName]),
    decimals: z.number().int().min(0).max(6).optional(),
  }),
  z.strictObject({ chance: z.number().min(0).max(1) }),
]);
type ColumnSpec = z.infer<typeof ColumnSpec>;

const GeneratorSeed = z.strictObject({
  /** The generator's seed: the same number gives the same rows. */
  seed: z.number().int(),
  rows: z.number().int().min(0).max(200_000),
  columns: z.record(MemberName, ColumnSpec),
});

export const CubeSeed = z.strictObject({
  name: MemberName,
  deploymentId: z.number().int(),
  title: z.string().min(1).optional(),
  /** A slow cube: every query on it runs this long ("Continue wait" meanwhile). */
  delayMs: z.number().int().min(0).max(600_000).optional(),
  /** Row-level security: a key's security-context attribute -> the dimension it restricts. */
  rowLevelSecurity: z.record(z.string().min(1), MemberName).optional(),
  dimensions: z.array(DimensionSeed).min(1),
  measures: z.array(MeasureSeed).default([]),
  rows: z.array(z.record(MemberName, CellValue)).optional(),
  generator: GeneratorSeed.optional(),
});
export type CubeSeed = z.output<typeof CubeSeed>;
export type DimensionSeed = z.output<typeof DimensionSeed>;
export type MeasureSeed = z.output<typeof MeasureSeed>;

/** A cell as the sandbox holds it: time values as milliseconds of a zone-less clock (UTC arithmetic). */
export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

/**
 * The cross-field checks of one cube, as `[path within the cube, message]` pairs: members named once,
 * `of` naming a dimension, rows and generator naming dimensions, a generator column using only
 * columns made before it.
 */
export function cubeProblems(cube: CubeSeed): [(string | number)[], string][] {
  const problems: [(string | number)[], string][] = [];
  const dims = new Map(cube.dimensions.map((d) => [d.name, d]));
  const seen = new Set<string>();
  const check = (list: "dimensions" | "measures", name: string, i: number) => {
    if (seen.has(name)) problems.push([[list, i, "name"], `duplicate member "${cube.name}.${name}"`]);
    seen.add(name);
  };
  cube.dimensions.forEach((d, i) => {
    check("dimensions", d.name, i);
  });
  cube.measures.forEach((m, i) => {
    check("measures", m.name, i);
    if (m.of !== undefined && !dims.has(m.of)) {
      problems.push([["measures", i, "of"], `no dimension "${m.of}" in cube "${cube.name}"`]);
    }
    if (m.of === undefined && m.aggregation !== "count") {
      problems.push([
        ["measures", i, "of"],
        `a ${m.aggregation} measure needs "of" (the dimension it aggregates)`,
      ]);
    }
    const target = m.of === undefined ? undefined : dims.get(m.of);
    if (target && ["sum", "avg", "min", "max"].includes(m.aggregation) && target.type !== "number") {
      problems.push([["measures", i, "of"], `a ${m.aggregation} measure needs a number dimension`]);
    }
  });
  if (cube.rows && cube.generator) problems.push([["generator"], "give rows or a generator, not both"]);
  cube.rows?.forEach((row, i) => {
    for (const [key, value] of Object.entries(row)) {
      const dim = dims.get(key);
      if (!dim) problems.push([["rows", i, key], `no dimension "${key}" in cube "${cube.name}"`]);
      else if (
        value !== null &&
        dim.type === "time" &&
        (typeof value !== "string" || timeValue(value) === null)
      ) {
        problems.push([["rows", i, key], `"${String(value)}" is not a date or date-time`]);
      } else if (value !== null && dim.type === "number" && typeof value !== "number") {
        problems.push([["rows", i, key], `${JSON.stringify(value)} is not a number`]);
      }
    }
  });
  if (cube.generator) {
    const made = new Set<string>();
    for (const [name, spec] of Object.entries(cube.generator.columns)) {
      const path = ["generator", "columns", name];
      if (!dims.has(name)) problems.push([path, `no dimension "${name}" in cube "${cube.name}"`]);
      for (const used of usedColumns(spec)) {
        if (!made.has(used)) problems.push([path, `uses "${used}", which is not made before it`]);
      }
      if ("pick" in spec && spec.weights && spec.weights.length !== spec.pick.length) {
        problems.push([[...path, "weights"], "needs one weight per value"]);
      }
      made.add(name);
    }
  }
  return problems;
}

function usedColumns(spec: ColumnSpec): string[] {
  if ("pickBy" in spec) return [spec.pickBy.column];
  if ("lookup" in spec) return [spec.lookup.column];
  if ("multiply" in spec) return [...spec.multiply];
  return [];
}

/** mulberry32: a small seeded generator, the same numbers on every platform. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/** Reads a time value ("2024-03-05", "2024-03-05T10:00:00.000", with or without zone) as zone-less ms. */
export function timeValue(text: string): number | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  const value = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
    Number((ms ?? "0").padEnd(3, "0")),
  );
  return Number.isNaN(value) ? null : value;
}

/** ms -> "2024-01-01T00:00:00.000": a local ISO date-time without zone, as the data API writes them. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23);
}

/** Makes one column's cell of a generated row (its index, the row so far, the generator's draws). */
type ColumnMaker = (row: Row, index: number, next: () => number) => Cell;

/**
 * A column's maker, with what does not change from row to row (a date range's bounds, the sum of a
 * pick's weights) worked out once. Each row draws from `next` exactly as the spec says, in column
 * order, so the rows are the same whatever makes them.
 */
function columnMaker(spec: ColumnSpec): ColumnMaker {
  if ("sequence" in spec) {
    const { start = 1, every = 1, prefix, pad } = spec.sequence;
    if (prefix === undefined && pad === undefined) return (_row, index) => start + Math.floor(index / every);
    return (_row, index) =>
      `${prefix ?? ""}${String(start + Math.floor(index / every)).padStart(pad ?? 0, "0")}`;
  }
  if ("pick" in spec) {
    const { pick, weights } = spec;
    if (!weights) return (_row, _index, next) => pick[Math.floor(next() * pick.length)] ?? null;
    const total = weights.reduce((a, b) => a + b, 0);
    return (_row, _index, next) => {
      let x = next() * total;
      for (let i = 0; i < pick.length; i++) {
        x -= weights[i]!;
        if (x < 0) return pick[i]!;
      }
      return pick.at(-1) ?? null;
    };
  }
  if ("pickBy" in spec) {
    const { column, values } = spec.pickBy;
    return (row, _index, next) => {
      const list = values[String(row[column])];
      const r = next();
      return list ? (list[Math.floor(r * list.length)] ?? null) : null;
    };
  }
  if ("lookup" in spec) {
    const { column, values } = spec.lookup;
    return (row) => values[String(row[column])] ?? null;
  }
  if ("int" in spec) {
    const [lo, hi] = spec.int;
    return (_row, _index, next) => lo + Math.floor(next() * (hi - lo + 1));
  }
  if ("decimal" in spec) {
    const [lo, hi] = spec.decimal;
    const decimals = spec.decimals ?? 2;
    return (_row, _index, next) => round(lo + next() * (hi - lo), decimals);
  }
  if ("date" in spec) {
    const from = timeValue(spec.date[0])!;
    const to = timeValue(spec.date[1])!;
    const days = Math.max(0, Math.round((to - from) / DAY_MS));
    return (_row, _index, next) => from + Math.floor(next() * (days + 1)) * DAY_MS;
  }
  if ("multiply" in spec) {
    const [left, right] = spec.multiply;
    const decimals = spec.decimals ?? 2;
    return (row) => {
      const a = row[left];
      const b = row[right];
      return typeof a === "number" && typeof b === "number" ? round(a * b, decimals) : null;
    };
  }
  const { chance } = spec;
  return (_row, _index, next) => next() < chance;
}

/** One cube as the data API reads it: its definition and its rows (time values as ms). */
export interface CubeData {
  seed: CubeSeed;
  rows: Row[];
}

/**
 * Rows made by a generator, by the generator (its JSON), the last few: a sandbox started again with
 * the same seed (each preview test, the preview's Reset demo) reads them instead of making them
 * again (the demo's orders cube: 60,000 rows, about 0.4 s). Nothing changes rows once made: the
 * data API filters and groups them into new ones. The most recently used are kept, up to
 * GENERATED_ROWS_KEPT rows in all (the demo's seven cubes hold about 63,000).
 */
const generated = new Map<string, Row[]>();
const GENERATED_ROWS_KEPT = 250_000;
let generatedRows = 0;

/** The cube's rows: the seed's (time texts read as ms) or the generator's, the same on every call. */
export function cubeRows(cube: CubeSeed): Row[] {
  const timeDims = cube.dimensions.filter((d) => d.type === "time").map((d) => d.name);
  if (cube.rows) {
    return cube.rows.map((r) => {
      const row: Row = { ...r };
      for (const name of timeDims) {
        const v = row[name];
        row[name] = typeof v === "string" ? timeValue(v) : null;
      }
      return row;
    });
  }
  const gen = cube.generator;
  if (!gen) return [];
  const key = JSON.stringify(gen);
  const kept = generated.get(key);
  if (kept) {
    // Most recently used last: the first in the map is the first to go.
    generated.delete(key);
    generated.set(key, kept);
    return kept;
  }
  const next = random(gen.seed);
  const columns = Object.entries(gen.columns).map(([name, spec]) => [name, columnMaker(spec)] as const);
  const rows: Row[] = new Array(gen.rows);
  for (let i = 0; i < gen.rows; i++) {
    const row: Row = {};
    for (const [name, make] of columns) row[name] = make(row, i, next);
    rows[i] = row;
  }
  generated.set(key, rows);
  generatedRows += rows.length;
  for (const [oldest, old] of generated) {
    if (generatedRows <= GENERATED_ROWS_KEPT || oldest === key) break;
    generated.delete(oldest);
    generatedRows -= old.length;
  }
  return rows;
}
