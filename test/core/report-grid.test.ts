import { describe, expect, it } from "vitest";
import { dateToSerial, excelDateSerial } from "../../src/core/date-serial.js";
import {
  type GridReport,
  isPlatformError,
  MAX_GRID_CELLS,
  MAX_GRID_ROWS,
  type PlatformError,
  reportGrid,
  TolerantReportSchema,
} from "../../src/core/index.js";
import { parseNumberCell } from "../../src/core/report-grid.js";
import { fullReport } from "./fixtures.js";

// docs/platform-api.md, "A report's grid". The answer is the data API's load answer: values as
// strings, a time dimension keyed <member>.<granularity>, titles in the annotation.

const annotation = {
  measures: {
    "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" },
    "orders.revenue": { title: "Orders Revenue", shortTitle: "Revenue", type: "number" },
  },
  dimensions: {
    "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" },
    "orders.status": { title: "Orders Status", shortTitle: "Status", type: "string" },
    "orders.items": { title: "Orders Items", shortTitle: "Items", type: "number" },
    "orders.paid": { title: "Orders Paid", shortTitle: "Paid", type: "boolean" },
  },
  segments: {},
  timeDimensions: {
    "orders.created_at.month": { title: "Orders Created at", shortTitle: "Created at", type: "time" },
    "orders.created_at": { title: "Orders Created at", shortTitle: "Created at", type: "time" },
  },
};

function report(query: object, pivotItems: GridReport["pivotItems"] = null): GridReport {
  return { jsonQuery: JSON.stringify(query), pivotItems };
}

function answer(data: object[], query: object = {}) {
  return { query, data, annotation, lastRefreshTime: "2024-06-01T00:00:00.000Z" };
}

function errorOf(fn: () => unknown): PlatformError {
  try {
    fn();
  } catch (e) {
    if (isPlatformError(e)) return e;
    throw e;
  }
  throw new Error("did not throw");
}

describe("the flat layout: a title row, then one row per data row", () => {
  const query = {
    measures: ["orders.count"],
    dimensions: ["orders.region"],
    timeDimensions: [{ dimension: "orders.created_at", granularity: "month", dateRange: "last year" }],
  };
  const data = [
    { "orders.count": "10", "orders.region": "East", "orders.created_at.month": "2024-01-01T00:00:00.000" },
    { "orders.count": "12.5", "orders.region": "West", "orders.created_at.month": "2024-02-01T00:00:00.000" },
  ];

  it("orders the columns dimensions, granular time dimensions, measures, with the annotation's titles", () => {
    const grid = reportGrid(report(query), answer(data));
    expect(grid.layout).toBe("flat");
    expect(grid.values).toEqual([
      ["Orders Region", "Orders Created at", "Orders Count"],
      ["East", 45292, 10],
      ["West", 45323, 12.5],
    ]);
    expect([grid.rows, grid.columns, grid.headerRows, grid.headerColumns]).toEqual([3, 3, 1, 0]);
    expect(grid.columnKinds).toEqual(["text", "date", "number"]);
    expect(grid.dateFormats).toEqual([{ row: 1, column: 1, rows: 2, columns: 1, format: "yyyy-mm" }]);
  });

  it("is flat too with pivotItems whose rows and columns are empty", () => {
    const pivot = { rows: [], columns: [], measures: ["orders.count"], filters: [] };
    expect(reportGrid(report(query, pivot), answer(data)).values).toEqual(
      reportGrid(report(query), answer(data)).values,
    );
  });

  it("sizes the grid 1 + N rows by dims + granular time dims + measures, whatever the answer adds", () => {
    const extra = data.map((row) => ({ ...row, "orders.secret": "x", "orders.created_at": "2024-01-01" }));
    const grid = reportGrid(report(query), answer(extra));
    expect([grid.rows, grid.columns]).toEqual([3, 3]);
    expect(grid.values.every((row) => row.length === 3)).toBe(true);
  });

  it("skips a time dimension without granularity (it only filters) and titles an unannotated member with its name", () => {
    const q = {
      measures: ["orders.unknown"],
      dimensions: ["orders.region"],
      timeDimensions: [{ dimension: "orders.created_at", dateRange: ["2024-01-01", "2024-12-31"] }],
    };
    const grid = reportGrid(report(q), answer([{ "orders.region": "East", "orders.unknown": "3" }]));
    expect(grid.values).toEqual([
      ["Orders Region", "orders.unknown"],
      ["East", 3],
    ]);
  });

  it("uses the answer's query when the report has none", () => {
    const grid = reportGrid({ jsonQuery: null, pivotItems: null }, answer(data, query));
    expect(grid.values[0]).toEqual(["Orders Region", "Orders Created at", "Orders Count"]);
  });

  it("accepts several pages' data concatenated into one answer", () => {
    const pages = [...data, ...data, ...data];
    expect(reportGrid(report(query), answer(pages)).rows).toBe(7);
  });

  it("gives an empty answer its title row alone", () => {
    const grid = reportGrid(report(query), answer([]));
    expect(grid.values).toEqual([["Orders Region", "Orders Created at", "Orders Count"]]);
    expect(grid.dateFormats).toEqual([]);
  });
});

