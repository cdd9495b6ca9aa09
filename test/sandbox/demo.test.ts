/** The demo data: valid, consistent with DEMO_WORKBOOK, and showing every case docs/sandbox.md promises. */
import { describe, expect, it } from "vitest";
import { placementRange, placementSheetName, placementsOf } from "../../src/core/placements.js";
import type { ReportPlacement } from "../../src/core/schema.js";
import { DEMO_AGENTS, DEMO_API_KEY, DEMO_SCOPED_KEY, demoSeed } from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK, OTHER_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { parseSeed } from "../../src/sandbox/seed.js";

const seed = demoSeed();
const all = seed.reports.flatMap((r) => placementsOf(r).map((p) => ({ report: r, p })));
/** Placements stored in `externalWorkbookPlacements` (the older top-level form has no status or dates). */
const stored = seed.reports.flatMap((r) =>
  (r.externalWorkbookPlacements ?? []).map((p) => ({ report: r, p })),
);
const inDemo = all.filter((x) => x.p.workbookId === DEMO_WORKBOOK.id);

/** The demo sheet a placement stands on: by its stored sheet id (current or pre-recreation), else its stored name. */
function sheetOf(p: ReportPlacement) {
  const name = placementSheetName(p);
  return DEMO_WORKBOOK.sheets.find((s) =>
    p.sheetId
      ? s.id === p.sheetId || ("recreated" in s && s.recreated.previousId === p.sheetId)
      : s.name === name || ("placedAs" in s && s.placedAs === name),
  );
}

describe("demoSeed()", () => {
  it("is a valid seed (it round-trips through parseSeed and JSON)", () => {
    expect(parseSeed(JSON.parse(JSON.stringify(seed)))).toEqual(seed);
    expect(demoSeed()).toEqual(seed);
  });

  it("has two deployments, about a dozen reports, two agents, a scoped and an unscoped key, five or more users", () => {
    expect(seed.deployments).toHaveLength(2);
    expect(seed.reports.length).toBeGreaterThanOrEqual(12);
    expect(seed.agents.map((a) => a.deploymentId)).toEqual(DEMO_AGENTS.map((a) => a.deploymentId));
    expect(seed.apiKeys).toContainEqual({ key: DEMO_API_KEY, deployments: "all" });
    expect(seed.apiKeys).toContainEqual({ key: DEMO_SCOPED_KEY, deployments: [1] });
    expect(seed.users.length).toBeGreaterThanOrEqual(5);
  });

  it("places every demo-workbook placement on one of DEMO_WORKBOOK's sheets, without overlaps within a sheet", () => {
    const bySheet = new Map<string, ReportPlacement[]>();
    for (const { p } of inDemo) {
      const sheet = sheetOf(p);
      expect(sheet, p.resultLocation).toBeDefined();
      bySheet.set(sheet!.id, [...(bySheet.get(sheet!.id) ?? []), p]);
    }
    expect(bySheet.size).toBeGreaterThanOrEqual(4);
    for (const list of bySheet.values()) {
      for (const a of list) {
        for (const b of list) {
          if (a === b) continue;
          const ra = placementRange(a)!;
          const rb = placementRange(b)!;
          const overlap = !(
            ra.right < rb.left ||
            rb.right < ra.left ||
            ra.bottom < rb.top ||
            rb.bottom < ra.top
          );
          expect(overlap, `${a.resultLocation} / ${b.resultLocation}`).toBe(false);
        }
      }
    }
  });

  it("shows every case: one report twice in the workbook and once in another, older forms, every status, a renamed and a recreated sheet", () => {
    const twice = seed.reports.find(
      (r) =>
        placementsOf(r).filter((p) => p.workbookId === DEMO_WORKBOOK.id).length === 2 &&
        placementsOf(r).some((p) => p.workbookId === OTHER_WORKBOOK.id),
    );
    expect(twice).toBeDefined();
    expect(inDemo.some(({ p }) => !p.id && !p.sheetId && p.sheetName)).toBe(true);
    expect(inDemo.some(({ p }) => !p.id && !p.sheetId && !p.sheetName)).toBe(true);
    expect(
      seed.reports.some(
        (r) => r.externalWorkbookPlacements == null && r.externalWorkbookId === DEMO_WORKBOOK.id,
      ),
    ).toBe(true);
    expect(new Set(stored.map(({ p }) => p.syncStatus))).toEqual(
      new Set(["UP_TO_DATE", "CHANGED", "UNKNOWN"]),
    );
    const renamed = DEMO_WORKBOOK.sheets.find((s) => "placedAs" in s)!;
    const onRenamed = inDemo.filter(({ p }) => p.sheetId === renamed.id);
    expect(onRenamed.length).toBeGreaterThan(0);
    expect(onRenamed.every(({ p }) => "placedAs" in renamed && p.sheetName === renamed.placedAs)).toBe(true);
    const recreated = DEMO_WORKBOOK.sheets.find((s) => "recreated" in s)!;
    expect(
      inDemo.some(({ p }) => "recreated" in recreated && p.sheetId === recreated.recreated.previousId),
    ).toBe(true);
  });

  it("keeps checksums consistent with the sync status", () => {
    for (const { report, p } of stored) {
      if (p.syncStatus === "UP_TO_DATE") expect(p.queryChecksum).toBe(report.currentQueryChecksum);
      if (p.syncStatus === "CHANGED") expect(p.queryChecksum).not.toBe(report.currentQueryChecksum);
      if (p.syncStatus === "UNKNOWN") expect(p.queryChecksum ?? null).toBeNull();
    }
  });

  it("dates refreshes from minutes to months before the reference date", () => {
    const ages = stored.map(({ p }) => Date.parse("2024-10-15T09:00:00.000Z") - Date.parse(p.refreshedAt!));
    expect(Math.min(...ages)).toBeLessThan(60 * 60_000);
    expect(Math.max(...ages)).toBeGreaterThan(90 * 24 * 60 * 60_000);
  });
});
