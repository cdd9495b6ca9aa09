/**
 * The preview workbook's hand edits and size: a value typed into the active sheet's cell (numbers
 * as numbers, text as text, read back as a host reads them), Delete over the selection, the edit
 * listeners (a refresh's own writes are no edit), and how many rows and columns the grid draws
 * (`gridSize`: past what is written, placed and selected, never past a worksheet).
 */
import { describe, expect, it } from "vitest";
import { MAX_GRID_COLUMNS, MAX_GRID_ROWS } from "../../../src/core/limits.js";
import {
  GRID_COLUMNS,
  GRID_MARGIN,
  GRID_ROWS,
  gridSize,
  PreviewWorkbook,
  type ShadedRange,
} from "../../../src/hosts/preview/workbook.js";
import { demoSeed } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";

const SUMMARY = DEMO_WORKBOOK.sheets[0];
const NOTES = DEMO_WORKBOOK.sheets[4];

function demoWorkbook(): PreviewWorkbook {
  return new PreviewWorkbook(DEMO_WORKBOOK, demoSeed().reports);
}

const read = (wb: PreviewWorkbook, sheet: { id: string; name: string }, range: string) =>
  wb.readCells(sheet.id, sheet.name, range);

describe("editCell", () => {
  it("writes a typed number as a number and other text as text, on the active sheet", () => {
    const wb = demoWorkbook();
    wb.editCell("C4", "1,500");
    wb.editCell("D4", "Paris");
    expect(read(wb, SUMMARY, "C4:D4")).toEqual([[1500, "Paris"]]);
    expect(wb.getSnapshot().values.get(SUMMARY.id)?.get("C4")).toBe("1,500");
    expect(wb.cellEditText("C4")).toBe("1500");
    expect(wb.cellEditText("D4")).toBe("Paris");
  });

  it("writes on the active sheet, whichever it is, and an empty text empties the cell", () => {
    const wb = demoWorkbook();
    wb.activateSheet(NOTES.id);
    wb.editCell("A30", "note");
    expect(read(wb, NOTES, "A30")).toEqual([["note"]]);
    expect(read(wb, SUMMARY, "A30")).toEqual([[""]]);
    wb.editCell("A30", "");
    expect(read(wb, NOTES, "A30")).toEqual([[""]]);
    expect(() => wb.editCell("not a cell", "1")).toThrow(/Not a cell/);
  });

  it("tells the edit listeners once per edit; a refresh's written block is no edit", () => {
    const wb = demoWorkbook();
    let edits = 0;
    let changes = 0;
    const off = wb.onCellsEdited(() => edits++);
    wb.subscribe(() => changes++);
    wb.writeCells({
      sheetId: SUMMARY.id,
      sheetName: SUMMARY.name,
      topLeft: "B2",
      values: [["Region"], ["Europe"]],
      dateFormats: [],
      clear: [],
    });
    expect(edits).toBe(0);
    wb.editCell("B3", "Asia");
    expect(edits).toBe(1);
    expect(changes).toBe(2);
    off();
    wb.editCell("B3", "Africa");
    expect(edits).toBe(1);
  });
});

describe("clearSelection (Delete)", () => {
  it("empties every cell of the selection and only those, and is one edit", () => {
    const wb = demoWorkbook();
    let edits = 0;
    wb.onCellsEdited(() => edits++);
    // "Revenue by Region" fills Summary!B2:F8.
    wb.selectRange({ sheetId: SUMMARY.id, sheetName: SUMMARY.name, range: "C3:D4" });
    wb.clearSelection();
    expect(read(wb, SUMMARY, "B3:E4")).toEqual([
      [expect.any(String), "", "", expect.any(String)],
      [expect.any(String), "", "", expect.any(String)],
    ]);
    expect(edits).toBe(1);
    // Nothing to empty: no edit.
    wb.clearSelection();
    expect(edits).toBe(1);
  });

  it("empties a large selection by the sheet's values rather than cell by cell", () => {
    const wb = demoWorkbook();
    wb.selectRange({ sheetId: SUMMARY.id, sheetName: SUMMARY.name, range: "A1:N1000000" });
    wb.clearSelection();
    expect(wb.getSnapshot().values.get(SUMMARY.id)?.size).toBe(0);
  });
});

