/**
 * How the demo's reports and placements are written: the service's full Report shape and each
 * placement form (full, without a sheet id, `resultLocation` only), with sync statuses that agree
 * with the checksums and timestamps counted back from a reference moment. The data itself is
 * `demo-reports.ts`. Plain code only: this runs in the preview's browser page as well as in Node.
 */
import { quoteSheetName } from "../core/location.js";
import type { PlacementSyncStatus, Report, ReportPlacement, ResourceOwner } from "../core/schema.js";
import type { DemoSheet, DemoWorkbook } from "./demo-workbook.js";
import { readQuery } from "./query.js";
import { toSql } from "./sql.js";

/** Durations in minutes, as `refreshedMinutesAgo` counts. */
export const HOUR = 60;
export const DAY = 24 * HOUR;
const MINUTE_MS = 60_000;

export interface DemoUser {
  id: number;
  email: string;
  firstName: string | null;
  picture: string | null;
}

interface PlaceOptions {
  workbook: DemoWorkbook;
  sheet: string;
  /** "B2:F8": the anchor and the last cell written. */
  range: string;
  status: PlacementSyncStatus;
  /** The report's current query checksum, to derive the placement's from `status`. */
  current: string;
  id?: string;
  refreshedMinutesAgo: number;
  by: number;
  /** Older forms: "no-sheet-id" stores only the sheet name; "location-only" only `resultLocation`. */
  form?: "full" | "no-sheet-id" | "location-only";
}

interface ReportOptions {
  id: number;
  deploymentId: number;
  name: string;
  by: number;
  description?: string;
  placements?: (current: string) => ReportPlacement[];
  /** The report's data-API query (its `jsonQuery`; its `sqlQuery` is written from it). */
  query: Record<string, unknown>;
  /** A pivot layout: rows, one column member, one measure (the flat layout when absent). */
  pivot?: { rows: string[]; columns: string[]; measures: string[] };
  extra?: Partial<Report>;
}

export interface DemoReportBuilder {
  place(o: PlaceOptions): ReportPlacement;
  report(o: ReportOptions): Report;
}

function sheet(workbook: DemoWorkbook, name: string): DemoSheet {
  const found = workbook.sheets.find((s) => s.name === name);
  if (!found) throw new Error(`demo: no sheet "${name}" in ${workbook.name}`);
  return found;
}

/** Builders whose timestamps count back from `reference` and whose owners are `users`. */
export function demoReportBuilder(reference: Date, users: readonly DemoUser[]): DemoReportBuilder {
  const referenceMs = reference.getTime();
  /** An ISO timestamp `minutes` before the reference moment. */
  const ago = (minutes: number) => new Date(referenceMs - minutes * MINUTE_MS).toISOString();
  const owner = (id: number): ResourceOwner => {
    const u = users.find((x) => x.id === id)!;
    return { id: u.id, email: u.email, firstName: u.firstName, picture: u.picture };
  };

  /**
   * One placement as the service stores it. The sheet name is the one the sheet had when placed
   * (`placedAs`), the sheet id the one it had then (`recreated.previousId`).
   */
  function place(o: PlaceOptions): ReportPlacement {
    const s = sheet(o.workbook, o.sheet);
    const storedName = s.placedAs ?? s.name;
    const storedId = s.recreated?.previousId ?? s.id;
    const [anchor, end] = o.range.split(":") as [string, string];
    const queryChecksum =
      o.status === "UP_TO_DATE" ? o.current : o.status === "CHANGED" ? `${o.current}-previous` : null;
    const form = o.form ?? "full";
    const p: ReportPlacement = {
      workbookId: o.workbook.id,
      resultLocation: `${quoteSheetName(storedName)}!${anchor}`,
      endResultCell: end,
      host: o.workbook.host,
      workbookName: o.workbook.name,
      placedAt: ago(o.refreshedMinutesAgo + 30 * DAY),
      placedByUserId: o.by,
      refreshedAt: ago(o.refreshedMinutesAgo),
      refreshedByUserId: o.by,
      syncStatus: o.status,
      queryChecksum,
    };
    if (o.id) p.id = o.id;
    if (form !== "location-only") {
      p.sheetName = storedName;
      p.anchorCell = anchor;
    }
    if (form === "full") p.sheetId = storedId;
    return p;
  }

  function report(o: ReportOptions): Report {
    const current = `q${o.id}-v3`;
    const r: Report = {
      id: o.id,
      publicId: `DemoRpt${String(o.id).padStart(5, "0")}`,
      deploymentId: o.deploymentId,
      userId: o.by,
      user: owner(o.by),
      name: o.name,
      title: o.name,
      description: o.description ?? null,
      refreshedByUser: owner(o.by),
      refreshedBy: o.by,
      createdBy: o.by,
      createdAt: ago(120 * DAY + o.id),
      updatedAt: ago(10 * DAY + o.id),
      type: "REPORT",
      source: "EXCEL",
      canEdit: true,
      canManage: o.by === 11,
      currentQueryChecksum: current,
      jsonQuery: JSON.stringify(o.query),
      sqlQuery: toSql(readQuery(o.query)),
      folderId: o.deploymentId === 1 ? 5 : 9,
      folderPath: o.deploymentId === 1 ? [{ id: 5, name: "Finance" }] : [{ id: 9, name: "Operations" }],
      version: 3,
      workbookId: null,
      meta: null,
      ...(o.pivot ? { pivotItems: { ...o.pivot, filters: [], measuresAxis: "columns" as const } } : {}),
      ...o.extra,
    };
    if (o.placements) r.externalWorkbookPlacements = o.placements(current);
    return r;
  }

  return { place, report };
}
