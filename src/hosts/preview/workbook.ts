/**
 * The simulated workbook of the preview: sheets (each with an id kept apart from its name), the
 * active sheet, cell and selection, the cells' values, and the reports whose placements it shades.
 * Plain state plus `subscribe`/`getSnapshot` for React's `useSyncExternalStore`; no DOM here.
 *
 * Like a real spreadsheet, renaming a sheet keeps its id, and deleting a tab and adding one under the
 * same name gives a new id: that is what disconnect rules 5-7 are about.
 */

import {
  type CellRange,
  type CellRef,
  columnLetters,
  formatCell,
  parseCell,
  parseLocation,
} from "../../core/location.js";
import { placementRange, placementsOf } from "../../core/placements.js";
import type { Report } from "../../core/schema.js";
import type { RangeTarget } from "../host.js";
import { applyBlock, type PreviewCellBlock, readBack } from "./cells.js";
import { valuesWrittenBy } from "./demo-values.js";
import { GRID_COLUMNS, GRID_ROWS, type PreviewSheet, sheetOfPlacement } from "./sheet-of-placement.js";

export { GRID_COLUMNS, GRID_ROWS, type PreviewSheet };

export interface StatusMessage {
  readonly text: string;
  readonly tone: "info" | "success" | "error";
}

export interface WorkbookDefinition {
  readonly id: string;
  readonly name: string;
  readonly sheets: readonly PreviewSheet[];
}

export interface PreviewSnapshot {
  readonly workbookId: string;
  readonly workbookName: string;
  readonly sheets: readonly PreviewSheet[];
  readonly activeSheetId: string;
  /** The active cell of the active sheet, A1 ("B2"). */
  readonly activeCell: string;
  /** The selected range of the active sheet (the active cell alone, or a range). */
  readonly selection: CellRange;
  /** The reports whose placements are shaded: the latest the pane loaded, or the demo data. */
  readonly reports: readonly Report[];
  /** Cell values per sheet id: what the reports wrote. A recreated tab starts empty. */
  readonly values: ReadonlyMap<string, ReadonlyMap<string, string>>;
  readonly status: StatusMessage | null;
  readonly theme: "light" | "dark";
}

/** A placement drawn on a sheet. */
export interface ShadedRange {
  key: string;
  reportName: string;
  range: CellRange;
  /** The placement stores a sheet id this workbook no longer has (a tab recreated since). */
  staleSheetId: boolean;
}

/**
 * A sheet's selection as Excel keeps it: the active cell (where the selection started; it stays put
 * while Shift-click, Shift-Arrow or a drag extends the range) and the range's far corner.
 */
interface SheetSelection {
  active: CellRef;
  end: CellRef;
}

const A1: CellRef = { col: 1, row: 1 };

function single(cell: CellRef): CellRange {
  return { top: cell.row, bottom: cell.row, left: cell.col, right: cell.col };
}

function spanning(a: CellRef, b: CellRef): CellRange {
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.col, b.col),
    right: Math.max(a.col, b.col),
  };
}

function clamp(cell: CellRef): CellRef {
  return {
    col: Math.min(Math.max(cell.col, 1), GRID_COLUMNS),
    row: Math.min(Math.max(cell.row, 1), GRID_ROWS),
  };
}

/** The characters Excel refuses in a sheet name. */
const FORBIDDEN_IN_SHEET_NAME = /[:\\/?*[\]]/;

/** Excel's rules for a sheet name; returns what is wrong, or null. */
function sheetNameProblem(name: string, others: readonly PreviewSheet[]): string | null {
  if (name.trim() === "") return "A sheet name cannot be blank.";
  if (name.length > 31) return "A sheet name can have at most 31 characters.";
  if (FORBIDDEN_IN_SHEET_NAME.test(name)) return "A sheet name cannot contain : \\ / ? * [ or ].";
  if (name.startsWith("'") || name.endsWith("'"))
    return "A sheet name cannot start or end with an apostrophe.";
  if (others.some((s) => s.name.toLowerCase() === name.toLowerCase())) {
    return `There is already a sheet named "${name}".`;
  }
  return null;
}

/** A new sheet id in Excel's form: a GUID in braces. */
function newSheetId(): string {
  return `{${globalThis.crypto.randomUUID().toUpperCase()}}`;
}

/**
 * The placements of `snapshot.reports` in this workbook drawn on `sheetId`, in list order. It reads
 * only the reports, the sheets and the workbook id, so a caller can keep the result while only the
 * selection moves.
 */
