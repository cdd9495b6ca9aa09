/**
 * Placements: where a report stands in a spreadsheet (one sheet + anchor cell in one workbook).
 *
 * The client's reading of the disconnect rules (platform-api.md, disconnect rules 1-10):
 * - which placement is under the active cell (`findPlacementAt`) and the input that removes exactly
 *   that one (`toDisconnectInput`);
 * - the client's model of how the service reads an input: which placements it selects
 *   (`selectPlacements`) and what a disconnect leaves (`applyDisconnect`), against which the
 *   property tests check that every input the client sends selects exactly its placement.
 * The service's own side is not this model: the sandbox implements it separately from the spec
 * (src/sandbox/placement-rules.ts), and test/sandbox/placement-rules.test.ts runs the same
 * addresses through both, so a wrong rule here fails against the sandbox instead of agreeing with
 * itself.
 */
import { type CellRange, normalizeCell, parseCell, parseLocation, rangeContains } from "./location.js";
import { placementAnchor, placementRange, placementSheetName, placementsOf } from "./placement-fields.js";
import type { DisconnectInput, Report, ReportPlacement } from "./schema.js";

/** Where the user is: the active cell of a sheet of a workbook. */
export interface PlacementAt {
  workbookId: string;
  /** The sheet's id in its host, when the host has one. */
  sheetId?: string | null;
  sheetName: string;
  /** A1 address of the cell: "B2" (a "$" or lower case is accepted). */
  cell: string;
}

export { describePlacement } from "./display.js";
// The placement's fields (placement-fields.ts) and how the pane shows one (display.ts), here too:
// this module is where the rest of the code finds everything about placements.
export {
  placementAnchor,
  placementEnd,
  placementRange,
  placementSheetName,
  placementsOf,
} from "./placement-fields.js";

// ---------------------------------------------------------------------------------------------
// Finding the placement under a cell.

/**
 * Lookups built for a list (placement-index.ts, `indexPlacements`: a list the user clicks through),
 * by the list. Most lists are asked about once (a command, a plan), and going through a list once
 * is cheaper than indexing it, so the index is not built here.
 */
const lookups = new WeakMap<readonly ReportPlacement[], (at: PlacementAt) => ReportPlacement | undefined>();

/** Makes `lookup` answer findPlacementAt for `placements` (placement-index.ts). */
export function keepPlacementLookup(
  placements: readonly ReportPlacement[],
  lookup: (at: PlacementAt) => ReportPlacement | undefined,
): void {
  lookups.set(placements, lookup);
}

/** A range that contains no cell. */
const NO_CELLS: CellRange = { top: 1, left: 1, bottom: 0, right: 0 };

/**
 * The placement of `at.workbookId` whose range covers `at.cell` on the same sheet, or undefined.
 * Same sheet means the same sheet id when both sides have one: a renamed sheet still matches, a
 * sheet recreated under the same name (a new id) does not; a placement without a sheet id, or a
 * caller without one, goes by the sheet name. When ranges overlap, the first in the list wins.
 * Goes through the list, or asks its index when one was built (`indexPlacements`).
 */
