/**
 * How the pane arranges this workbook's placements: grouped by the sheet they are on now, with a
 * note when the sheet was renamed or the tab recreated since placing (spec 4.1 rules 5-7), and each
 * report's placements in other workbooks. Pure functions of core values; candidates for src/core.
 */
import { placementRange, placementSheetName } from "../src/core/placements.js";
import type { PlacedReport } from "../src/core/workbook.js";
import type { SheetInfo } from "../src/hosts/host.js";

export type SheetNote =
  /** The sheet id matches a sheet that now has another name. */
  | { kind: "renamed"; from: string }
  /** The stored sheet id is gone but a sheet of the stored name exists: the tab was recreated. */
  | { kind: "recreated" }
  /** Neither the sheet id nor the name is in the workbook any more. */
  | { kind: "missing" };

export interface GroupedPlacement {
  placement: PlacedReport;
  note: SheetNote | null;
}

export interface SheetGroup {
  /** The sheet's current name (or the stored one when the sheet is gone). */
  sheetName: string;
  /** The id of the sheet the group is on now, when known. */
  sheetId: string | null;
  placements: GroupedPlacement[];
}

const NO_SHEET = "(no sheet)";

/** Where a placement stands in the workbook as it is now. */
export function locatePlacement(
  p: PlacedReport,
  sheets: readonly SheetInfo[],
): { sheetName: string; sheetId: string | null; note: SheetNote | null } {
  const stored = placementSheetName(p) ?? NO_SHEET;
  const byName = sheets.find((s) => s.name === stored);
  if (p.sheetId) {
    const byId = sheets.find((s) => s.id === p.sheetId);
    if (byId) {
      return {
        sheetName: byId.name,
        sheetId: byId.id,
        note: byId.name === stored ? null : { kind: "renamed", from: stored },
      };
    }
    if (byName) return { sheetName: byName.name, sheetId: byName.id, note: { kind: "recreated" } };
    return { sheetName: stored, sheetId: null, note: sheets.length > 0 ? { kind: "missing" } : null };
  }
  if (byName) return { sheetName: byName.name, sheetId: byName.id, note: null };
  return { sheetName: stored, sheetId: null, note: sheets.length > 0 ? { kind: "missing" } : null };
}

function topLeft(p: PlacedReport): [number, number] {
  const r = placementRange(p);
  return r ? [r.top, r.left] : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
}

/** This workbook's placements by sheet: sheets in workbook order, then sheets no longer there. */
export function groupBySheet(here: readonly PlacedReport[], sheets: readonly SheetInfo[]): SheetGroup[] {
  const groups = new Map<string, SheetGroup>();
  for (const placement of here) {
    const where = locatePlacement(placement, sheets);
    let group = groups.get(where.sheetName);
    if (!group) {
      group = { sheetName: where.sheetName, sheetId: where.sheetId, placements: [] };
      groups.set(where.sheetName, group);
    }
    group.placements.push({ placement, note: where.note });
  }
  const order = new Map(sheets.map((s, i) => [s.name, i]));
  const list = [...groups.values()];
  for (const g of list) {
    g.placements.sort((a, b) => {
      const [ar, ac] = topLeft(a.placement);
      const [br, bc] = topLeft(b.placement);
      return ar - br || ac - bc;
    });
  }
  return list.sort((a, b) => {
    const ai = order.get(a.sheetName) ?? Number.MAX_SAFE_INTEGER;
    const bi = order.get(b.sheetName) ?? Number.MAX_SAFE_INTEGER;
    return ai - bi || a.sheetName.localeCompare(b.sheetName);
  });
}

export function reportKey(report: { deploymentId: number; id: number }): string {
  return `${report.deploymentId}:${report.id}`;
}

/** Each report's placements in other workbooks, by `reportKey`. */
export function placementsElsewhereByReport(
  elsewhere: readonly PlacedReport[],
): ReadonlyMap<string, PlacedReport[]> {
  const map = new Map<string, PlacedReport[]>();
  for (const p of elsewhere) {
    const key = reportKey(p.report);
    const list = map.get(key);
    if (list) list.push(p);
    else map.set(key, [p]);
  }
  return map;
}

const HOST_LABELS: Record<string, string> = { EXCEL: "Excel", GOOGLE_SHEETS: "Google Sheets" };

/** "Excel", "Google Sheets", or null when the placement does not say. */
export function placementHostLabel(host: string | null | undefined): string | null {
  return (host && HOST_LABELS[host]) || null;
}

/** The words for a sheet note, as shown under a placement. */
export function sheetNoteText(note: SheetNote): string {
  switch (note.kind) {
    case "renamed":
      return `Sheet renamed from ${note.from}`;
    case "recreated":
      return "The tab was recreated since placing: these cells are no longer linked. Disconnect it from the menu.";
    case "missing":
      return "The sheet is no longer in this workbook. Disconnect it from the menu.";
  }
}
