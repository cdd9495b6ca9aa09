/**
 * Refresh in Excel: the core's refresh flow over the Excel host's cell writer
 * (src/hosts/excel/cells.ts) and a workbook held to Office.js's rules (test/support/excel-cells.ts):
 * the 5 MB request limit, one sync per block, numbers as numbers, dates as serials with a date
 * format, a bold header, the old extent cleared, the overwrite question, a write that fails half way.
 */
import { describe, expect, it } from "vitest";
import {
  type LoadAnswer,
  placedReports,
  planRefresh,
  type RefreshInput,
  type RefreshItem,
  type RefreshRunner,
  type Report,
  runRefresh,
} from "../../../src/core/index.js";
import { createExcelCells } from "../../../src/hosts/excel/cells.js";
import { fullReport, placement } from "../../core/fixtures.js";
import { createCellsWorkbook, EXCEL_PAYLOAD_LIMIT_BYTES } from "../../support/excel-cells.js";

const SHEET = { id: "{S1}", name: "Sales" };

const QUERY = {
  dimensions: ["orders.region"],
  timeDimensions: [{ dimension: "orders.created_at", granularity: "day" }],
  measures: ["orders.m1", "orders.m2", "orders.m3", "orders.m4", "orders.m5", "orders.m6"],
  limit: 50_000,
};

function answer(rows: number): LoadAnswer {
  const measures = Object.fromEntries(
    QUERY.measures.map((m, i) => [m, { title: `Measure ${i + 1}`, shortTitle: `M${i + 1}`, type: "number" }]),
  );
  return {
    query: QUERY,
    data: Array.from({ length: rows }, (_, i) => {
      const row: Record<string, string> = {
        // Long enough that the whole result (about 6.5 MB) cannot go in one sync.
        "orders.region": `Region ${i % 7}: wholesale, retail and online channels`,
        "orders.created_at.day": `2024-0${1 + (i % 9)}-1${i % 10}T00:00:00.000`,
        "orders.created_at": `2024-0${1 + (i % 9)}-1${i % 10}T00:00:00.000`,
      };
      for (const m of QUERY.measures) row[m] = `${(i * 7919) % 100_003}.25`;
      return row;
    }),
    annotation: {
      measures,
      dimensions: { "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" } },
      segments: {},
      timeDimensions: {
        "orders.created_at.day": { title: "Orders Created at", shortTitle: "Created at", type: "time" },
      },
    },
    lastRefreshTime: null,
    total: rows,
  };
}

function setup(rows: number, stored = { anchor: "B2", end: "I8" }) {
  const workbook = createCellsWorkbook([SHEET, { id: "{S2}", name: "Other" }]);
  const report = fullReport({
    id: 7,
    name: "Order lines",
    jsonQuery: JSON.stringify(QUERY),
    pivotItems: null,
    externalWorkbookPlacements: [
      placement({
        id: "p7",
        sheetId: SHEET.id,
        sheetName: SHEET.name,
        anchorCell: stored.anchor,
        endResultCell: stored.end,
      }),
    ],
  });
  const plan = planRefresh(placedReports([report]), { kind: "all" }, [SHEET]);
  const cells = createExcelCells(workbook.Excel as never);
  const records: RefreshInput[] = [];
  const questions: string[] = [];
  let overwrite = true;
  const runner: RefreshRunner = {
    load: async () => answer(rows),
    read: (r) => cells.read(r),
    write: (b) => cells.write(b),
    record: async (_item: RefreshItem, input: RefreshInput) => {
      records.push(input);
      return report as Report;
    },
    confirmOverwrite: async (_item, question) => {
      questions.push(question);
      return overwrite;
    },
  };
  return {
    workbook,
    plan,
    runner,
    records,
    questions,
    decline() {
      overwrite = false;
    },
  };
}