describe("cells: numbers as numbers, dates as serial numbers, nulls empty, booleans as booleans", () => {
  it("parses measures and number dimensions; text that is not a plain decimal stays text", () => {
    const q = { measures: ["orders.count"], dimensions: ["orders.items", "orders.status"] };
    const rows = [
      { "orders.count": "-1.5e3", "orders.items": "007", "orders.status": "42" },
      { "orders.count": "n/a", "orders.items": "0x10", "orders.status": "done" },
      { "orders.count": "-0", "orders.items": " 12", "orders.status": "" },
      { "orders.count": 5, "orders.items": "12345678901234567890", "orders.status": 3 },
    ];
    expect(reportGrid(report(q), answer(rows)).values.slice(1)).toEqual([
      [7, "42", -1500],
      ["0x10", "done", "n/a"],
      [" 12", "", 0],
      ["12345678901234567890", "3", 5],
    ]);
  });

  it.each([
    ["1", 1],
    ["-2.50", -2.5],
    [".5", 0.5],
    ["1e3", 1000],
    ["123456789012345", 123456789012345],
    ["1234567890123456", "1234567890123456"],
    ["0.1234567890123456789", 0.12345678901234568],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
    ["", ""],
    ["1,000", "1,000"],
  ])("reads %j as %j", (text, cell) => {
    expect(parseNumberCell(text)).toEqual(cell);
  });

  it("keeps null and missing values as empty cells, and reads boolean dimensions as booleans", () => {
    const q = { measures: ["orders.count"], dimensions: ["orders.paid", "orders.region"] };
    const rows = [
      { "orders.count": null, "orders.paid": "true", "orders.region": null },
      { "orders.paid": false },
      { "orders.count": "1", "orders.paid": "maybe", "orders.region": { nested: 1 } },
    ];
    expect(reportGrid(report(q), answer(rows)).values.slice(1)).toEqual([
      [true, null, null],
      [false, null, null],
      ["maybe", '{"nested":1}', 1],
    ]);
  });

  it.each([
    ["year", "2024-01-01T00:00:00.000", 45292, "yyyy"],
    ["quarter", "2024-04-01T00:00:00.000", 45383, "yyyy-mm"],
    ["month", "2024-02-01T00:00:00.000", 45323, "yyyy-mm"],
    ["week", "2024-01-08T00:00:00.000", 45299, "yyyy-mm-dd"],
    ["day", "2024-02-29T00:00:00.000", 45351, "yyyy-mm-dd"],
    ["hour", "2024-01-01T12:00:00.000", 45292.5, "yyyy-mm-dd hh:mm"],
    ["minute", "2024-01-01T06:00:00.000", 45292.25, "yyyy-mm-dd hh:mm"],
    ["second", "2024-01-01T18:00:00.000", 45292.75, "yyyy-mm-dd hh:mm:ss"],
    ["fiscal_year", "2024-01-01T00:00:00.000", 45292, "yyyy-mm-dd hh:mm:ss"],
  ])("a time dimension by %s becomes a serial number with its format", (granularity, iso, serial, format) => {
    const q = { measures: [], timeDimensions: [{ dimension: "orders.created_at", granularity }] };
    const grid = reportGrid(report(q), answer([{ [`orders.created_at.${granularity}`]: iso }]));
    expect(grid.values[1]).toEqual([serial]);
    expect(grid.dateFormats).toEqual([{ row: 1, column: 0, rows: 1, columns: 1, format }]);
  });

  it("reads a time-typed plain dimension as a date-time, and keeps unreadable or pre-1900-03-01 dates as text", () => {
    const q = { measures: [], dimensions: ["orders.created_at"] };
    const rows = [
      { "orders.created_at": "2024-01-01T00:00:00.000" },
      { "orders.created_at": "1900-02-28T00:00:00.000" },
      { "orders.created_at": "2024-02-30T00:00:00.000" },
      { "orders.created_at": "soon" },
    ];
    const grid = reportGrid(report(q), answer(rows));
    expect(grid.values.slice(1).map((r) => r[0])).toEqual([
      45292,
      "1900-02-28T00:00:00.000",
      "2024-02-30T00:00:00.000",
      "soon",
    ]);
    expect(grid.dateFormats[0]?.format).toBe("yyyy-mm-dd hh:mm:ss");
  });

  it("counts serial numbers from 1899-12-30, as Excel and Google Sheets do from 1900-03-01", () => {
    expect(excelDateSerial("1900-03-01")).toBe(61);
    expect(excelDateSerial("1970-01-01T00:00:00.000")).toBe(25569);
    expect(excelDateSerial("2024-01-01T00:00:00.000Z")).toBe(45292);
    expect(excelDateSerial("9999-12-31T23:59:59.999")).toBeCloseTo(2958466, 6);
    expect(excelDateSerial("1899-12-31")).toBeNull();
    expect(excelDateSerial("0099-01-01")).toBeNull();
    expect(excelDateSerial("2024-13-01")).toBeNull();
    expect(excelDateSerial("2024-01-01T24:00:00")).toBeNull();
    expect(excelDateSerial("2024-01-01T00:00:00.000+05:00")).toBe(45292);
  });

  it("converts a Date by its wall-clock time in the runtime's zone, as Sheets' getValues gives it", () => {
    expect(dateToSerial(new Date(2024, 0, 1, 12, 0, 0))).toBe(45292.5);
    expect(dateToSerial(new Date(Number.NaN))).toBeNaN();
  });

  it("puts no Date object in the grid: the cells survive JSON (google.script.run, postMessage)", () => {
    const q = {
      measures: ["orders.count"],
      timeDimensions: [{ dimension: "orders.created_at", granularity: "day" }],
    };
    const grid = reportGrid(
      report(q),
      answer([{ "orders.count": "1", "orders.created_at.day": "2024-01-01T00:00:00.000" }]),
    );
    expect(JSON.parse(JSON.stringify(grid))).toEqual(grid);
  });
});