export function shadedRanges(
  snapshot: Pick<PreviewSnapshot, "workbookId" | "reports" | "sheets">,
  sheetId: string,
): ShadedRange[] {
  const out: ShadedRange[] = [];
  for (const report of snapshot.reports) {
    placementsOf(report).forEach((p, i) => {
      if (p.workbookId !== snapshot.workbookId) return;
      const on = sheetOfPlacement(p, snapshot.sheets);
      const range = placementRange(p);
      if (!on || on.sheet.id !== sheetId || !range) return;
      out.push({
        key: `${report.id}:${p.id ?? i}:${p.resultLocation}`,
        reportName: report.name,
        range,
        staleSheetId: on.staleSheetId,
      });
    });
  }
  return out;
}

/**
 * The shading of every cell the grid draws, worked out once per list of ranges: by address, the
 * first range (in list order) covering the cell. The grid re-renders on every move of the
 * selection; asking every range about every cell then would cost every cell times every placement
 * on the sheet.
 */
export function shadingByCell(ranges: readonly ShadedRange[]): ReadonlyMap<string, ShadedRange> {
  const byCell = new Map<string, ShadedRange>();
  for (const shade of ranges) {
    const { top, left } = shade.range;
    const bottom = Math.min(shade.range.bottom, GRID_ROWS);
    const right = Math.min(shade.range.right, COLUMN_NAMES.length);
    for (let row = top; row <= bottom; row++) {
      for (let col = left; col <= right; col++) {
        const address = formatCell({ col, row });
        if (!byCell.has(address)) byCell.set(address, shade);
      }
    }
  }
  return byCell;
}

export type Listener = () => void;

export class PreviewWorkbook {
  #snapshot: PreviewSnapshot;
  #selections = new Map<string, SheetSelection>();
  #listeners = new Set<Listener>();
  /** What refreshes wrote, as written (numbers, serial dates), for reading back; by sheet id, A1. */
  #written = new Map<string, Map<string, unknown>>();

