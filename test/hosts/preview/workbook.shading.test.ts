/**
 * The preview grid's shading, worked out once per list of placements (`shadingByCell`) rather than
 * per cell on every render: it must shade exactly as asking the ranges cell by cell does, and a
 * move of the selection must leave the reports and sheets it is worked out from unchanged, so the
 * grid keeps it while the user clicks around.
 */
import { describe, expect, it } from "vitest";
import { type CellRange, type CellRef, formatCell, rangeContains } from "../../../src/core/location.js";
import {
  COLUMN_NAMES,
  GRID_ROWS,
  PreviewWorkbook,
  type ShadedRange,
  shadingByCell,
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

describe("shadingByCell", () => {
  it("gives every cell of the grid the first range covering it, as asking cell by cell does", () => {
    const ranges = [
      shade("a", { top: 2, left: 2, bottom: 6, right: 5 }),
      // Overlaps "a": the cells they share stay "a"'s.
      shade("b", { top: 4, left: 4, bottom: 9, right: 8 }),
      // Runs past the grid's last row and column.
      shade("c", { top: GRID_ROWS - 1, left: COLUMN_NAMES.length - 1, bottom: GRID_ROWS + 50, right: 200 }),
      // Wholly beyond the grid.
      shade("d", { top: GRID_ROWS + 10, left: 1, bottom: GRID_ROWS + 20, right: 3 }),
      shade("e", { top: 1, left: 1, bottom: 1, right: 1 }),
    ];
    const byCell = shadingByCell(ranges);
    let shaded = 0;
    for (let row = 1; row <= GRID_ROWS; row++) {
      for (let col = 1; col <= COLUMN_NAMES.length; col++) {
        const expected = shadingAt(ranges, { col, row })?.key;
        expect(byCell.get(formatCell({ col, row }))?.key, formatCell({ col, row })).toBe(expected);
        if (expected) shaded++;
      }
    }
    expect(shaded).toBe(20 + (30 - 6) + 4 + 1);
    expect(byCell.size).toBe(shaded);
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
