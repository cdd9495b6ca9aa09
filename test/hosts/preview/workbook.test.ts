/**
 * The preview's simulated workbook: built from the sandbox's one demo definition, sheet ids kept
 * apart from names (rename keeps the id, delete-and-recreate gives a new one: disconnect rules 5-7),
 * placements shaded on the sheet whose id they store, else by the name they store.
 */
import { describe, expect, it } from "vitest";
import { parseCell } from "../../../src/core/location.js";
import type { Report, ReportPlacement } from "../../../src/core/schema.js";
import {
  type PreviewSheet,
  PreviewWorkbook,
  rangesOnRow,
  type ShadedRange,
  shadedRanges,
  shadeOf,
} from "../../../src/hosts/preview/workbook.js";
import { demoSeed } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK, OTHER_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";

const SUMMARY = DEMO_WORKBOOK.sheets[0];
const Q1 = DEMO_WORKBOOK.sheets[1];
const REGIONS = DEMO_WORKBOOK.sheets[2];
const PIPELINE = DEMO_WORKBOOK.sheets[3];
const NOTES = DEMO_WORKBOOK.sheets[4];

function demoWorkbook(): PreviewWorkbook {
  const reports = demoSeed().reports;
  return new PreviewWorkbook(DEMO_WORKBOOK, reports);
}

