/**
 * The preview grid's shading, asked per row drawn (`rangesOnRow`) and then per cell (`shadeOf`)
 * rather than worked out for every cell of every placement: it must shade exactly as asking the
 * ranges cell by cell does, wherever the cell is (the grid is virtualised: a row far down a sheet is
 * drawn as the first is), and a move of the selection must leave the reports and sheets it is worked
 * out from unchanged, so the grid keeps them while the user clicks around.
 */
import { describe, expect, it } from "vitest";
import { type CellRange, type CellRef, formatCell, rangeContains } from "../../../src/core/location.js";
import {
  GRID_COLUMNS,
  GRID_ROWS,
  PreviewWorkbook,
  rangesOnRow,
  type ShadedRange,
  shadeOf,
} from "../../../src/hosts/preview/workbook.js";
import { demoSeed } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";

const shade = (key: string, range: CellRange): ShadedRange => ({
  key,
  reportName: key,
  range,
  staleSheetId: false,
});

/** The rule, asked of one cell: the first range, in list order, that covers it. */
const shadingAt = (ranges: readonly ShadedRange[], cell: CellRef) =>
  ranges.find((r) => rangeContains(r.range, cell));

describe("rangesOnRow and shadeOf", () => {
  it("give every cell the first range covering it, as asking cell by cell does, past the first rows too", () => {
    const ranges = [
      shade("a", { top: 2, left: 2, bottom: 6, right: 5 }),
      // Overlaps "a": the cells they share stay "a"'s.
      shade("b", { top: 4, left: 4, bottom: 9, right: 8 }),
      // Runs past the fewest rows and columns the grid draws.
      shade("c", { top: GRID_ROWS - 1, left: GRID_COLUMNS - 1, bottom: GRID_ROWS + 50, right: 30 }),
      // Wholly below them.
      shade("d", { top: GRID_ROWS + 10, left: 1, bottom: GRID_ROWS + 20, right: 3 }),
      shade("e", { top: 1, left: 1, bottom: 1, right: 1 }),
    ];
    let shaded = 0;
    for (let row = 1; row <= GRID_ROWS + 60; row++) {
      const onRow = rangesOnRow(ranges, row);
      for (let col = 1; col <= 40; col++) {
        const expected = shadingAt(ranges, { col, row })?.key;
        expect(shadeOf(onRow, col)?.key, formatCell({ col, row })).toBe(expected);
        if (expected) shaded++;
      }
    }
    expect(shaded).toBe(20 + (30 - 6) + 52 * 18 + 11 * 3 + 1);
  });

  it("a row of a 50,000-row placement is shaded without going through the placement's cells", () => {
    const big = shade("big", { top: 2, left: 1, bottom: 50_001, right: 8 });
    expect(shadeOf(rangesOnRow([big], 50_001), 8)?.key).toBe("big");
    expect(shadeOf(rangesOnRow([big], 50_001), 9)).toBeUndefined();
    expect(rangesOnRow([big], 50_002)).toEqual([]);
  });
});

describe("a move of the selection", () => {
  it("keeps the reports and sheets the shading is worked out from", () => {
    const wb = new PreviewWorkbook(DEMO_WORKBOOK, demoSeed().reports);
    const before = wb.getSnapshot();
    wb.selectCell({ col: 3, row: 4 });
    wb.selectCell({ col: 5, row: 9 }, true);
    const after = wb.getSnapshot();
    expect(after.activeCell).toBe("C4");
    expect(after.reports).toBe(before.reports);
    expect(after.sheets).toBe(before.sheets);
    expect(after.workbookId).toBe(before.workbookId);
  });
});
