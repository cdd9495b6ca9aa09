/**
 * The workbook as the add-in shows it: the placements of this workbook's reports, the one under the
 * active cell, and the words the user reads about them. Shared by the task pane, the Excel
 * right-click command and the Apps Script menu, so every host says the same thing.
 */
import {
  describePlacement,
  findPlacementAt,
  type PlacementAt,
  placementsOf,
  toDisconnectInput,
} from "./placements.js";
import type { DisconnectInput, PlacementSyncStatus, Report, ReportPlacement } from "./schema.js";

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

export type DisconnectPlan =
  | { kind: "disconnect"; placement: PlacedReport; input: DisconnectInput; label: string }
  | { kind: "nothing-here"; message: string };

/**
 * What "Disconnect report here" does at `at`: the placement under the cell and the input that
 * removes exactly it, or a message that there is nothing to disconnect. `placed` should be a list
 * kept as one array (the lookup index is cached per array).
 */
export function planDisconnectAt(placed: readonly PlacedReport[], at: PlacementAt): DisconnectPlan {
  const placement = findPlacementAt(placed, at);
  if (!placement) {
    return {
      kind: "nothing-here",
      message: `No report is placed at ${describeCell(at)}. Select a cell inside a placed report, then try again.`,
    };
  }
  return {
    kind: "disconnect",
    placement,
    input: toDisconnectInput(placement, at),
    label: describePlacement(placement),
  };
}

function describeCell(at: PlacementAt): string {
  return `${at.sheetName}!${at.cell.replace(/\$/g, "").toUpperCase()}`;
}

/** The toast after a disconnect: what happened, judged from the report the service returned. */
export function disconnectOutcomeMessage(
  placement: PlacedReport,
  returned: Report,
): { ok: boolean; message: string } {
  const where = describePlacement(placement);
  const stillThere = placementsOf(returned).some(
    (p) => placementKey(returned, p) === placement.key || (placement.id != null && p.id === placement.id),
  );
  if (stillThere) {
    return {
      ok: false,
      message: `The service kept ${returned.name} at ${where}: it did not recognise the placement. Refresh and try again.`,
    };
  }
  return { ok: true, message: `Disconnected ${returned.name} from ${where}; the cells keep their values.` };
}

/** Replaces a report in a list by id (the service's answer replaces the one shown). */
export function replaceReport(reports: readonly Report[], updated: Report): Report[] {
  return reports.map((r) => (r.id === updated.id && r.deploymentId === updated.deploymentId ? updated : r));
}

export const SYNC_STATUS_LABELS: Record<PlacementSyncStatus, string> = {
  UP_TO_DATE: "Up to date",
  CHANGED: "Out of date",
  UNKNOWN: "Unknown",
};

/** The badge text of a placement's sync status; anything the add-in does not know reads "Unknown". */
export function syncStatusLabel(status: string | null | undefined): string {
  return (status && SYNC_STATUS_LABELS[status as PlacementSyncStatus]) || "Unknown";
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "just now"; null when the timestamp cannot be read. */
export function relativeTime(timestamp: string | null | undefined, now: number = Date.now()): string | null {
  if (!timestamp) return null;
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return null;
  const seconds = Math.round((at - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (abs >= size || unit === "minute") return format.format(Math.round(seconds / size), unit);
  }
  return null;
}
