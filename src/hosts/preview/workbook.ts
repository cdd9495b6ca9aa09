/**
 * The simulated workbook of the preview: sheets (each with an id kept apart from its name), the
 * active sheet, cell and selection, the cells' values, and the reports whose placements it shades.
 * Plain state plus `subscribe`/`getSnapshot` for React's `useSyncExternalStore`; no DOM here.
 *
 * Like a real spreadsheet, renaming a sheet keeps its id, and deleting a tab and adding one under the
 * same name gives a new id: that is what disconnect rules 5-7 are about.
 */

import { MAX_GRID_COLUMNS, MAX_GRID_ROWS } from "../../core/limits.js";
import {
  type CellRange,
  type CellRef,
  formatCell,
  parseCell,
  parseLocation,
  rangeContains,
} from "../../core/location.js";
import type { Report } from "../../core/schema.js";
import type { RangeTarget } from "../host.js";
import { applyBlock, applyEdit, editText, type PreviewCellBlock, readBack } from "./cells.js";
import { valuesWrittenBy } from "./demo-values.js";
import type { SheetSize } from "./sheet-layout.js";
import { GRID_COLUMNS, GRID_ROWS, type PreviewSheet } from "./sheet-of-placement.js";

export {
  COLUMN_NAMES,
  GRID_MARGIN,
  gridSize,
  rangesOnRow,
  rangeText,
  type ShadedRange,
  type SheetSize,
  shadedRanges,
  shadeOf,
} from "./sheet-layout.js";
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
  /**
   * How many ranges were selected for the pane (`selectRange`: a list item, Locate): the grid
   * scrolls the range into view each time, also when it was already the selection.
   */
  readonly rangeSelections: number;
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

/** Within a worksheet: 1,048,576 rows and 16,384 columns, as in Excel. */
function clamp(cell: CellRef): CellRef {
  return {
    col: Math.min(Math.max(cell.col, 1), MAX_GRID_COLUMNS),
    row: Math.min(Math.max(cell.row, 1), MAX_GRID_ROWS),
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

export type Listener = () => void;

export class PreviewWorkbook {
  #snapshot: PreviewSnapshot;
  #selections = new Map<string, SheetSelection>();
  #listeners = new Set<Listener>();
  /** What refreshes wrote, as written (numbers, serial dates), for reading back; by sheet id, A1. */
  #written = new Map<string, Map<string, unknown>>();
  /** Per sheet id, the last row and column that ever held a value (as Excel's used range). */
  #used = new Map<string, SheetSize>();
  #editListeners = new Set<Listener>();

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
      rangeSelections: 0,
    };
    for (const [sheetId, cells] of this.#snapshot.values) {
      for (const address of cells.keys()) this.#use(sheetId, parseCell(address));
    }
  }

  /** Grows a sheet's used range to hold `cell`. */
  #use(sheetId: string, cell: CellRef | null, rows = 1, columns = 1) {
    if (!cell) return;
    const used = this.#used.get(sheetId) ?? { rows: 0, columns: 0 };
    const bottom = cell.row + rows - 1;
    const right = cell.col + columns - 1;
    if (bottom > used.rows || right > used.columns) {
      this.#used.set(sheetId, { rows: Math.max(used.rows, bottom), columns: Math.max(used.columns, right) });
    }
  }

  /** The last row and column of a sheet that ever held a value ({0, 0} for an empty sheet). */
  usedSize(sheetId: string): SheetSize {
    return this.#used.get(sheetId) ?? { rows: 0, columns: 0 };
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

  #applySelection(sheetId: string, selection: SheetSelection, patch: Partial<PreviewSnapshot> = {}) {
    this.#selections.set(sheetId, selection);
    this.#update({
      activeSheetId: sheetId,
      activeCell: formatCell(selection.active),
      selection: spanning(selection.active, selection.end),
      ...patch,
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
    this.#applySelection(
      sheet.id,
      { active: clamp(start), end: clamp(end) },
      { rangeSelections: this.#snapshot.rangeSelections + 1 },
    );
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
    this.#used.delete(sheetId);
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
    this.#changeCells(sheet.id, (shown, written) => applyBlock(shown, written, block));
    this.#use(sheet.id, parseCell(block.topLeft), block.values.length, block.values[0]?.length ?? 0);
  }

  /**
   * Changes a sheet's cells in place (a sheet of 50,000 rows is not copied per block or keystroke)
   * and publishes a new snapshot whose `values` is a new map, so subscribers see the change.
   */
  #changeCells(
    sheetId: string,
    change: (shown: Map<string, string>, written: Map<string, unknown>) => void,
  ): void {
    const shown = (this.#snapshot.values.get(sheetId) as Map<string, string> | undefined) ?? new Map();
    let written = this.#written.get(sheetId);
    if (!written) {
      written = new Map();
      this.#written.set(sheetId, written);
    }
    change(shown, written);
    const values = new Map(this.#snapshot.values);
    values.set(sheetId, shown);
    this.#update({ values });
  }

  /**
   * A hand edit: the user typed `text` into a cell of the active sheet and committed it (Enter, Tab,
   * or a click elsewhere). Numbers typed become numbers, other text stays text (cells.ts,
   * `typedValue`); an empty text empties the cell. Edit listeners hear of it (the host tells the
   * pane); a refresh's writes are not edits.
   */
  editCell(address: string, text: string): void {
    const cell = parseCell(address);
    if (!cell) throw new Error(`Not a cell: ${address}`);
    const at = formatCell(cell);
    const sheetId = this.#snapshot.activeSheetId;
    this.#changeCells(sheetId, (shown, written) => applyEdit(shown, written, at, text));
    this.#use(sheetId, cell);
    this.#notifyEdit();
  }

  /** Delete: empties every cell of the active sheet's selection that holds a value, as Excel does. */
  clearSelection(): void {
    const { activeSheetId: sheetId, selection } = this.#snapshot;
    const shown = this.#snapshot.values.get(sheetId);
    if (!shown || shown.size === 0) return;
    // Whichever is fewer: the selection's cells, or the sheet's values.
    const area = (selection.bottom - selection.top + 1) * (selection.right - selection.left + 1);
    const inside: string[] = [];
    if (area <= shown.size) {
      for (let row = selection.top; row <= selection.bottom; row++) {
        for (let col = selection.left; col <= selection.right; col++) {
          const address = formatCell({ col, row });
          if (shown.has(address)) inside.push(address);
        }
      }
    } else {
      for (const address of shown.keys()) {
        const cell = parseCell(address);
        if (cell && rangeContains(selection, cell)) inside.push(address);
      }
    }
    if (inside.length === 0) return;
    this.#changeCells(sheetId, (s, written) => {
      for (const address of inside) {
        s.delete(address);
        written.delete(address);
      }
    });
    this.#notifyEdit();
  }

  /** The text an edit of a cell of the active sheet starts from (F2, double click). */
  cellEditText(address: string): string {
    const sheetId = this.#snapshot.activeSheetId;
    return editText(
      this.#written.get(sheetId)?.get(address),
      this.#snapshot.values.get(sheetId)?.get(address),
    );
  }

  /** Calls `listener` after each hand edit (`editCell`, `clearSelection`); returns the unsubscribe. */
  onCellsEdited = (listener: Listener): (() => void) => {
    this.#editListeners.add(listener);
    return () => this.#editListeners.delete(listener);
  };

  #notifyEdit() {
    for (const listener of [...this.#editListeners]) listener();
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
