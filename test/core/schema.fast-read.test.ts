/**
 * `safeParseTolerantReport` (schema.ts) reads a report's placements by hand when they have the plain
 * shape the service sends: what it answers must be exactly what `TolerantReportSchema.safeParse`
 * answers, for every input: the same data (fields, values and their order) or the same issues.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeParseTolerantReport, TolerantReportSchema } from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

/** Every key path of a value, in the order its objects hold them (toStrictEqual ignores key order). */
function keyOrder(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((key) => [
    `${path}.${key}`,
    ...keyOrder((value as Record<string, unknown>)[key], `${path}.${key}`),
  ]);
}

/** Both readings of `input`, compared: data and key order on success, the issues on failure. */
function expectSameReading(input: unknown) {
  const fast = safeParseTolerantReport(input);
  const zod = TolerantReportSchema.safeParse(input);
  expect(fast.success).toBe(zod.success);
  if (zod.success && fast.success) {
    expect(fast.data).toStrictEqual(zod.data);
    expect(keyOrder(fast.data)).toEqual(keyOrder(zod.data));
  } else {
    const issues = (r: typeof zod) =>
      r.error?.issues.map((i) => ({ code: i.code, path: i.path, message: i.message }));
    expect(issues(fast)).toEqual(issues(zod));
  }
}

const CHECKSUM = { v: 1, chunks: [{ from: 0, hash: "ab12" }], payload: "p" };

/** A value for a placement's field: of the right type, of a wrong one, or an edge of one. */
const anyValue = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    "",
    "B2",
    "Sales",
    "EXCEL",
    "GOOGLE_SHEETS",
    "NUMBERS",
    "UP_TO_DATE",
    "CHANGED",
    "UNKNOWN",
    "SOMETHING_NEW",
    0,
    -0,
    7,
    -3,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53,
    true,
    [],
    {},
    CHECKSUM,
    { ...CHECKSUM, v: 0 },
    { v: 1, chunks: "x" },
  ),
  fc.string(),
  fc.integer(),
);

const text = fc.oneof(fc.string(), fc.constantFrom("B2", "E9", "Sales", "'Q1 Sales'!B2"));
const nullish = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: a }, fc.constant(null));

/** Each field of a placement with the values the service may send for it (tolerated ones included). */
const PLAIN_FIELDS = {
  workbookId: text,
  resultLocation: text,
  id: nullish(text),
  anchorCell: nullish(text),
  endResultCell: nullish(text),
  host: nullish(fc.oneof(fc.constantFrom("EXCEL", "GOOGLE_SHEETS", "NUMBERS"), fc.string())),
  placedAt: nullish(text),
  placedByUserId: nullish(fc.oneof(fc.integer(), fc.constantFrom(-0, Number.MAX_SAFE_INTEGER))),
  queryChecksum: nullish(text),
  refreshedAt: nullish(text),
  refreshedByUserId: nullish(fc.integer()),
  sheetId: nullish(text),
  sheetName: nullish(text),
  syncStatus: nullish(fc.oneof(fc.constantFrom("UP_TO_DATE", "CHANGED", "UNKNOWN", "LATER"), fc.string())),
  workbookName: nullish(text),
  resultChecksum: nullish(
    fc.constantFrom<unknown>(CHECKSUM, { ...CHECKSUM, v: 0 }, { v: 1, chunks: "x" }, "opaque", 3, []),
  ),
  somethingElse: anyValue,
};
const FIELDS = Object.keys(PLAIN_FIELDS) as (keyof typeof PLAIN_FIELDS)[];

/**
 * A placement: mostly of the plain shape (any of its fields, each with a value the service may
 * send), sometimes with a field of another type or present but undefined.
 */
const anyPlacement = fc
  .record({
    plain: fc.record(PLAIN_FIELDS, { requiredKeys: ["workbookId", "resultLocation"] }),
    odd: fc.option(fc.tuple(fc.constantFrom(...FIELDS), anyValue), { freq: 8 }),
  })
  .map(({ plain, odd }) => {
    const p: Record<string, unknown> = { ...plain };
    if (odd) p[odd[0]] = odd[1];
    return p;
  });

const anyPlacements = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.array(fc.oneof({ weight: 30, arbitrary: anyPlacement }, anyValue), { maxLength: 5 }),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, undefined, "none", 3, {}) },
);