  /**
   * `reports` are shaded until the pane loads its own; `written` (default: the same) are the reports
   * whose values the cells hold.
   */
  constructor(
    definition: WorkbookDefinition,
    reports: readonly Report[],
    written: readonly Report[] = reports,
  ) {
    const sheets = definition.sheets.map((s) => ({ id: s.id, name: s.name }));
    const first = sheets[0];
    if (!first) throw new Error("A workbook needs at least one sheet.");
    this.#snapshot = {
      workbookId: definition.id,
      workbookName: definition.name,
      sheets,
      activeSheetId: first.id,
      activeCell: "A1",
      selection: single(A1),
      reports,
      values: valuesWrittenBy(written, definition.id, sheets),
      status: null,
      theme: "light",
    };
  }

  getSnapshot = (): PreviewSnapshot => this.#snapshot;

  subscribe = (listener: Listener): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  #update(patch: Partial<PreviewSnapshot>) {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  activeSheet(): PreviewSheet {
    const s = this.#snapshot;
    return s.sheets.find((x) => x.id === s.activeSheetId) ?? s.sheets[0]!;
  }

  /** The sheet with this id, else the one with this name. */
  findSheet(sheetId: string | null, sheetName: string): PreviewSheet | undefined {
    const { sheets } = this.#snapshot;
    return (
      (sheetId ? sheets.find((s) => s.id === sheetId) : undefined) ?? sheets.find((s) => s.name === sheetName)
    );
  }

  #selectionOf(sheetId: string): SheetSelection {
    return this.#selections.get(sheetId) ?? { active: A1, end: A1 };
  }

  #applySelection(sheetId: string, selection: SheetSelection) {
    this.#selections.set(sheetId, selection);
    this.#update({
      activeSheetId: sheetId,
      activeCell: formatCell(selection.active),
      selection: spanning(selection.active, selection.end),
    });
  }

  activateSheet(sheetId: string) {
    if (!this.#snapshot.sheets.some((s) => s.id === sheetId)) return;
    this.#applySelection(sheetId, this.#selectionOf(sheetId));
  }

  /**
   * Selects one cell of the active sheet and makes it active. With `extend` (Shift-click, a drag)
   * the range runs from the active cell, which stays active, to `cell`.
   */
  selectCell(cell: CellRef, extend = false) {
    const sheetId = this.#snapshot.activeSheetId;
    const target = clamp(cell);
    const active = extend ? this.#selectionOf(sheetId).active : target;
    this.#applySelection(sheetId, { active, end: target });
  }

  /**
   * Arrow keys: moves the active cell by rows and columns, dropping any range. With `extend`
   * (Shift-Arrow) the range's far corner moves instead and the active cell stays.
   */
  moveBy(rows: number, cols: number, extend = false) {
    const current = this.#selectionOf(this.#snapshot.activeSheetId);
    const from = extend ? current.end : current.active;
    this.selectCell({ col: from.col + cols, row: from.row + rows }, extend);
  }

  /**
   * Activates a sheet and selects a range ("B2:F20", "B2", or sheet-qualified). Throws when the sheet
   * or the range cannot be found.
   */
  selectRange(target: RangeTarget) {
    const sheet = this.findSheet(target.sheetId, target.sheetName);
    if (!sheet) throw new Error(`This workbook has no sheet named "${target.sheetName}".`);
    const loc = parseLocation(target.range);
    const start = loc && parseCell(loc.start);
    if (!loc || !start) throw new Error(`"${target.range}" is not a cell range.`);
    const end = (loc.end && parseCell(loc.end)) || start;
    // The active cell is the range's first cell; the whole range stays highlighted.
    this.#applySelection(sheet.id, { active: clamp(start), end: clamp(end) });
  }

  /** Renames a sheet, keeping its id. Returns what is wrong with the name, or null when renamed. */
  renameSheet(sheetId: string, name: string): string | null {
    const { sheets } = this.#snapshot;
    const sheet = sheets.find((s) => s.id === sheetId);
    if (!sheet) return "That sheet no longer exists.";
    const trimmed = name.trim();
    if (trimmed === sheet.name) return null;
    const problem = sheetNameProblem(
      trimmed,
      sheets.filter((s) => s.id !== sheetId),
    );
    if (problem) return problem;
    this.#update({
      sheets: sheets.map((s) => (s.id === sheetId ? { id: s.id, name: trimmed } : s)),
      status: {
        tone: "info",
        text: `Renamed sheet "${sheet.name}" to "${trimmed}"; its sheet id stays ${sheetId}.`,
      },
    });
    return null;
  }

  /**
   * Deletes a tab and adds a new one under the same name in the same place: a new sheet id, empty
   * cells. Placements stored with the old id now find the sheet by name only (disconnect rule 7).
   */
  recreateSheet(sheetId: string): PreviewSheet | null {
    const { sheets, values, activeSheetId } = this.#snapshot;
    const old = sheets.find((s) => s.id === sheetId);
    if (!old) return null;
    const fresh = { id: newSheetId(), name: old.name };
    const nextValues = new Map(values);
    nextValues.delete(sheetId);
    this.#written.delete(sheetId);
    this.#selections.delete(sheetId);
    this.#update({
      sheets: sheets.map((s) => (s.id === sheetId ? fresh : s)),
      values: nextValues,
      status: {
        tone: "info",
        text: `Deleted the tab "${old.name}" and added a new one under the same name: its sheet id is now ${fresh.id}.`,
      },
    });
    if (activeSheetId === sheetId) this.#applySelection(fresh.id, { active: A1, end: A1 });
    return fresh;
  }

  /**
   * Writes a block of a refresh (as a host writes one round trip): clears the given ranges, then
   * the values from the top-left cell (cells.ts). The sheet by id, else name.
   */
  writeCells(block: PreviewCellBlock): void {
    const sheet = this.findSheet(block.sheetId, block.sheetName);
    if (!sheet) throw new Error(`The sheet "${block.sheetName}" is not in this workbook.`);
    const shown = new Map(this.#snapshot.values.get(sheet.id) ?? []);
    let written = this.#written.get(sheet.id);
    if (!written) {
      written = new Map();
      this.#written.set(sheet.id, written);
    }
    applyBlock(shown, written, block);
    const values = new Map(this.#snapshot.values);
    values.set(sheet.id, shown);
    this.#update({ values });
  }

  /** The cells of a range as a host reads them back (cells.ts). */
  readCells(sheetId: string | null, sheetName: string, address: string): unknown[][] {
    const sheet = this.findSheet(sheetId, sheetName);
    if (!sheet) throw new Error(`The sheet "${sheetName}" is not in this workbook.`);
    return readBack(this.#snapshot.values.get(sheet.id), this.#written.get(sheet.id), address);
  }

  /** The reports to shade: called with what the pane loaded last. */
  setReports(reports: readonly Report[]) {
    this.#update({ reports });
  }

  /** Replaces one report (the one a disconnect returned) in the shaded list. */
  replaceReport(updated: Report) {
    const { reports } = this.#snapshot;
    const known = reports.some((r) => r.id === updated.id && r.deploymentId === updated.deploymentId);
    this.#update({
      reports: known
        ? reports.map((r) => (r.id === updated.id && r.deploymentId === updated.deploymentId ? updated : r))
        : [...reports, updated],
    });
  }

  setStatus(status: StatusMessage | null) {
    this.#update({ status });
  }

  setTheme(theme: "light" | "dark") {
    if (theme !== this.#snapshot.theme) this.#update({ theme });
  }
}

/** A range in A1 form: "B2:F8", or "B2" for one cell. */
export function rangeText(range: CellRange): string {
  const start = formatCell({ col: range.left, row: range.top });
  const end = formatCell({ col: range.right, row: range.bottom });
  return start === end ? start : `${start}:${end}`;
}

/** "A".."N": the grid's column letters. */
export const COLUMN_NAMES: readonly string[] = Array.from({ length: GRID_COLUMNS }, (_, i) =>
  columnLetters(i + 1),
);
