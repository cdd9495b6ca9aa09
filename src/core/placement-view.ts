/**
 * The placement view shared by every host: the placements of this workbook's reports with their
 * reports, grouped by sheet as the workbook is now, and the words the user reads about them (names,
 * badges, relative times, sheet notes). The task pane lists them; the hosts' commands name them.
 */

import { describePlacement, revealInvisible } from "./display.js";
import { formatCount } from "./limits.js";
import { quoteSheetName } from "./location.js";
import { placementRange, placementSheetName, placementsOf } from "./placement-fields.js";
import type { PlacementSyncStatus, Report, ReportPlacement } from "./schema.js";

/** A placement together with the report it belongs to. */
export interface PlacedReport extends ReportPlacement {
  report: Report;
  /** Stable key for lists: the placement id, or report + workbook + location. */
  key: string;
}

export function placementKey(report: Report, p: ReportPlacement): string {
  return p.id ? `p:${p.id}` : `r:${report.id}:${p.workbookId}:${p.sheetId ?? ""}:${p.resultLocation}`;
}

/** Every placement of every report, each with its report. */
export function placedReports(reports: readonly Report[]): PlacedReport[] {
  const out: PlacedReport[] = [];
  for (const report of reports) {
    for (const p of placementsOf(report)) out.push({ ...p, report, key: placementKey(report, p) });
  }
  return out;
}

/** The placements in one workbook, and the same reports' placements elsewhere. */
export function splitByWorkbook(
  placed: readonly PlacedReport[],
  workbookId: string,
): { here: PlacedReport[]; elsewhere: PlacedReport[] } {
  const here: PlacedReport[] = [];
  const elsewhere: PlacedReport[] = [];
  for (const p of placed) (p.workbookId === workbookId ? here : elsewhere).push(p);
  return { here, elsewhere };
}

/**
 * "Regions!B2:G30": a placement of this workbook named by its sheet's current name, the sheet
 * matched by id in `sheets` (a tab renamed since placing); by the stored name when `sheets` does
 * not know the sheet.
 */
export function describePlacementIn(placement: PlacedReport, sheets: readonly SheetRef[]): string {
  return describePlacement(placement, locatePlacement(placement, sheets).sheetName);
}

/** A report's name for a message: invisible and reordering characters shown (display.ts). */
export function reportName(report: { name: string }): string {
  return revealInvisible(report.name);
}

/**
 * Replaces a report in a list by id (the service's answer replaces the one shown), or adds it at the
 * end when the list does not hold it (a report just placed in this workbook for the first time).
 */
export function replaceReport(reports: readonly Report[], updated: Report): Report[] {
  const same = (r: Report) => r.id === updated.id && r.deploymentId === updated.deploymentId;
  return reports.some(same) ? reports.map((r) => (same(r) ? updated : r)) : [...reports, updated];
}

const SYNC_STATUS_LABELS: Record<PlacementSyncStatus, string> = {
  UP_TO_DATE: "Up to date",
  CHANGED: "Out of date",
  UNKNOWN: "Unknown",
};

/** The badge text of a placement's sync status; anything the add-in does not know reads "Unknown". */
export function syncStatusLabel(status: string | null | undefined): string {
  return (status && SYNC_STATUS_LABELS[status as PlacementSyncStatus]) || "Unknown";
}

type TimeUnit = "year" | "month" | "week" | "day" | "hour" | "minute";

const UNITS: [TimeUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** English's own words for one unit back and one ahead, as `Intl.RelativeTimeFormat` says them. */
const ONE_UNIT: Partial<Record<TimeUnit, [past: string, future: string]>> = {
  year: ["last year", "next year"],
  month: ["last month", "next month"],
  week: ["last week", "next week"],
  day: ["yesterday", "tomorrow"],
};

/**
 * `new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(value, unit)` for a whole
 * `value` other than 0, written out: the pane is in English, and the first Intl formatter a page
 * makes loads the locale's data, which took 50 ms on the first list's path, more than drawing the
 * list. test/core/placement-view.test.ts holds the two to the same text.
 */
function formatRelative(value: number, unit: TimeUnit): string {
  const named = Math.abs(value) === 1 ? ONE_UNIT[unit] : undefined;
  if (named) return value < 0 ? named[0] : named[1];
  const count = Math.abs(value);
  const amount = `${formatCount(count)} ${unit}${count === 1 ? "" : "s"}`;
  return value < 0 ? `${amount} ago` : `in ${amount}`;
}

/** "3 hours ago", "just now"; null when the timestamp cannot be read. */
export function relativeTime(timestamp: string | null | undefined, now: number = Date.now()): string | null {
  if (!timestamp) return null;
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return null;
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (abs >= size || unit === "minute") return formatRelative(Math.round(seconds / size), unit);
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// How the pane arranges this workbook's placements: grouped by the sheet they are on now, with a
// note when the sheet was renamed or the tab recreated since placing (disconnect rules 5-7), and each
// report's placements in other workbooks.

/** A sheet of the workbook as it is now. */
export interface SheetRef {
  id: string | null;
  name: string;
}

export type SheetNote =
  /** The sheet id matches a sheet that now has another name. */
  | { kind: "renamed"; from: string }
  /** The stored sheet id is gone but a sheet of the stored name exists: the tab was recreated. */
  | { kind: "recreated" }
  /** Neither the stored sheet id nor the name is in the workbook any more: the sheet was deleted. */
  | { kind: "missing" }
  /**
   * Stored without a sheet id, and no sheet has its name now: renamed or deleted, the add-in cannot
   * tell. `name`: the name it was stored under.
   */
  | { kind: "not-found"; name: string };

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
  sheets: readonly SheetRef[],
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
  return {
    sheetName: stored,
    sheetId: null,
    note: sheets.length > 0 ? { kind: "not-found", name: stored } : null,
  };
}

/**
 * Where a placement sorts on its sheet: by its top row, then its left column (columns stop at
 * 16,384); placements without a range last.
 */
function position(p: PlacedReport): number {
  const r = placementRange(p);
  return r ? r.top * 16_385 + r.left : Number.MAX_VALUE;
}

/** This workbook's placements by sheet: sheets in workbook order, then sheets no longer there. */
export function groupBySheet(here: readonly PlacedReport[], sheets: readonly SheetRef[]): SheetGroup[] {
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
    // Each placement's position read once, not in every comparison (a sheet of 5,000 placements
    // is some 60,000 comparisons). The sort is stable: list order among equals.
    const keyed = g.placements.map((entry) => [position(entry.placement), entry] as const);
    g.placements = keyed.sort((a, b) => a[0] - b[0]).map((k) => k[1]);
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
      // Stored with its sheet's id, and neither that id nor the name is here: the sheet was deleted.
      return "Its sheet was deleted from this workbook. Disconnect it from the Actions menu.";
    case "not-found":
      return `Not found: no sheet is named ${quoteSheetName(revealInvisible(note.name))} now. If that sheet was renamed, select the report's top-left cell on it and choose Move here from the Actions menu; if the sheet or the report's cells were deleted, choose Disconnect.`;
  }
}