const int = fc.oneof({ weight: 6, arbitrary: fc.integer() }, fc.constantFrom<unknown>(-0, 1.5, 2 ** 53, "7"));
const anyOf = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, anyValue);
const owner = fc.record(
  { id: int, email: text, firstName: nullish(text), picture: nullish(text), extra: anyValue },
  { requiredKeys: ["id", "email"] },
);
const DATES = fc.constantFrom(
  "2026-01-02",
  "2024-02-29",
  "2026-02-29",
  "2026-13-01",
  "2026-11-20T10:15:00Z",
  "2026-11-20T10:15:00",
  "2026-11-20T10:15",
  "2026-11-20T10:15Z",
  "2026-11-20T10:15:00.123+02:00",
  "2026-11-20T10:15:00-24:00",
  "2026-11-20T25:00:00Z",
  "2026-11-20 10:15:00Z",
);
const checksums = fc.oneof(
  fc.record(
    {
      v: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constantFrom<unknown>(1.5, "1")),
      chunks: fc.oneof(
        fc.array(
          fc.oneof(
            {
              weight: 6,
              arbitrary: fc.record(
                { from: int, hash: fc.string({ maxLength: 70 }), to: int },
                { requiredKeys: ["from", "hash"] },
              ),
            },
            anyValue,
          ),
          { maxLength: 3 },
        ),
        anyValue,
      ),
      payload: fc.oneof(fc.string({ maxLength: 130 }), anyValue),
    },
    { requiredKeys: [] },
  ),
  anyValue,
);

/** Each of a report's own fields with values the service may send, and others. */
const REPORT_OWN = {
  id: int,
  publicId: fc.oneof(
    fc.stringMatching(/^[0-9A-Za-z]{12}$/),
    fc.constantFrom<unknown>("short", "AbC123dEf45!", "", 12),
  ),
  deploymentId: int,
  userId: int,
  user: anyOf(owner),
  name: anyOf(text),
  refreshedByUser: anyOf(owner),
  createdAt: anyOf(DATES),
  updatedAt: anyOf(
    fc.oneof(
      DATES,
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    ),
  ),
  type: fc.constantFrom<unknown>("FOLDER", "WORKBOOK", "REPORT", "DASHBOARD", 3, null),
  canEdit: anyOf(nullish(fc.boolean())),
  createdBy: anyOf(int),
  description: anyOf(nullish(text)),
  folderId: anyOf(nullish(int)),
  folderPath: anyOf(
    fc.array(fc.record({ id: int, name: text, x: anyValue }, { requiredKeys: ["id", "name"] }), {
      maxLength: 3,
    }),
  ),
  meta: anyOf(
    nullish(
      fc.oneof(
        fc.dictionary(fc.string({ maxLength: 4 }), anyValue, { maxKeys: 3 }),
        fc.constant(JSON.parse('{"__proto__": 1, "a": 2}') as unknown),
        fc.constant({ 2: "two", b: 1, 1: "one" }),
      ),
    ),
  ),
  pivotItems: anyOf(
    nullish(
      fc.record(
        {
          columns: anyOf(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
          measures: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
          rows: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
          filters: anyOf(fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })),
          measuresAxis: anyOf(nullish(fc.constantFrom("columns", "rows", "diagonal"))),
          measuresPosition: anyOf(nullish(fc.constantFrom("before", "after", "between"))),
          displayScale: anyValue,
          showColumnTotals: anyValue,
          showRowTotals: anyOf(fc.boolean()),
          showAppliedFilters: anyValue,
          other: anyValue,
        },
        { requiredKeys: ["measures", "rows"] },
      ),
    ),
  ),
  refreshedBy: anyOf(nullish(int)),
  rolesWithAccess: anyOf(
    nullish(
      fc.array(
        fc.record({
          id: int,
          name: text,
          actions: anyOf(
            fc.array(fc.constantFrom<unknown>("All", "ReportRead", "Nope", 3), { maxLength: 3 }),
          ),
        }),
        { maxLength: 2 },
      ),
    ),
  ),
  source: fc.constantFrom<unknown>("EXCEL", "D3", "NOTEBOOK", 3, null, undefined),
  title: anyOf(nullish(text)),
  version: anyOf(nullish(int)),
  workbookId: anyOf(nullish(int)),
  unknownField: anyValue,
};

/**
 * A report: the full one, its placements generated (their checksums too), some of its own fields
 * generated or gone, sometimes a field of its own wrong.
 */