function sheetNamed(wb: PreviewWorkbook, name: string): PreviewSheet {
  const sheet = wb.getSnapshot().sheets.find((s) => s.name === name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  return sheet;
}

/** The report names shaded on a sheet, sorted. */
function shadedNames(wb: PreviewWorkbook, sheetId: string): string[] {
  return shadedRanges(wb.getSnapshot(), sheetId)
    .map((r) => r.reportName)
    .sort();
}

function shadedAt(wb: PreviewWorkbook, sheetId: string, cell: string): ShadedRange | undefined {
  const { col, row } = parseCell(cell)!;
  return shadeOf(rangesOnRow(shadedRanges(wb.getSnapshot(), sheetId), row), col);
}

const WB_ID = "wb-test";
const SHEETS: PreviewSheet[] = [
  { id: "s-1", name: "Sales" },
  { id: "s-2", name: "Costs" },
];

function report(id: number, name: string, placements: ReportPlacement[]): Report {
  const owner = { id: 1, email: "ann@example.com", firstName: "Ann", picture: null };
  return {
    id,
    publicId: `Rep${String(id).padStart(9, "0")}`,
    deploymentId: 1,
    userId: 1,
    user: owner,
    name,
    refreshedByUser: owner,
    createdAt: "2024-01-01",
    updatedAt: "2024-01-02",
    type: "REPORT",
    externalWorkbookPlacements: placements,
  };
}

function placed(sheetName: string, range: string, extra: Partial<ReportPlacement> = {}): ReportPlacement {
  const [anchor, end] = range.split(":") as [string, string | undefined];
  return {
    workbookId: WB_ID,
    resultLocation: `'${sheetName}'!${anchor}`,
    endResultCell: end ?? null,
    sheetName,
    anchorCell: anchor,
    ...extra,
  };
}

function smallWorkbook(reports: Report[] = []): PreviewWorkbook {
  return new PreviewWorkbook({ id: WB_ID, name: "Small.xlsx", sheets: SHEETS }, reports);
}

describe("PreviewWorkbook built from DEMO_WORKBOOK", () => {
  it("has the definition's workbook id, name, and sheets with their current names and ids, in order", () => {
    const s = demoWorkbook().getSnapshot();
    expect(s.workbookId).toBe(DEMO_WORKBOOK.id);
    expect(s.workbookName).toBe(DEMO_WORKBOOK.name);
    expect(s.sheets).toEqual(DEMO_WORKBOOK.sheets.map((x) => ({ id: x.id, name: x.name })));
    // The renamed sheet carries its current name, not the one its placements store.
    expect(s.sheets.map((x) => x.name)).toContain("Regions");
    expect(s.sheets.map((x) => x.name)).not.toContain(REGIONS.placedAs);
    // The recreated sheet carries its new id, not the one its placements store.
    expect(s.sheets.map((x) => x.id)).toContain(PIPELINE.id);
    expect(s.sheets.map((x) => x.id)).not.toContain(PIPELINE.recreated.previousId);
  });

  it("opens on the first sheet at A1, light theme, no status", () => {
    const wb = demoWorkbook();
    const s = wb.getSnapshot();
    expect(s.activeSheetId).toBe(SUMMARY.id);
    expect(wb.activeSheet()).toEqual({ id: SUMMARY.id, name: SUMMARY.name });
    expect(s.activeCell).toBe("A1");
    expect(s.selection).toEqual({ top: 1, bottom: 1, left: 1, right: 1 });
    expect(s.theme).toBe("light");
    expect(s.status).toBeNull();
  });

  it("shades every demo placement of this workbook on a sheet, and none of the other workbook's", () => {
    const wb = demoWorkbook();
    expect(shadedNames(wb, SUMMARY.id)).toEqual(
      // "Churn Watchlist" has only the older top-level fields (Summary!B28:E40).
      [
        "Churn Watchlist",
        "Monthly Active Customers",
        "Refund Requests",
        "Revenue by Region",
        "Top 10 Products",
      ].sort(),
    );
    // Placed by name only (no sheet id) and by `resultLocation` only.
    expect(shadedNames(wb, Q1.id)).toEqual(
      ["Q1 Sales by Channel", "Q1 Sales by Rep", "Revenue by Region"].sort(),
    );
    // Stored under the old name "Regional" with the sheet's id: found by id.
    expect(shadedNames(wb, REGIONS.id)).toEqual(["Regional Margin", "Revenue by Country"]);
    // Stored with the old sheet id: found by name, and flagged as stale.
    expect(shadedNames(wb, PIPELINE.id)).toEqual(["Open Pipeline", "Win Rate by Stage"]);
    expect(shadedRanges(wb.getSnapshot(), PIPELINE.id).every((r) => r.staleSheetId)).toBe(true);
    expect(shadedRanges(wb.getSnapshot(), REGIONS.id).some((r) => r.staleSheetId)).toBe(false);
    expect(shadedNames(wb, NOTES.id)).toEqual(["Warehouse Stock"]);

    // "Revenue by Region" is also placed in OTHER_WORKBOOK on "KPIs" A1:E7: not drawn here.
    const all = DEMO_WORKBOOK.sheets.flatMap((s) => shadedRanges(wb.getSnapshot(), s.id));
    const revenue = all.filter((r) => r.reportName === "Revenue by Region");
    expect(revenue).toHaveLength(2);
    expect(OTHER_WORKBOOK.sheets.some((s) => shadedRanges(wb.getSnapshot(), s.id).length > 0)).toBe(false);
  });

  it("holds the values the demo reports wrote, on the sheet each placement is drawn on", () => {
    const s = demoWorkbook().getSnapshot();
    // "Revenue by Region" at Summary!B2:F8: its name in the header's first cell.
    expect(s.values.get(SUMMARY.id)?.get("B2")).toBe("Revenue by Region");
    // "Open Pipeline" at Pipeline!A1:F20, stored with the old sheet id: written on the sheet found by name.
    expect(s.values.get(PIPELINE.id)?.get("A1")).toBe("Open Pipeline");
    expect(s.values.has(PIPELINE.recreated.previousId)).toBe(false);
    // Nothing was placed on Notes in deployment 1, but deployment 2's "Warehouse Stock" is.
    expect(s.values.get(NOTES.id)?.get("B2")).toBe("Warehouse Stock");
    // The numbers under the header: whole numbers written as en-US writes them ("1,234").
    const numbers = [...(s.values.get(SUMMARY.id) ?? new Map()).entries()].filter(([cell]) =>
      /^[C-F][3-8]$/.test(cell),
    );
    expect(numbers.length).toBeGreaterThan(0);
    for (const [, text] of numbers) {
      expect(text).toBe(Number(text.replaceAll(",", "")).toLocaleString("en-US"));
    }
  });
});

describe("renameSheet", () => {
  it("keeps the sheet id, changes the name, and keeps its placements and cells", () => {
    const wb = demoWorkbook();
    const before = shadedRanges(wb.getSnapshot(), REGIONS.id).map((r) => r.key);
    const cells = wb.getSnapshot().values.get(REGIONS.id);
    expect(wb.renameSheet(REGIONS.id, "  Territories ")).toBeNull();

    const s = wb.getSnapshot();
    expect(s.sheets.find((x) => x.id === REGIONS.id)?.name).toBe("Territories");
    expect(s.sheets.map((x) => x.id)).toEqual(DEMO_WORKBOOK.sheets.map((x) => x.id));
    expect(s.sheets.some((x) => x.name === "Regions")).toBe(false);
    expect(shadedRanges(s, REGIONS.id).map((r) => r.key)).toEqual(before);
    expect(s.values.get(REGIONS.id)).toBe(cells);
    expect(s.status?.text).toContain(REGIONS.id);
  });

  it("refuses a name Excel refuses, and changes nothing", () => {
    const wb = demoWorkbook();
    const sheets = wb.getSnapshot().sheets;
    for (const bad of ["", "   ", "a".repeat(32), "Q1/Q2", "x[1]", "'quoted'", "summary", "Notes"]) {
      expect(wb.renameSheet(REGIONS.id, bad), bad).toMatch(/./);
    }
    expect(wb.getSnapshot().sheets).toEqual(sheets);
    expect(wb.renameSheet("no-such-id", "Fine")).toMatch(/no longer exists/);
  });

  it("accepts a change of case of its own name and the same name unchanged", () => {
    const wb = demoWorkbook();
    expect(wb.renameSheet(NOTES.id, "Notes")).toBeNull();
    expect(wb.renameSheet(NOTES.id, "NOTES")).toBeNull();
    expect(sheetNamed(wb, "NOTES").id).toBe(NOTES.id);
  });

  it("placements stored by name only stay on the old name: renaming their sheet unshades them", () => {
    const wb = smallWorkbook([
      report(1, "By id", [placed("Sales", "B2:C3", { sheetId: "s-1" })]),
      report(2, "By name", [placed("Sales", "E2:F3")]),
    ]);
    expect(shadedNames(wb, "s-1")).toEqual(["By id", "By name"]);
    wb.renameSheet("s-1", "Revenue");
    expect(shadedNames(wb, "s-1")).toEqual(["By id"]);
  });
});

describe("recreateSheet (delete the tab, add one under the same name)", () => {
  it("gives a new id under the same name in the same place, with empty cells", () => {
    const wb = demoWorkbook();
    expect(wb.getSnapshot().values.get(SUMMARY.id)?.size).toBeGreaterThan(0);
    const fresh = wb.recreateSheet(SUMMARY.id);

    expect(fresh).not.toBeNull();
    expect(fresh!.name).toBe("Summary");
    expect(fresh!.id).not.toBe(SUMMARY.id);
    expect(fresh!.id).toMatch(/^\{[0-9A-F-]{36}\}$/);
    const s = wb.getSnapshot();
    expect(s.sheets[0]).toEqual(fresh);
    expect(s.sheets.some((x) => x.id === SUMMARY.id)).toBe(false);
    expect(s.sheets).toHaveLength(DEMO_WORKBOOK.sheets.length);
    expect(s.values.get(fresh!.id)).toBeUndefined();
    expect(s.values.get(SUMMARY.id)).toBeUndefined();
    expect(s.status?.text).toContain(fresh!.id);
  });

  it("gives a different id each time", () => {
    const wb = demoWorkbook();
    const a = wb.recreateSheet(NOTES.id)!;
    const b = wb.recreateSheet(a.id)!;
    expect(new Set([NOTES.id, a.id, b.id]).size).toBe(3);
    expect(b.name).toBe("Notes");
  });

  it("placements that stored the old id are still drawn on it, by name, flagged stale", () => {
    const wb = demoWorkbook();
    const fresh = wb.recreateSheet(SUMMARY.id)!;
    const shaded = shadedRanges(wb.getSnapshot(), fresh.id);
    expect(shaded.map((r) => r.reportName)).toContain("Revenue by Region");
    const revenue = shaded.find((r) => r.reportName === "Revenue by Region")!;
    expect(revenue.staleSheetId).toBe(true);
    // "Monthly Active Customers" at B12:D25 still covers C20.
    expect(shadedAt(wb, fresh.id, "C20")?.reportName).toBe("Monthly Active Customers");
  });

  it("moves the active sheet to the new id at A1 when the active tab is recreated", () => {
    const wb = demoWorkbook();
    wb.selectRange({ sheetId: NOTES.id, sheetName: "Notes", range: "C3:D4" });
    const fresh = wb.recreateSheet(NOTES.id)!;
    const s = wb.getSnapshot();
    expect(s.activeSheetId).toBe(fresh.id);
    expect(s.activeCell).toBe("A1");
    expect(s.selection).toEqual({ top: 1, bottom: 1, left: 1, right: 1 });
  });

  it("leaves the active sheet and selection alone when another tab is recreated", () => {
    const wb = demoWorkbook();
    wb.selectRange({ sheetId: Q1.id, sheetName: "Q1 Sales", range: "C3" });
    wb.recreateSheet(NOTES.id);
    expect(wb.getSnapshot().activeSheetId).toBe(Q1.id);
    expect(wb.getSnapshot().activeCell).toBe("C3");
  });

  it("returns null for an unknown id", () => {
    const wb = demoWorkbook();
    const before = wb.getSnapshot();
    expect(wb.recreateSheet("nope")).toBeNull();
    expect(wb.getSnapshot()).toBe(before);
  });
});

describe("shadedRanges: which sheet a placement is drawn on", () => {
  it("the sheet whose id it stores wins over the name it stores", () => {
    const wb = smallWorkbook([report(1, "Moved", [placed("Sales", "B2:C3", { sheetId: "s-2" })])]);
    expect(shadedNames(wb, "s-2")).toEqual(["Moved"]);
    expect(shadedNames(wb, "s-1")).toEqual([]);
    expect(shadedRanges(wb.getSnapshot(), "s-2")[0]).toMatchObject({
      range: { top: 2, bottom: 3, left: 2, right: 3 },
      staleSheetId: false,
    });
  });

  it("an id this workbook does not have falls back to the stored name; neither known: not drawn", () => {
    const wb = smallWorkbook([
      report(1, "Stale id", [placed("Costs", "A1:B2", { sheetId: "gone" })]),
      report(2, "Nowhere", [placed("Deleted", "A1:B2", { sheetId: "gone" })]),
      report(3, "Nowhere by name", [placed("Deleted", "D1")]),
    ]);
    expect(shadedRanges(wb.getSnapshot(), "s-2")).toEqual([
      expect.objectContaining({ reportName: "Stale id", staleSheetId: true }),
    ]);
    expect(shadedNames(wb, "s-1")).toEqual([]);
  });

  it("placements of other workbooks are not drawn, even on a sheet of the same name and id", () => {
    const wb = smallWorkbook([
      report(1, "Elsewhere", [placed("Sales", "A1:B2", { sheetId: "s-1", workbookId: "other" })]),
    ]);
    expect(shadedNames(wb, "s-1")).toEqual([]);
  });

  it("a report placed twice on one sheet gives two ranges with distinct keys; the grid's shading finds each", () => {
    const wb = smallWorkbook([
      report(1, "Twice", [
        placed("Sales", "A1:B2", { id: "p1", sheetId: "s-1" }),
        placed("Sales", "E5:F9", { id: "p2", sheetId: "s-1" }),
      ]),
    ]);
    const ranges = shadedRanges(wb.getSnapshot(), "s-1");
    expect(ranges).toHaveLength(2);
    expect(new Set(ranges.map((r) => r.key)).size).toBe(2);
    expect(shadedAt(wb, "s-1", "F9")?.key).toBe(ranges[1]!.key);
    expect(shadedAt(wb, "s-1", "B2")?.key).toBe(ranges[0]!.key);
    expect(shadedAt(wb, "s-1", "C3")).toBeUndefined();
  });

  it("setReports replaces what is shaded; replaceReport swaps one report (same id and deployment) or adds it", () => {
    const wb = smallWorkbook([report(1, "Old", [placed("Sales", "A1", { sheetId: "s-1" })])]);
    wb.setReports([report(2, "New", [placed("Costs", "A1", { sheetId: "s-2" })])]);
    expect(shadedNames(wb, "s-1")).toEqual([]);
    expect(shadedNames(wb, "s-2")).toEqual(["New"]);

    // A disconnect returned report 2 without its placement.
    wb.replaceReport(report(2, "New", []));
    expect(shadedNames(wb, "s-2")).toEqual([]);
    expect(wb.getSnapshot().reports).toHaveLength(1);
    // Same id in another deployment is another report.
    wb.replaceReport({ ...report(2, "Other deployment", []), deploymentId: 2 });
    expect(wb.getSnapshot().reports).toHaveLength(2);
  });
});

describe("selection", () => {
  it("selectRange activates the sheet by id and selects the range, active cell at its first cell", () => {
    const wb = demoWorkbook();
    // The id wins over a stale name (the renamed sheet's placement stores "Regional").
    wb.selectRange({ sheetId: REGIONS.id, sheetName: "Regional", range: "B2:G30" });
    const s = wb.getSnapshot();
    expect(s.activeSheetId).toBe(REGIONS.id);
    expect(s.activeCell).toBe("B2");
    expect(s.selection).toEqual({ top: 2, bottom: 30, left: 2, right: 7 });
  });

  it("selectRange prefers the id when another sheet has since taken the stored name", () => {
    const wb = demoWorkbook();
    wb.renameSheet(REGIONS.id, "Territories");
    wb.renameSheet(NOTES.id, "Regions");
    wb.selectRange({ sheetId: REGIONS.id, sheetName: "Regions", range: "B2" });
    expect(wb.getSnapshot().activeSheetId).toBe(REGIONS.id);
    expect(wb.findSheet(null, "Regions")?.id).toBe(NOTES.id);
  });

  it("selectRange falls back to the name when the id is unknown or absent", () => {
    const wb = demoWorkbook();
    wb.selectRange({ sheetId: PIPELINE.recreated.previousId, sheetName: "Pipeline", range: "H1:K8" });
    expect(wb.getSnapshot().activeSheetId).toBe(PIPELINE.id);
    expect(wb.getSnapshot().selection).toEqual({ top: 1, bottom: 8, left: 8, right: 11 });

    wb.selectRange({ sheetId: null, sheetName: "Q1 Sales", range: "$G$2" });
    expect(wb.getSnapshot().activeSheetId).toBe(Q1.id);
    expect(wb.getSnapshot().activeCell).toBe("G2");
    expect(wb.getSnapshot().selection).toEqual({ top: 2, bottom: 2, left: 7, right: 7 });
  });

  it("selectRange accepts a sheet-qualified range and throws for an unknown sheet or a non-range", () => {
    const wb = demoWorkbook();
    wb.selectRange({ sheetId: NOTES.id, sheetName: "Notes", range: "Notes!B2:D9" });
    expect(wb.getSnapshot().activeCell).toBe("B2");
    expect(() => wb.selectRange({ sheetId: null, sheetName: "Regional", range: "B2" })).toThrow(/Regional/);
    expect(() => wb.selectRange({ sheetId: NOTES.id, sheetName: "Notes", range: "not a range" })).toThrow();
    // A failed selectRange leaves the selection where it was.
    expect(wb.getSnapshot().activeSheetId).toBe(NOTES.id);
    expect(wb.getSnapshot().activeCell).toBe("B2");
  });

  it("each sheet remembers its own selection when switching tabs", () => {
    const wb = demoWorkbook();
    wb.selectCell({ col: 3, row: 4 });
    wb.activateSheet(Q1.id);
    expect(wb.getSnapshot().activeCell).toBe("A1");
    wb.selectCell({ col: 5, row: 6 });
    wb.activateSheet(SUMMARY.id);
    expect(wb.getSnapshot().activeCell).toBe("C4");
    wb.activateSheet("unknown");
    expect(wb.getSnapshot().activeSheetId).toBe(SUMMARY.id);
  });

  it("Shift-Arrow extends the range and keeps the active cell where it started, as Excel does", () => {
    const wb = demoWorkbook();
    wb.selectCell({ col: 2, row: 2 });
    wb.moveBy(2, 3, true);
    expect(wb.getSnapshot().activeCell).toBe("B2");
    expect(wb.getSnapshot().selection).toEqual({ top: 2, bottom: 4, left: 2, right: 5 });
    // The far corner moves on; back past the active cell the range turns around it.
    wb.moveBy(-3, 0, true);
    expect(wb.getSnapshot().activeCell).toBe("B2");
    expect(wb.getSnapshot().selection).toEqual({ top: 1, bottom: 2, left: 2, right: 5 });
    // A plain arrow moves from the active cell and drops the range; moving stays inside the grid.
    wb.moveBy(1, 0);
    expect(wb.getSnapshot().activeCell).toBe("B3");
    expect(wb.getSnapshot().selection).toEqual({ top: 3, bottom: 3, left: 2, right: 2 });
    wb.moveBy(-100, -100);
    expect(wb.getSnapshot().activeCell).toBe("A1");
  });

  it("Shift-click selects from the active cell to the clicked one; the active cell stays", () => {
    const wb = demoWorkbook();
    wb.selectCell({ col: 3, row: 4 });
    wb.selectCell({ col: 9, row: 5 }, true);
    expect(wb.getSnapshot().activeCell).toBe("C4");
    expect(wb.getSnapshot().selection).toEqual({ top: 4, bottom: 5, left: 3, right: 9 });
    // A second Shift-click spans from the same active cell, not from the first click's end.
    wb.selectCell({ col: 1, row: 1 }, true);
    expect(wb.getSnapshot().activeCell).toBe("C4");
    expect(wb.getSnapshot().selection).toEqual({ top: 1, bottom: 4, left: 1, right: 3 });
    // Shift-Arrow then moves the far corner of that range.
    wb.moveBy(0, 1, true);
    expect(wb.getSnapshot().selection).toEqual({ top: 1, bottom: 4, left: 2, right: 3 });
    expect(wb.getSnapshot().activeCell).toBe("C4");
  });

  it("notifies subscribers on each change until they unsubscribe", () => {
    const wb = demoWorkbook();
    let calls = 0;
    const off = wb.subscribe(() => calls++);
    wb.selectCell({ col: 2, row: 2 });
    wb.renameSheet(NOTES.id, "Memo");
    expect(calls).toBe(2);
    off();
    wb.selectCell({ col: 3, row: 3 });
    expect(calls).toBe(2);
  });
});