describe("the grid's size", () => {
  const shade = (bottom: number, right: number): ShadedRange => ({
    key: "k",
    reportName: "r",
    range: { top: 1, left: 1, bottom, right },
    staleSheetId: false,
  });
  const at = (row: number, col: number) => ({ top: row, bottom: row, left: col, right: col });

  it("is at least GRID_ROWS x GRID_COLUMNS", () => {
    expect(gridSize({ rows: 0, columns: 0 }, [], at(1, 1))).toEqual({
      rows: GRID_ROWS,
      columns: GRID_COLUMNS,
    });
  });

  it("runs GRID_MARGIN past the cells in use, the placements drawn and the selection", () => {
    expect(gridSize({ rows: 50_001, columns: 8 }, [], at(1, 1))).toEqual({
      rows: 50_001 + GRID_MARGIN.rows,
      columns: GRID_COLUMNS,
    });
    expect(gridSize({ rows: 0, columns: 0 }, [shade(300, 40)], at(1, 1))).toEqual({
      rows: 300 + GRID_MARGIN.rows,
      columns: 40 + GRID_MARGIN.columns,
    });
    expect(gridSize({ rows: 0, columns: 0 }, [], at(500, 2))).toEqual({
      rows: 500 + GRID_MARGIN.rows,
      columns: GRID_COLUMNS,
    });
  });

  it("never runs past a worksheet", () => {
    expect(gridSize({ rows: 0, columns: 0 }, [], at(MAX_GRID_ROWS, MAX_GRID_COLUMNS))).toEqual({
      rows: MAX_GRID_ROWS,
      columns: MAX_GRID_COLUMNS,
    });
  });

  it("a sheet's used size grows with what is written or typed on it and is gone with a recreated tab", () => {
    const wb = demoWorkbook();
    const before = wb.usedSize(NOTES.id);
    expect(before.rows).toBeLessThanOrEqual(GRID_ROWS);
    wb.writeCells({
      sheetId: NOTES.id,
      sheetName: NOTES.name,
      topLeft: "A1",
      values: Array.from({ length: 50_001 }, (_, r) => Array.from({ length: 8 }, (_, c) => r * 8 + c)),
      dateFormats: [],
      clear: [],
    });
    expect(wb.usedSize(NOTES.id)).toEqual({ rows: 50_001, columns: Math.max(8, before.columns) });
    expect(read(wb, NOTES, "H50001")).toEqual([[50_000 * 8 + 7]]);
    wb.activateSheet(SUMMARY.id);
    wb.editCell("P70", "x");
    expect(wb.usedSize(SUMMARY.id)).toEqual({ rows: 70, columns: 16 });
    const fresh = wb.recreateSheet(NOTES.id)!;
    expect(wb.usedSize(fresh.id)).toEqual({ rows: 0, columns: 0 });
  });

  it("arrowing past the last row drawn moves on, up to a worksheet's last row", () => {
    const wb = demoWorkbook();
    wb.selectCell({ col: 1, row: GRID_ROWS });
    wb.moveBy(1, 0);
    expect(wb.getSnapshot().activeCell).toBe(`A${GRID_ROWS + 1}`);
    wb.selectCell({ col: 1, row: MAX_GRID_ROWS + 5 });
    expect(wb.getSnapshot().activeCell).toBe(`A${MAX_GRID_ROWS}`);
  });
});

describe("rangeSelections", () => {
  it("counts each range selected for the pane, also the same one again, in one change each; a click does not", () => {
    const wb = demoWorkbook();
    let changes = 0;
    wb.subscribe(() => changes++);
    const target = { sheetId: SUMMARY.id, sheetName: SUMMARY.name, range: "B2:F8" };
    wb.selectRange(target);
    wb.selectRange(target);
    expect(wb.getSnapshot().rangeSelections).toBe(2);
    expect(changes).toBe(2);
    wb.selectCell({ col: 3, row: 3 });
    expect(wb.getSnapshot().rangeSelections).toBe(2);
  });
});