describe("the pivot layout", () => {
  const query = {
    measures: ["orders.count", "orders.revenue"],
    dimensions: ["orders.region"],
    timeDimensions: [{ dimension: "orders.created_at", granularity: "month" }],
  };
  // Months arrive out of order (the query orders by region): the columns sort them in time.
  const data = [
    {
      "orders.region": "East",
      "orders.created_at.month": "2024-02-01T00:00:00.000",
      "orders.count": "2",
      "orders.revenue": "20",
    },
    {
      "orders.region": "East",
      "orders.created_at.month": "2024-01-01T00:00:00.000",
      "orders.count": "1",
      "orders.revenue": "10",
    },
    {
      "orders.region": "West",
      "orders.created_at.month": "2024-01-01T00:00:00.000",
      "orders.count": "3",
      "orders.revenue": null,
    },
  ];
  const pivot = (extra: object = {}) => ({
    rows: ["orders.region"],
    columns: ["orders.created_at.month"],
    measures: ["orders.count"],
    filters: [],
    ...extra,
  });
  const oneMeasure = { ...query, measures: ["orders.count"] };
  const jan = 45292;
  const feb = 45323;

  it("one columns member and one measure: (1 + row keys) x (rows members + column values), empty where no data", () => {
    const grid = reportGrid(report(oneMeasure, pivot()), answer(data));
    expect(grid.values).toEqual([
      ["Orders Region", jan, feb],
      ["East", 1, 2],
      ["West", 3, null],
    ]);
    expect([grid.rows, grid.columns, grid.headerRows, grid.headerColumns]).toEqual([3, 3, 1, 1]);
    expect(grid.dateFormats).toEqual([{ row: 0, column: 1, rows: 1, columns: 2, format: "yyyy-mm" }]);
    expect(grid.columnKinds).toEqual(["text", "number", "number"]);
  });

  it("names a time dimension in pivotItems with or without its granularity", () => {
    const a = reportGrid(report(oneMeasure, pivot({ columns: ["orders.created_at"] })), answer(data));
    expect(a.values).toEqual(reportGrid(report(oneMeasure, pivot()), answer(data)).values);
  });

  it("several measures on the columns: a row of measure titles, measures inside each column value (after), the columns member titled in the corner", () => {
    const grid = reportGrid(
      report(query, pivot({ measures: ["orders.count", "orders.revenue"] })),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Orders Created at", jan, jan, feb, feb],
      ["Orders Region", "Orders Count", "Orders Revenue", "Orders Count", "Orders Revenue"],
      ["East", 1, 10, 2, 20],
      ["West", 3, null, null, null],
    ]);
    expect(grid.headerRows).toBe(2);
  });

  it("measuresPosition before: measure titles above the column values, each measure a block", () => {
    const grid = reportGrid(
      report(query, pivot({ measures: ["orders.count", "orders.revenue"], measuresPosition: "before" })),
      answer(data),
    );
    expect(grid.values).toEqual([
      [null, "Orders Count", "Orders Count", "Orders Revenue", "Orders Revenue"],
      ["Orders Region", jan, feb, jan, feb],
      ["East", 1, 2, 10, 20],
      ["West", 3, null, null, null],
    ]);
    expect(grid.dateFormats).toEqual([{ row: 1, column: 1, rows: 1, columns: 4, format: "yyyy-mm" }]);
  });

  it("lists a query measure pivotItems leaves out after those it lists", () => {
    const grid = reportGrid(report(query, pivot({ measures: ["orders.revenue"] })), answer(data));
    expect(grid.values[1]).toEqual([
      "Orders Region",
      "Orders Revenue",
      "Orders Count",
      "Orders Revenue",
      "Orders Count",
    ]);
  });

  it("with no columns member, one header row of measure titles", () => {
    const grid = reportGrid(
      report(query, pivot({ columns: [], rows: ["orders.region", "orders.created_at.month"] })),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Orders Region", "Orders Created at", "Orders Count", "Orders Revenue"],
      ["East", feb, 2, 20],
      ["East", jan, 1, 10],
      ["West", jan, 3, null],
    ]);
    expect(grid.dateFormats).toEqual([{ row: 1, column: 1, rows: 3, columns: 1, format: "yyyy-mm" }]);
  });

  it("puts a dimension pivotItems does not place on the rows, so no two data rows collide", () => {
    const grid = reportGrid(report(oneMeasure, pivot({ rows: [] })), answer(data));
    expect(grid.values).toEqual([
      ["Orders Region", jan, feb],
      ["East", 1, 2],
      ["West", 3, null],
    ]);
  });

  it("measures on the rows: each row key crossed with the measures, a label column after the members", () => {
    const grid = reportGrid(
      report(query, pivot({ measures: ["orders.count", "orders.revenue"], measuresAxis: "rows" })),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Orders Region", "Measures", jan, feb],
      ["East", "Orders Count", 1, 2],
      ["East", "Orders Revenue", 10, 20],
      ["West", "Orders Count", 3, null],
      ["West", "Orders Revenue", null, null],
    ]);
    expect(grid.headerColumns).toBe(2);
    expect(grid.columnKinds).toEqual(["text", "text", "number", "number"]);
  });

  it("measures on the rows, before: the label column first, each measure a block of rows", () => {
    const grid = reportGrid(
      report(
        query,
        pivot({
          measures: ["orders.count", "orders.revenue"],
          measuresAxis: "rows",
          measuresPosition: "before",
        }),
      ),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Measures", "Orders Region", jan, feb],
      ["Orders Count", "East", 1, 2],
      ["Orders Count", "West", 3, null],
      ["Orders Revenue", "East", 10, 20],
      ["Orders Revenue", "West", null, null],
    ]);
  });

  it("measures on the rows without a columns member: one Value column", () => {
    const grid = reportGrid(
      report(
        query,
        pivot({ columns: [], rows: ["orders.region", "orders.created_at"], measuresAxis: "rows" }),
      ),
      answer(data),
    );
    expect(grid.values[0]).toEqual(["Orders Region", "Orders Created at", "Measures", "Value"]);
    expect(grid.values[1]).toEqual(["East", feb, "Orders Count", 2]);
    expect(grid.rows).toBe(1 + 3 * 2);
  });

  it("totals are sums: a Total column per measure and a Total row", () => {
    const grid = reportGrid(
      report(
        query,
        pivot({ measures: ["orders.count", "orders.revenue"], showRowTotals: true, showColumnTotals: true }),
      ),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Orders Created at", jan, jan, feb, feb, "Total", "Total"],
      [
        "Orders Region",
        "Orders Count",
        "Orders Revenue",
        "Orders Count",
        "Orders Revenue",
        "Orders Count",
        "Orders Revenue",
      ],
      ["East", 1, 10, 2, 20, 3, 30],
      ["West", 3, null, null, null, 3, null],
      ["Total", 4, 10, 2, 20, 6, 30],
    ]);
    expect(grid.dateFormats).toEqual([{ row: 0, column: 1, rows: 1, columns: 4, format: "yyyy-mm" }]);
  });

  it("totals with measures before: each measure's block ends with its Total column", () => {
    const grid = reportGrid(
      report(
        query,
        pivot({
          measures: ["orders.count", "orders.revenue"],
          measuresPosition: "before",
          showRowTotals: true,
        }),
      ),
      answer(data),
    );
    expect(grid.values[0]).toEqual([
      null,
      "Orders Count",
      "Orders Count",
      "Orders Count",
      "Orders Revenue",
      "Orders Revenue",
      "Orders Revenue",
    ]);
    expect(grid.values[1]).toEqual(["Orders Region", jan, feb, "Total", jan, feb, "Total"]);
    expect(grid.values[2]).toEqual(["East", 1, 2, 3, 10, 20, 30]);
    expect(grid.dateFormats).toEqual([
      { row: 1, column: 1, rows: 1, columns: 2, format: "yyyy-mm" },
      { row: 1, column: 4, rows: 1, columns: 2, format: "yyyy-mm" },
    ]);
  });

  it("totals with measures on the rows: a Total column, and a Total row per measure", () => {
    const grid = reportGrid(
      report(
        query,
        pivot({
          measures: ["orders.count", "orders.revenue"],
          measuresAxis: "rows",
          showRowTotals: true,
          showColumnTotals: true,
        }),
      ),
      answer(data),
    );
    expect(grid.values).toEqual([
      ["Orders Region", "Measures", jan, feb, "Total"],
      ["East", "Orders Count", 1, 2, 3],
      ["East", "Orders Revenue", 10, 20, 30],
      ["West", "Orders Count", 3, null, 3],
      ["West", "Orders Revenue", null, null, null],
      ["Total", "Orders Count", 4, 2, 6],
      ["Total", "Orders Revenue", 10, 20, 30],
    ]);
  });

  it("reads the totals' flags from a report as the client parses it", () => {
    const parsed = TolerantReportSchema.parse(
      fullReport({
        jsonQuery: JSON.stringify(oneMeasure),
        // A newer editor may send other types: read as null, the report kept.
        pivotItems: {
          ...pivot(),
          showRowTotals: true,
          showColumnTotals: "yes",
          displayScale: { odd: true },
        } as never,
      }),
    );
    expect(parsed.pivotItems?.showRowTotals).toBe(true);
    expect(parsed.pivotItems?.showColumnTotals).toBeNull();
    expect(parsed.pivotItems?.displayScale).toBeNull();
    const grid = reportGrid(parsed, answer(data));
    expect(grid.values[0]).toEqual(["Orders Region", jan, feb, "Total"]);
    expect(grid.rows).toBe(3);
  });

  it("two columns members and one measure: one header row per member, no row of measure titles", () => {
    const q = { measures: ["orders.count"], dimensions: ["orders.region", "orders.status"] };
    const rows = [
      { "orders.region": "East", "orders.status": "open", "orders.count": "1" },
      { "orders.region": "East", "orders.status": "done", "orders.count": "2" },
    ];
    const grid = reportGrid(
      report(q, { rows: [], columns: ["orders.region", "orders.status"], measures: [], filters: [] }),
      answer(rows),
    );
    expect(grid.values).toEqual([
      ["East", "East"],
      ["open", "done"],
      [1, 2],
    ]);
    expect(grid.headerColumns).toBe(0);
  });
});