describe("refresh in Excel", () => {
  it("writes 50,000 x 8 in several syncs, each within Excel on the web's 5 MB, and records it", async () => {
    const s = setup(50_000);
    const [outcome] = await runRefresh(s.plan.items, s.runner);
    expect(outcome?.status).toBe("refreshed");
    expect(s.workbook.failedSyncs).toEqual([]);
    const writes = s.workbook.syncPayloads.filter((b) => b > 10_000);
    expect(writes.length).toBeGreaterThan(1);
    for (const bytes of s.workbook.syncPayloads) expect(bytes).toBeLessThanOrEqual(EXCEL_PAYLOAD_LIMIT_BYTES);
    // Header bold, numbers as numbers, dates as serials with their format, the last row in place.
    expect(s.workbook.value(SHEET.id, "B2")).toBe("Orders Region");
    expect(s.workbook.bold(SHEET.id, "B2")).toBe(true);
    expect(s.workbook.bold(SHEET.id, "B3")).toBe(false);
    expect(s.workbook.value(SHEET.id, "D3")).toBe(0.25);
    expect(typeof s.workbook.value(SHEET.id, "C3")).toBe("number");
    expect(s.workbook.numberFormat(SHEET.id, "C3")).toBe("yyyy-mm-dd");
    expect(s.workbook.value(SHEET.id, "B50002")).toBe(
      `Region ${49_999 % 7}: wholesale, retail and online channels`,
    );
    expect(s.records).toHaveLength(1);
    expect(s.records[0]?.placementId).toBe("p7");
    expect(s.records[0]?.endResultCell).toBe("I50002");
    expect(s.records[0]?.resultChecksum?.chunks.length).toBeLessThanOrEqual(2_000);
  });

  it("the workbook holds Excel to its limit: the same result as one block is refused, and nothing of it lands", async () => {
    const s = setup(50_000);
    const [outcome] = await runRefresh(s.plan.items, s.runner, {
      limits: { maxBlockBytes: 100 * 1024 * 1024, maxReadCells: 200_000 },
    });
    expect(outcome?.status).toBe("not-refreshed");
    expect(s.workbook.failedSyncs).toContain("RequestPayloadSizeLimitExceeded");
    expect(s.workbook.value(SHEET.id, "B2")).toBeUndefined();
    expect(s.records).toEqual([]);
  });

  it("clears the cells of the old extent the new result no longer covers", async () => {
    const s = setup(3, { anchor: "B2", end: "K9" });
    s.workbook.type(SHEET.id, "J2", [["old", "old"]]);
    s.workbook.type(SHEET.id, "B9", [["old"]]);
    const [outcome] = await runRefresh(s.plan.items, s.runner);
    expect(outcome?.status).toBe("refreshed");
    expect(s.workbook.value(SHEET.id, "J2")).toBeUndefined();
    expect(s.workbook.value(SHEET.id, "B9")).toBeUndefined();
    expect(s.records[0]?.endResultCell).toBe("I5");
  });

  it("asks before overwriting cells that are not the placement's, and writes nothing when told no", async () => {
    const s = setup(20, { anchor: "B2", end: "I8" });
    s.workbook.type(SHEET.id, "C15", [["mine"]]);
    s.decline();
    const [outcome] = await runRefresh(s.plan.items, s.runner);
    expect(s.questions).toHaveLength(1);
    expect(s.questions[0]).toContain("C15 is not empty");
    expect(s.questions[0]).toContain("Sales!B9:I22");
    expect(outcome?.status).toBe("not-refreshed");
    expect(outcome?.status === "not-refreshed" && outcome.reason).toBe("would-overwrite");
    expect(s.workbook.value(SHEET.id, "C15")).toBe("mine");
    expect(s.workbook.value(SHEET.id, "B2")).toBeUndefined();
    expect(s.records).toHaveLength(0);
  });

  it("a write that fails half way records nothing and says which rows are already new", async () => {
    const s = setup(50_000);
    s.workbook.failWritesAfter(1);
    const [outcome] = await runRefresh(s.plan.items, s.runner);
    expect(outcome?.status).toBe("not-refreshed");
    if (outcome?.status !== "not-refreshed") return;
    expect(outcome.reason).toBe("write-failed");
    expect(outcome.newRows?.from).toBe(2);
    expect(outcome.message).toMatch(/Rows 2-\d+ already hold the new result/);
    expect(outcome.message).toContain("Nothing was recorded");
    expect(s.records).toHaveLength(0);
  });

  it("Stop while the data loads leaves the placement as it was", async () => {
    const s = setup(10);
    const controller = new AbortController();
    s.runner.load = async () => {
      controller.abort();
      throw Object.assign(new Error("Stopped."), { name: "PlatformError" });
    };
    const [outcome] = await runRefresh(s.plan.items, s.runner, { signal: controller.signal });
    expect(outcome?.status).toBe("not-refreshed");
    expect(s.workbook.syncPayloads).toEqual([]);
    expect(s.records).toEqual([]);
  });
});
