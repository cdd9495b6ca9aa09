/**
 * A placement's fields as the service may send them: its sheet, anchor and end cell, from the
 * newer fields or, for older placements, from `resultLocation`; and a report's placements, from
 * `externalWorkbookPlacements` or the older top-level fields. Read by placements.ts (the disconnect
 * rules) and display.ts (how a placement is shown).
 */
import { type CellRange, normalizeCell, parseCell, parseLocation, rangeBetween } from "./location.js";
import type { Report, ReportPlacement } from "./schema.js";

/**
 * The report's placements. A report that only has the older top-level fields
 * (`externalWorkbookId` + `resultLocation` [+ `endResultCell`]) and no `externalWorkbookPlacements`
 * yields one placement built from them.
 */
export function placementsOf(report: Report): ReportPlacement[] {
  if (report.externalWorkbookPlacements != null) return report.externalWorkbookPlacements;
  if (report.externalWorkbookId && report.resultLocation) {
    return [
      {
        workbookId: report.externalWorkbookId,
        resultLocation: report.resultLocation,
        endResultCell: report.endResultCell ?? null,
        host: report.source === "EXCEL" || report.source === "GOOGLE_SHEETS" ? report.source : null,
      },
    ];
  }
  return [];
}

/** The sheet name a placement stores: its `sheetName`, or for older placements the one in `resultLocation`. */
export function placementSheetName(p: ReportPlacement): string | null {
  if (p.sheetName) return p.sheetName;
  return parseLocation(p.resultLocation)?.sheetName ?? null;
}

/** The anchor cell ("B2"): `anchorCell`, or for older placements the first cell of `resultLocation`. */
export function placementAnchor(p: ReportPlacement): string | null {
  if (p.anchorCell) {
    const anchor = normalizeCell(p.anchorCell) ?? parseLocation(p.anchorCell)?.start;
    if (anchor) return anchor;
  }
  return parseLocation(p.resultLocation)?.start ?? null;
}

/** The last cell of the written range, or null when only the anchor is known. */
export function placementEnd(p: ReportPlacement): string | null {
  if (p.endResultCell) {
    const loc = parseLocation(p.endResultCell);
    if (loc) return loc.end ?? loc.start;
  }
  return parseLocation(p.resultLocation)?.end ?? null;
}

/**
 * Each placement's range, read once: a list of 20,000 placements is grouped, sorted and indexed by
 * range on every load, and a placement (as the service answered it) does not change. Frozen, so a
 * caller cannot change what the others read.
 */
const ranges = new WeakMap<ReportPlacement, Readonly<CellRange> | null>();

const cellOf = (text: string | null | undefined) => (text ? parseCell(text) : null);

/**
 * The cells a placement covers: anchor to end cell, or the anchor alone. The same as
 * `rangeOf(placementAnchor(p), placementEnd(p))`, read without writing the cells out as text and
 * parsing them again (test/core/placement-fields.test.ts).
 */
export function placementRange(p: ReportPlacement): Readonly<CellRange> | null {
  let range = ranges.get(p);
  if (range === undefined) {
    // The usual placement names its anchor and end as cells ("B2"): read as they are, which is
    // what placementAnchor and placementEnd make of a cell. Otherwise (a sheet or a range in them,
    // or none) their readings, parsed back.
    const a = cellOf(p.anchorCell) ?? cellOf(placementAnchor(p));
    const b = a && (cellOf(p.endResultCell) ?? cellOf(placementEnd(p)) ?? a);
    range = a && b ? Object.freeze(rangeBetween(a, b)) : null;
    ranges.set(p, range);
  }
  return range;
}
