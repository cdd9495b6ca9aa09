/**
 * The preview's sheets as placements find them, and the size of the grid it draws: shared by the
 * workbook (shading) and the demo's values.
 */
import { placementSheetName } from "../../core/placements.js";
import type { ReportPlacement } from "../../core/schema.js";

/**
 * The fewest columns and rows the preview's grid draws: A..N, 1..40 (every demo placement fits). A
 * sheet grows past them to hold what is written on it, placed on it or selected (workbook.ts,
 * `gridSize`), up to a worksheet's size.
 */
export const GRID_COLUMNS = 14;
export const GRID_ROWS = 40;

export interface PreviewSheet {
  readonly id: string;
  readonly name: string;
}

/**
 * Which sheet of the workbook a placement is drawn on: the sheet whose id it stores; otherwise (no
 * id stored, or an id this workbook no longer has) the sheet with the name it stores.
 */
export function sheetOfPlacement(
  placement: ReportPlacement,
  sheets: readonly PreviewSheet[],
): { sheet: PreviewSheet; staleSheetId: boolean } | null {
  if (placement.sheetId) {
    const byId = sheets.find((s) => s.id === placement.sheetId);
    if (byId) return { sheet: byId, staleSheetId: false };
  }
  const name = placementSheetName(placement);
  const byName = name === null ? undefined : sheets.find((s) => s.name === name);
  return byName ? { sheet: byName, staleSheetId: Boolean(placement.sheetId) } : null;
}
