/// <reference types="google-apps-script" />
/**
 * What the add-on reads and changes in the open spreadsheet: where the user is, its sheets, and the
 * selection. Only the current spreadsheet (`spreadsheets.currentonly`).
 */
import { PlatformError } from "../../../core/errors.js";
import type { ActiveContext, RangeTarget, SheetInfo } from "../../host.js";

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

function activeSpreadsheet(): Spreadsheet {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  if (!spreadsheet) {
    throw new PlatformError("bad-request", "No spreadsheet is open. Open the add-on from a spreadsheet.");
  }
  return spreadsheet;
}

/** The active cell: the current cell of the selection, else the top-left cell of the active range. */
function activeCell(spreadsheet: Spreadsheet, sheet: Sheet): string {
  const current = spreadsheet.getCurrentCell() ?? sheet.getActiveCell();
  if (current) return current.getA1Notation();
  const range = sheet.getActiveRange();
  return range ? range.getCell(1, 1).getA1Notation() : "A1";
}

/** Spreadsheet id (the service's externalWorkbookId), its name, the active sheet's id and name, the active cell. */
export function readActiveContext(): ActiveContext {
  const spreadsheet = activeSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  return {
    workbookId: spreadsheet.getId(),
    workbookName: spreadsheet.getName(),
    sheetId: String(sheet.getSheetId()),
    sheetName: sheet.getName(),
    cell: activeCell(spreadsheet, sheet),
  };
}

export function listSheets(): SheetInfo[] {
  return activeSpreadsheet()
    .getSheets()
    .map((sheet) => ({ id: String(sheet.getSheetId()), name: sheet.getName() }));
}

/** Activates the sheet (by id, else by name: a tab may have been renamed) and selects the range. */
export function selectRangeIn(target: RangeTarget): void {
  if (
    !target ||
    typeof target.range !== "string" ||
    !/^\$?[A-Za-z]{1,3}\$?\d+(:\$?[A-Za-z]{1,3}\$?\d+)?$/.test(target.range)
  ) {
    throw new PlatformError("bad-request", "The range to select is not an A1 range (such as B2:F20).");
  }
  const spreadsheet = activeSpreadsheet();
  const sheets = spreadsheet.getSheets();
  const sheet =
    (target.sheetId != null
      ? sheets.find((s) => String(s.getSheetId()) === String(target.sheetId))
      : undefined) ?? sheets.find((s) => s.getName() === target.sheetName);
  if (!sheet) {
    throw new PlatformError(
      "not-found",
      `The sheet "${target.sheetName}" is not in this spreadsheet any more: it may have been deleted or renamed.`,
    );
  }
  sheet.activate();
  sheet.getRange(target.range).activate();
}