describe("caps and malformed answers", () => {
  const q = { measures: ["orders.count"], dimensions: ["orders.region"] };

  it("refuses a grid of more rows than a sheet holds, naming the limit", () => {
    const data = new Array(MAX_GRID_ROWS).fill({ "orders.region": "x", "orders.count": "1" });
    const e = errorOf(() => reportGrid(report(q), answer(data)));
    expect(e.kind).toBe("bad-request");
    expect(e.message).toContain("1,048,577 rows");
    expect(e.message).toContain("1,048,576");
  });

  it("refuses a grid of more cells than the add-in places at once, naming the limit", () => {
    const measures = Array.from({ length: 100 }, (_, i) => `orders.m${i}`);
    const data = new Array(MAX_GRID_CELLS / 100).fill({});
    const e = errorOf(() => reportGrid(report({ measures }), answer(data)));
    expect(e.kind).toBe("bad-request");
    expect(e.message).toContain("5,000,100 cells");
    expect(e.message).toContain("5,000,000");
  });

  it("refuses a pivot wider than a sheet", () => {
    const data = Array.from({ length: 16_385 }, (_, i) => ({
      "orders.region": `r${i}`,
      "orders.count": "1",
    }));
    const e = errorOf(() =>
      reportGrid(
        report(q, { rows: [], columns: ["orders.region"], measures: [], filters: [] }),
        answer(data),
      ),
    );
    expect(e.message).toContain("16,385 columns");
  });

  it.each([
    ["not an object", null],
    ["an array", []],
    ["no data array", { annotation }],
    ["data not an array", { data: {} }],
    ["a row that is not an object", { data: [{}, "row"] }],
    ["a row that is null", { data: [null] }],
    ["a row that is an array", { data: [[1]] }],
  ])("an answer with %s is an invalid response", (_, bad) => {
    const e = errorOf(() => reportGrid(report(q), bad));
    expect(e.kind).toBe("invalid-response");
  });

  it("names the row that is not an object", () => {
    expect(errorOf(() => reportGrid(report(q), { data: [{}, {}, 3] })).message).toContain("data row 3");
  });

  it("a report whose query is not JSON, or that has no query, is a bad request that says so", () => {
    expect(errorOf(() => reportGrid({ jsonQuery: "{", pivotItems: null }, { data: [] })).message).toContain(
      "not valid JSON",
    );
    expect(errorOf(() => reportGrid({ jsonQuery: null, pivotItems: null }, { data: [] })).message).toContain(
      "no query",
    );
  });

  it("tolerates a missing or malformed annotation: titles are member names", () => {
    const grid = reportGrid(report(q), {
      data: [{ "orders.region": "x", "orders.count": "2" }],
      annotation: "?",
    });
    expect(grid.values).toEqual([
      ["orders.region", "orders.count"],
      ["x", 2],
    ]);
  });
});