export function findPlacementAt<P extends ReportPlacement>(
  placements: readonly P[],
  at: PlacementAt,
): P | undefined {
  const indexed = lookups.get(placements);
  if (indexed) return indexed(at) as P | undefined;
  const cell = parseCell(at.cell);
  return cell
    ? placements.find(
        (p) =>
          p.workbookId === at.workbookId &&
          (at.sheetId && p.sheetId ? p.sheetId === at.sheetId : placementSheetName(p) === at.sheetName) &&
          rangeContains(placementRange(p) ?? NO_CELLS, cell),
      )
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// The disconnect input (client side).

/**
 * The body for DELETE connect-workbook that removes exactly `placement` (disconnect rules 1-7).
 *
 * - Rule 1: a placement with an id is addressed by `{placementId}` alone.
 * - Rule 2: otherwise by `externalWorkbookId` + `sheetName` + `anchorCell`, taken from the
 *   placement, or for older placements from its `resultLocation`. The sheet name is the one the
 *   placement stores, even when the sheet has since been renamed: the service matches stored names.
 * - Rule 3: when no sheet name or anchor can be known, by `externalWorkbookId` + `resultLocation`.
 * - Rules 5-7: `sheetId` is added only when the placement stores one and it equals the sheet the
 *   user is on (`at.sheetId`): it then narrows the match. When they differ (a tab deleted and
 *   recreated under the same name) no sheet id is sent, and the stored name addresses it.
 */
export function toDisconnectInput(placement: ReportPlacement, at?: Partial<PlacementAt>): DisconnectInput {
  if (placement.id) return { placementId: placement.id };
  const sheetName = placementSheetName(placement);
  const anchorCell = placement.anchorCell || placementAnchor(placement);
  const narrow =
    placement.sheetId && at?.sheetId && at.sheetId === placement.sheetId ? placement.sheetId : null;
  if (sheetName && anchorCell) {
    const input: DisconnectInput = { externalWorkbookId: placement.workbookId, sheetName, anchorCell };
    if (narrow) input.sheetId = narrow;
    return input;
  }
  const input: DisconnectInput = {
    externalWorkbookId: placement.workbookId,
    resultLocation: placement.resultLocation,
  };
  if (narrow) input.sheetId = narrow;
  return input;
}

// ---------------------------------------------------------------------------------------------
// The service's side of disconnect rules 1-10.

/** Sheet + anchor an input addresses (forms 2 and 3), or null when it names no complete target. */
function addressedSpot(input: DisconnectInput): { sheetName: string; anchor: string } | null {
  if (input.sheetName && input.anchorCell) {
    const anchor = normalizeCell(input.anchorCell) ?? parseLocation(input.anchorCell)?.start;
    return anchor ? { sheetName: input.sheetName, anchor } : null;
  }
  if (input.resultLocation) {
    const loc = parseLocation(input.resultLocation);
    // Rule 4: the location must name both the sheet and the anchor.
    if (loc?.sheetName) return { sheetName: loc.sheetName, anchor: loc.start };
  }
  return null;
}

/**
 * The placements a disconnect input selects, in the order given (disconnect rules 1-7):
 * 1. `placementId` selects the placement with that id, whatever else is sent.
 * 2./3. Otherwise `externalWorkbookId` plus a sheet name and anchor, given as `sheetName` +
 *    `anchorCell` or as a `resultLocation` naming both. 4. A target missing either selects nothing.
 * 5./6. `sheetId` never replaces the name; when sent it excludes placements stored under another
 *    sheet id (placements stored before sheet ids existed are still matched by name).
 */
export function selectPlacements<P extends ReportPlacement>(
  placements: readonly P[],
  input: DisconnectInput,
): P[] {
  if (input.placementId) return placements.filter((p) => p.id === input.placementId);
  if (!input.externalWorkbookId) return [];
  const spot = addressedSpot(input);
  if (!spot) return [];
  return placements.filter(
    (p) =>
      p.workbookId === input.externalWorkbookId &&
      placementSheetName(p) === spot.sheetName &&
      placementAnchor(p) === spot.anchor &&
      !(input.sheetId && p.sheetId && p.sheetId !== input.sheetId),
  );
}

export interface DisconnectOutcome {
  /** The report after the call: the same object when nothing was removed. */
  report: Report;
  /** The placement removed, or null when the input matched none (rule 9) or more than one. */
  removed: ReportPlacement | null;
  /** How many placements the input selected. */
  matched: number;
}

/**
 * What a disconnect does to a report (rules 8-10): removes the one placement the input selects and
 * nothing else; changes nothing when it selects none. Where the spec is silent, an input that
 * selects more than one placement removes none: removing one of them at random could take out a
 * placement the caller did not mean. The report's definition is never touched (rule 10).
 */
export function applyDisconnect(report: Report, input: DisconnectInput): DisconnectOutcome {
  const placements = placementsOf(report);
  const selected = selectPlacements(placements, input);
  if (selected.length !== 1) return { report, removed: null, matched: selected.length };
  const removed = selected[0]!;
  if (report.externalWorkbookPlacements == null) {
    // The placement came from the older top-level fields: clear them.
    return {
      report: { ...report, externalWorkbookId: null, resultLocation: null, endResultCell: null },
      removed,
      matched: 1,
    };
  }
  return {
    report: { ...report, externalWorkbookPlacements: placements.filter((p) => p !== removed) },
    removed,
    matched: 1,
  };
}
