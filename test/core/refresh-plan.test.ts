/**
 * The refresh plan (src/core/refresh-plan.ts): which placements a Refresh, Refresh report and Refresh
 * all take, in which order, which they cannot take and why; where a result lands, what it newly
 * covers and what it clears; the blocks a host writes; the record.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CellRange,
  firstFilledCell,
  formatRange,
  placedReports,
  planBlocks,
  planRefresh,
  rangesOutside,
  refreshRecord,
  reportKey,
  writeExtent,
} from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

const SHEETS = [
  { id: "s-summary", name: "Summary" },
  { id: "s-sales", name: "Sales" },
];

function workbook() {
  const a = fullReport({
    id: 1,
    name: "Revenue",
    externalWorkbookPlacements: [
      placement({
        id: "a-sales",
        sheetId: "s-sales",
        sheetName: "Sales",
        anchorCell: "B2",
        endResultCell: "F8",
      }),
      placement({
        id: "a-summary",
        sheetId: "s-summary",
        sheetName: "Summary",
        anchorCell: "H2",
        endResultCell: "J5",
      }),
    ],
  });
  const b = fullReport({
    id: 2,
    name: "Margin",
    externalWorkbookPlacements: [
      placement({
        id: "b-summary",
        sheetId: "s-summary",
        sheetName: "Summary",
        anchorCell: "A1",
        endResultCell: "C4",
      }),
      // On a sheet that is gone.
      placement({ id: "b-gone", sheetId: "s-old", sheetName: "Old", anchorCell: "A1", endResultCell: "B2" }),
      // Stored under the sheet's old name, with its id: renamed since, still refreshable there.
      placement({
        id: "b-renamed",
        sheetId: "s-sales",
        sheetName: "Sales 2023",
        anchorCell: "K1",
        endResultCell: "L3",
      }),
    ],
  });
  const c = fullReport({
    id: 3,
    name: "Pipeline",
    externalWorkbookPlacements: [
      // The tab "Summary" was deleted and added again: the stored id is the old one.
      placement({
        id: "c-recreated",
        sheetId: "s-summary-old",
        sheetName: "Summary",
        anchorCell: "M1",
        endResultCell: "N2",
      }),
      // No anchor the add-in can read.
      placement({
        id: "c-noanchor",
        sheetId: "s-sales",
        sheetName: "Sales",
        anchorCell: null,
        resultLocation: "Sales",
      }),
    ],
  });
  return placedReports([a, b, c]);
}

describe("planRefresh", () => {
  it("Refresh: exactly the one placement", () => {
    const plan = planRefresh(workbook(), { kind: "placement", key: "p:a-sales" }, SHEETS);
    expect(plan.items.map((i) => i.placement.id)).toEqual(["a-sales"]);
    expect(plan.items[0]?.previous).toEqual({ top: 2, left: 2, bottom: 8, right: 6 });
    expect(plan.notRefreshed).toEqual([]);
  });

  it("Refresh report: every placement of that report in the workbook, and the ones it cannot take with why", () => {
    const here = workbook();
    const plan = planRefresh(here, { kind: "report", reportKey: reportKey(here[2]!.report) }, SHEETS);
    expect(plan.items.map((i) => i.placement.id)).toEqual(["b-summary", "b-renamed"]);
    expect(plan.notRefreshed.map((n) => [n.placement.id, n.reason])).toEqual([["b-gone", "sheet-gone"]]);
    expect(plan.notRefreshed[0]?.message).toContain('"Old"');
  });

  it("Refresh all: sheet by sheet in workbook order, top to bottom then left to right", () => {
    const plan = planRefresh(workbook(), { kind: "all" }, SHEETS);
    expect(plan.items.map((i) => i.placement.id)).toEqual(["b-summary", "a-summary", "b-renamed", "a-sales"]);
    // A renamed tab is written under its name now.
    expect(plan.items.find((i) => i.placement.id === "b-renamed")?.sheet).toEqual({
      id: "s-sales",
      name: "Sales",
    });
  });

  it("never skips silently: a gone sheet, a recreated tab and an unreadable anchor each say why", () => {
    const plan = planRefresh(workbook(), { kind: "all" }, SHEETS);
    expect(plan.notRefreshed.map((n) => [n.placement.id, n.reason])).toEqual([
      ["b-gone", "sheet-gone"],
      ["c-recreated", "sheet-recreated"],
      ["c-noanchor", "no-anchor"],
    ]);
    for (const n of plan.notRefreshed) expect(n.message).toMatch(/^Not refreshed: /);
    expect(plan.items.length + plan.notRefreshed.length).toBe(workbook().length);
  });
});

describe("where a result lands", () => {
  const item = () => planRefresh(workbook(), { kind: "placement", key: "p:a-sales" }, SHEETS).items[0]!;

  it("the same size: nothing newly taken, nothing cleared", () => {
    const e = writeExtent(item(), 7, 5);
    expect(formatRange(e.range)).toBe("B2:F8");
    expect(e.taken).toEqual([]);
    expect(e.cleared).toEqual([]);
  });

  it("larger: the new rows and columns are taken (and must be empty); smaller: the rest is cleared", () => {
    const grown = writeExtent(item(), 9, 6);
    expect(grown.taken.map(formatRange)).toEqual(["B9:G10", "G2:G8"]);
    expect(grown.cleared).toEqual([]);
    const shrunk = writeExtent(item(), 3, 2);
    expect(shrunk.taken).toEqual([]);
    expect(shrunk.cleared.map(formatRange)).toEqual(["B5:F8", "D2:F4"]);
  });

  it("rangesOutside covers exactly a minus b, without overlap (property)", () => {
    const range = fc
      .tuple(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 6 }),
      )
      .map(([top, left, h, w]): CellRange => ({ top, left, bottom: top + h, right: left + w }));
    fc.assert(
      fc.property(range, range, (a, b) => {
        const parts = rangesOutside(a, b);
        const inside = (r: CellRange, row: number, col: number) =>
          row >= r.top && row <= r.bottom && col >= r.left && col <= r.right;
        for (let row = 1; row <= 20; row++) {
          for (let col = 1; col <= 20; col++) {
            const count = parts.filter((p) => inside(p, row, col)).length;
            const expected = inside(a, row, col) && !inside(b, row, col) ? 1 : 0;
            if (count !== expected) return false;
          }
        }
        return true;
      }),
    );
  });

  it('firstFilledCell names the first cell that is not empty (null, undefined and "" are empty)', () => {
    const range = { top: 9, left: 2, bottom: 10, right: 4 };
    expect(
      firstFilledCell(range, [
        ["", null, undefined],
        ["", "", ""],
      ]),
    ).toBeNull();
    expect(
      firstFilledCell(range, [
        ["", null, ""],
        ["", 0, ""],
      ]),
    ).toBe("C10");
    expect(firstFilledCell(range, [[false, "", ""]])).toBe("B9");
  });
});

describe("planBlocks", () => {
  const rows = (n: number, text: string) => Array.from({ length: n }, (_, i) => [i, text, 1.5, null]);

  it("keeps every block within the byte budget, in order, covering every row once", () => {
    const values = rows(10_000, "x".repeat(40));
    const blocks = planBlocks(values, 100_000);
    expect(blocks.length).toBeGreaterThan(1);
    expect(blocks[0]?.from).toBe(0);
    expect(blocks.at(-1)?.to).toBe(10_000);
    for (let i = 1; i < blocks.length; i++) expect(blocks[i]?.from).toBe(blocks[i - 1]?.to);
    for (const b of blocks) {
      const bytes = JSON.stringify(values.slice(b.from, b.to)).length;
      expect(bytes).toBeLessThanOrEqual(100_000);
    }
  });

  it("one block when it all fits; a row larger than the budget is a block of its own", () => {
    expect(planBlocks(rows(10, "a"), 1_000_000)).toEqual([{ from: 0, to: 10 }]);
    expect(planBlocks([["x".repeat(1_000)], ["y"]], 100)).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
    ]);
    expect(planBlocks([], 100)).toEqual([]);
  });
});

describe("refreshRecord", () => {
  const checksum = { v: 1, chunks: [{ from: 0, hash: "ab" }] };

  it("addresses a placement with an id by its id, with the checksum and the new last cell", () => {
    const item = planRefresh(workbook(), { kind: "placement", key: "p:a-sales" }, SHEETS).items[0]!;
    expect(refreshRecord(item, writeExtent(item, 9, 6).range, checksum)).toEqual({
      placementId: "a-sales",
      resultChecksum: checksum,
      endResultCell: "G10",
    });
  });

  it("addresses an older placement by its stored sheet name and anchor, narrowed by the sheet id it is on", () => {
    const old = placedReports([
      fullReport({
        externalWorkbookPlacements: [
          placement({
            id: null,
            sheetId: "s-sales",
            sheetName: "Sales",
            anchorCell: "B2",
            endResultCell: "C3",
          }),
        ],
      }),
    ]);
    const item = planRefresh(old, { kind: "all" }, SHEETS).items[0]!;
    expect(refreshRecord(item, writeExtent(item, 2, 2).range, checksum)).toEqual({
      externalWorkbookId: "wb-1",
      sheetName: "Sales",
      anchorCell: "B2",
      sheetId: "s-sales",
      resultChecksum: checksum,
      endResultCell: "C3",
    });
  });
});
