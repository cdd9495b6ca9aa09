/**
 * The pane's small pure helpers: safe links, and where a placement stands
 * in the workbook as it is now (disconnect rules 5-7: renamed sheets, recreated tabs).
 */
import { describe, expect, it } from "vitest";
import {
  groupBySheet,
  locatePlacement,
  placedReports,
  placementHostLabel,
} from "../../src/core/placement-view.js";
import { safeUrl } from "../../taskpane/markdown.js";
import { demoReports, SHEETS, WORKBOOK_ID } from "../support/fakeHost.js";

describe("safe links", () => {
  it("keeps http, https and mailto only", () => {
    expect(safeUrl("https://example.com/a")).toBe("https://example.com/a");
    expect(safeUrl("http://example.com")).toBe("http://example.com");
    expect(safeUrl("mailto:ann@example.com")).toBe("mailto:ann@example.com");
    expect(safeUrl("javascript:alert(1)")).toBeUndefined();
    expect(safeUrl(" JavaScript:alert(1)")).toBeUndefined();
    expect(safeUrl("data:text/html,<b>x</b>")).toBeUndefined();
    expect(safeUrl("vbscript:x")).toBeUndefined();
    expect(safeUrl("/relative")).toBeUndefined();
  });
});

describe("placements by sheet", () => {
  const here = placedReports(demoReports()).filter((p) => p.workbookId === WORKBOOK_ID);

  it("shows a renamed sheet's placements under its current name (the sheet id matches)", () => {
    const p = here.find((x) => x.id === "p-rev-regions")!;
    expect(locatePlacement(p, SHEETS)).toEqual({
      sheetName: "Regions",
      sheetId: "sheet-regions",
      note: { kind: "renamed", from: "Regional" },
    });
  });

  it("notes a tab recreated under the same name (the stored id is gone, the name is there)", () => {
    const p = here.find((x) => x.report.id === 102)!;
    expect(locatePlacement(p, SHEETS).note).toEqual({ kind: "recreated" });
  });

  it("notes a sheet that is gone, and matches a placement without a sheet id by name", () => {
    const gone = { ...here[0]!, sheetId: "nope", sheetName: "Old", resultLocation: "Old!A1" };
    expect(locatePlacement(gone, SHEETS)).toMatchObject({ sheetName: "Old", note: { kind: "missing" } });
    const byName = { ...here[0]!, sheetId: null };
    expect(locatePlacement(byName, SHEETS)).toMatchObject({ sheetName: "Sales", note: null });
  });

  it("orders groups as the workbook orders its sheets, placements top to bottom", () => {
    const groups = groupBySheet(here, SHEETS);
    expect(groups.map((g) => g.sheetName)).toEqual(["Sales", "Regions", "Pipeline"]);
    expect(groups[0]!.placements.map((i) => i.placement.anchorCell)).toEqual(["B2", "H2"]);
  });

  it("names hosts for people", () => {
    expect(placementHostLabel("EXCEL")).toBe("Excel");
    expect(placementHostLabel("GOOGLE_SHEETS")).toBe("Google Sheets");
    expect(placementHostLabel(null)).toBeNull();
  });
});