const anyReport = fc
  .record({
    placements: anyPlacements,
    checksum: fc.option(checksums, { freq: 2 }),
    placementsGone: fc.boolean(),
    fields: fc.record(REPORT_OWN, { requiredKeys: [] }),
    gone: fc.subarray(Object.keys(REPORT_OWN), { maxLength: 3 }),
    own: fc.option(fc.tuple(fc.constantFrom("id", "name", "type", "source", "user", "extra"), anyValue), {
      freq: 6,
    }),
  })
  .map(({ placements, checksum, placementsGone, fields, gone, own }) => {
    const list =
      checksum && Array.isArray(placements) && isPlacement(placements[0])
        ? [{ ...placements[0], resultChecksum: checksum }, ...placements.slice(1)]
        : placements;
    const r: Record<string, unknown> = { ...fullReport(), externalWorkbookPlacements: list, ...fields };
    for (const key of gone) delete r[key];
    if (placementsGone) delete r.externalWorkbookPlacements;
    if (own) r[own[0]] = own[1];
    return r;
  });

function isPlacement(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

describe("safeParseTolerantReport: the tolerant reading, with placements checked by hand", () => {
  it("answers exactly what TolerantReportSchema answers, for generated reports", () => {
    fc.assert(fc.property(anyReport, expectSameReading), { numRuns: 4000 });
  });

  it("reads the report's own fields by hand as zod does: unknown fields dropped, an unknown source null, unknown role actions dropped", () => {
    const report = {
      ...fullReport(),
      source: "NOTEBOOK",
      rolesWithAccess: [{ id: 1, name: "Viewers", actions: ["ReportRead", "Later"], extra: 1 }],
      pivotItems: {
        columns: [],
        measures: ["m"],
        rows: [],
        filters: [],
        measuresAxis: "diagonal",
        displayScale: true,
      },
      meta: { b: 1, a: 2 },
      unknownField: "x",
    };
    const read = safeParseTolerantReport(report);
    expect(read.success).toBe(true);
    expect(read.data!.source).toBeNull();
    expect(read.data!.rolesWithAccess).toStrictEqual([{ id: 1, name: "Viewers", actions: ["ReportRead"] }]);
    expect(read.data!.pivotItems?.measuresAxis).toBeNull();
    expect(read.data!.pivotItems?.displayScale).toBeNull();
    expect("unknownField" in read.data!).toBe(false);
    expectSameReading(report);
  });

  it("answers the same for what is not a report at all", () => {
    for (const input of [null, undefined, "report", 42, [], [fullReport()], {}]) expectSameReading(input);
  });

  it("reads the plain shape by hand: unknown fields dropped, an unknown host null, an unknown status UNKNOWN, a bad checksum null", () => {
    const report = fullReport({
      externalWorkbookPlacements: [
        { ...placement(), host: "NUMBERS" as never, syncStatus: "LATER" as never, extra: 1 } as never,
        { ...placement(), resultChecksum: { v: 0, chunks: [] } } as never,
        { ...placement(), resultChecksum: CHECKSUM, syncStatus: null, placedByUserId: null },
      ],
    });
    const read = safeParseTolerantReport(report);
    expect(read.success).toBe(true);
    const [a, b, c] = read.data!.externalWorkbookPlacements!;
    expect(a!.host).toBeNull();
    expect(a!.syncStatus).toBe("UNKNOWN");
    expect("extra" in a!).toBe(false);
    expect(b!.resultChecksum).toBeNull();
    expect(c!.resultChecksum).toStrictEqual(CHECKSUM);
    expect(c!.syncStatus).toBeNull();
    expectSameReading(report);
  });

  it("leaves a placement of another shape to zod, with zod's issue and path", () => {
    const report = fullReport({
      externalWorkbookPlacements: [placement(), { ...placement(), placedByUserId: 1.5 } as never],
    });
    const read = safeParseTolerantReport(report);
    expect(read.success).toBe(false);
    expect(read.error?.issues[0]?.path).toEqual(["externalWorkbookPlacements", 1, "placedByUserId"]);
    expectSameReading(report);
  });

  it("reads 2,000 placements of the plain shape to the same list zod reads", () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      placement({ id: `p${i}`, sheetId: `s${i % 4}`, anchorCell: `B${i + 2}`, endResultCell: `E${i + 3}` }),
    );
    expectSameReading(fullReport({ externalWorkbookPlacements: many }));
  });
});
