/**
 * The service's side of the placement address (disconnect rules 1-10, and the same address for
 * refresh and connect-workbook, platform-api.md part C), written here from the spec rather than
 * imported from the client's core: the sandbox stands in for the service, so when the two readings
 * differ a test between them shows it (test/sandbox/placement-rules.test.ts).
 *
 * Only the A1 parsing of `location.ts` is shared: it is notation, not a rule of the service.
 */
import { normalizeCell, parseLocation } from "../core/location.js";
import type { Report, ReportPlacement } from "../core/schema.js";

/** A placement address: what disconnect, refresh and connect-workbook bodies send. */
export interface PlacementAddress {
  placementId?: string | null | undefined;
  externalWorkbookId?: string | null | undefined;
  sheetName?: string | null | undefined;
  anchorCell?: string | null | undefined;
  resultLocation?: string | null | undefined;
  sheetId?: string | null | undefined;
}

/**
 * A report's placements as the service keeps them: `externalWorkbookPlacements`, or for a report
 * with only the older top-level fields (`externalWorkbookId` + `resultLocation`) the one placement
 * they describe.
 */
export function storedPlacements(report: Report): ReportPlacement[] {
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

/** True when the report keeps its one placement in the older top-level fields. */
export function usesTopLevelPlacement(report: Report): boolean {
  return report.externalWorkbookPlacements == null && storedPlacements(report).length === 1;
}

/** The sheet name a placement is stored under: `sheetName`, else the sheet of `resultLocation`. */
function storedSheetName(p: ReportPlacement): string | null {
  if (p.sheetName) return p.sheetName;
  return parseLocation(p.resultLocation)?.sheetName ?? null;
}

/** The anchor a placement is stored at ("B2"): `anchorCell`, else the first cell of `resultLocation`. */
function storedAnchor(p: ReportPlacement): string | null {
  if (p.anchorCell) {
    const cell = normalizeCell(p.anchorCell) ?? parseLocation(p.anchorCell)?.start ?? null;
    if (cell) return cell;
  }
  return parseLocation(p.resultLocation)?.start ?? null;
}

/**
 * Sheet + anchor an address names (rules 2-4): `sheetName` + `anchorCell` when both are sent, else a
 * `resultLocation` that names both; null when the address names no complete spot.
 */
function namedSpot(address: PlacementAddress): { sheetName: string; anchor: string } | null {
  if (address.sheetName && address.anchorCell) {
    const anchor = normalizeCell(address.anchorCell) ?? parseLocation(address.anchorCell)?.start;
    return anchor ? { sheetName: address.sheetName, anchor } : null;
  }
  if (address.resultLocation) {
    const location = parseLocation(address.resultLocation);
    if (location?.sheetName) return { sheetName: location.sheetName, anchor: location.start };
  }
  return null;
}

/**
 * The indexes (into `placements`) of the placements an address names:
 * 1. `placementId` names the placement with that id, whatever else is sent;
 * 2./3. otherwise `externalWorkbookId` with a sheet and anchor (as `sheetName` + `anchorCell`, or a
 *    `resultLocation` naming both); 4. without both, nothing;
 * 5. `sheetId` never stands in for the sheet name; 6. when sent, it rules out placements stored
 *    under another sheet id (placements stored without one still match by name).
 */
export function addressedIndexes(
  placements: readonly ReportPlacement[],
  address: PlacementAddress,
): number[] {
  const out: number[] = [];
  if (address.placementId) {
    placements.forEach((p, i) => {
      if (p.id === address.placementId) out.push(i);
    });
    return out;
  }
  if (!address.externalWorkbookId) return out;
  const spot = namedSpot(address);
  if (!spot) return out;
  placements.forEach((p, i) => {
    if (p.workbookId !== address.externalWorkbookId) return;
    if (storedSheetName(p) !== spot.sheetName || storedAnchor(p) !== spot.anchor) return;
    if (address.sheetId && p.sheetId && p.sheetId !== address.sheetId) return;
    out.push(i);
  });
  return out;
}

/**
 * The one placement an address names, as its index, or null when it names none or more than one
 * (an address that could mean two placements acts on neither: the sandbox's decision, docs/sandbox.md).
 */
export function addressedPlacement(
  placements: readonly ReportPlacement[],
  address: PlacementAddress,
): number | null {
  const found = addressedIndexes(placements, address);
  return found.length === 1 ? found[0]! : null;
}

/**
 * Disconnect (rules 8-10): the report without the one placement the address names; the same report
 * object when it names none (rule 9). The definition is never touched.
 */
export function withoutPlacement(report: Report, address: PlacementAddress): Report {
  const placements = storedPlacements(report);
  const index = addressedPlacement(placements, address);
  if (index === null) return report;
  if (report.externalWorkbookPlacements == null) {
    return { ...report, externalWorkbookId: null, resultLocation: null, endResultCell: null };
  }
  return { ...report, externalWorkbookPlacements: placements.filter((_, i) => i !== index) };
}
