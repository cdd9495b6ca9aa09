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
// Finding the placement under a cell: an index per workbook and sheet, built once per list.

interface Entry<P> {
  placement: P;
  order: number;
  range: CellRange;
}

interface SheetIndex<P> {
  /** Entries sorted by top row, with the running maximum of bottom rows for early exit. */
  entries: Entry<P>[];
  maxBottom: number[];
}

interface WorkbookIndex<P> {
  /** Placements that store a sheet id, by that id. */
  bySheetId: Map<string, SheetIndex<P>>;
  /** Placements without a sheet id, by sheet name. */
  byNameWithoutId: Map<string, SheetIndex<P>>;
  /** Every placement, by sheet name: used when the caller knows no sheet id. */
  byName: Map<string, SheetIndex<P>>;
}

interface PlacementIndex<P extends ReportPlacement> {
  /** The placement covering `at.cell`, or undefined. */
  at(at: PlacementAt): P | undefined;
}

function buildSheetIndex<P>(entries: Entry<P>[]): SheetIndex<P> {
  entries.sort((a, b) => a.range.top - b.range.top || a.order - b.order);
  const maxBottom: number[] = [];
  let max = 0;
  for (const e of entries) {
    max = Math.max(max, e.range.bottom);
    maxBottom.push(max);
  }
  return { entries, maxBottom };
}

function searchSheet<P>(index: SheetIndex<P> | undefined, row: number, col: number): Entry<P> | undefined {
  if (!index) return undefined;
  const { entries, maxBottom } = index;
  // Last entry whose top row is <= row.
  let lo = 0;
  let hi = entries.length - 1;
  let last = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.range.top <= row) {
      last = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  let best: Entry<P> | undefined;
  for (let i = last; i >= 0 && maxBottom[i]! >= row; i--) {
    const e = entries[i]!;
    if (rangeContains(e.range, { row, col }) && (!best || e.order < best.order)) best = e;
  }
  return best;
}

function pushTo<P>(map: Map<string, Entry<P>[]>, key: string, entry: Entry<P>) {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function finish<P>(map: Map<string, Entry<P>[]>): Map<string, SheetIndex<P>> {
  const out = new Map<string, SheetIndex<P>>();
  for (const [k, v] of map) out.set(k, buildSheetIndex(v));
  return out;
}

/** Builds the lookup index over a list of placements. */
function createPlacementIndex<P extends ReportPlacement>(placements: readonly P[]): PlacementIndex<P> {
  const raw = new Map<
    string,
    {
      bySheetId: Map<string, Entry<P>[]>;
      byNameWithoutId: Map<string, Entry<P>[]>;
      byName: Map<string, Entry<P>[]>;
    }
  >();
  placements.forEach((placement, order) => {
    const range = placementRange(placement);
    const name = placementSheetName(placement);
    if (!range) return;
    let wb = raw.get(placement.workbookId);
    if (!wb) {
      wb = { bySheetId: new Map(), byNameWithoutId: new Map(), byName: new Map() };
      raw.set(placement.workbookId, wb);
    }
    const entry = { placement, order, range };
    if (placement.sheetId) pushTo(wb.bySheetId, placement.sheetId, entry);
    if (name !== null) {
      pushTo(wb.byName, name, entry);
      if (!placement.sheetId) pushTo(wb.byNameWithoutId, name, entry);
    }
  });
  const index = new Map<string, WorkbookIndex<P>>();
  for (const [id, wb] of raw) {
    index.set(id, {
      bySheetId: finish(wb.bySheetId),
      byNameWithoutId: finish(wb.byNameWithoutId),
      byName: finish(wb.byName),
    });
  }

  return {
    at(at) {
      const wb = index.get(at.workbookId);
      const cell = parseCell(at.cell);
      if (!wb || !cell) return undefined;
      let found: Entry<P> | undefined;
      if (at.sheetId) {
        // Same sheet means the same sheet id when both sides have one: a renamed sheet still
        // matches, a sheet recreated under the same name (a new id) does not. A placement without
        // a sheet id falls back to the sheet name.
        const byId = searchSheet(wb.bySheetId.get(at.sheetId), cell.row, cell.col);
        const byName = searchSheet(wb.byNameWithoutId.get(at.sheetName), cell.row, cell.col);
        found = byId && byName ? (byId.order < byName.order ? byId : byName) : (byId ?? byName);
      } else {
        found = searchSheet(wb.byName.get(at.sheetName), cell.row, cell.col);
      }
      return found?.placement;
    },
  };
}

const cachedIndexes = new WeakMap<readonly ReportPlacement[], PlacementIndex<ReportPlacement>>();

/**
 * The placement of `at.workbookId` whose range covers `at.cell` on the same sheet, or undefined.
 * When ranges overlap, the first in the list wins. The index is built once per array and cached:
 * treat the array as immutable (build a new one when placements change).
 */
export function findPlacementAt<P extends ReportPlacement>(
  placements: readonly P[],
  at: PlacementAt,
): P | undefined {
  let index = cachedIndexes.get(placements) as PlacementIndex<P> | undefined;
  if (!index) {
    index = createPlacementIndex(placements);
    cachedIndexes.set(placements, index as unknown as PlacementIndex<ReportPlacement>);
  }
  return index.at(at);
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
