/**
 * The lookup index of a list of placements the user clicks through (the pane's list: a selection
 * change asks which placement is under the new cell). findPlacementAt (placements.ts) goes through
 * a list, which for one question is cheaper than indexing it; a list asked again and again (20,000
 * placements, a question per selection change) is indexed once here, apart from the pane's first
 * screen, and findPlacementAt then asks the index. Same answers either way
 * (test/core/placement-index.test.ts).
 */
import { type CellRange, parseCell, rangeContains } from "./location.js";
import { placementRange, placementSheetName } from "./placement-fields.js";
import { keepPlacementLookup } from "./placements.js";
import type { ReportPlacement } from "./schema.js";

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

/** A workbook's sheets' indexes. */
interface WorkbookIndex<P> {
  /** Placements that store a sheet id, by that id. */
  byId: Map<string, SheetIndex<P>>;
  /** Placements without a sheet id, by sheet name. */
  byNameWithoutId: Map<string, SheetIndex<P>>;
  /** Every placement, by sheet name: used when the caller knows no sheet id. */
  byName: Map<string, SheetIndex<P>>;
}

type Kind = keyof WorkbookIndex<unknown>;

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

/** The lookup index of a list of placements, by workbook id. */
function createPlacementIndex<P extends ReportPlacement>(
  placements: readonly P[],
): Map<string, WorkbookIndex<P>> {
  const lists = new Map<string, Record<Kind, Map<string, Entry<P>[]>>>();
  placements.forEach((placement, order) => {
    const range = placementRange(placement);
    if (!range) return;
    const name = placementSheetName(placement);
    const entry = { placement, order, range };
    if (!lists.has(placement.workbookId)) {
      lists.set(placement.workbookId, { byId: new Map(), byNameWithoutId: new Map(), byName: new Map() });
    }
    const wb = lists.get(placement.workbookId)!;
    const add = (kind: Kind, key: string) => {
      const list = wb[kind].get(key);
      if (list) list.push(entry);
      else wb[kind].set(key, [entry]);
    };
    if (placement.sheetId) add("byId", placement.sheetId);
    if (name !== null) {
      add("byName", name);
      if (!placement.sheetId) add("byNameWithoutId", name);
    }
  });
  const finish = (map: Map<string, Entry<P>[]>) =>
    new Map([...map].map(([key, entries]) => [key, buildSheetIndex(entries)] as const));
  const index = new Map<string, WorkbookIndex<P>>();
  for (const [id, wb] of lists) {
    index.set(id, {
      byId: finish(wb.byId),
      byNameWithoutId: finish(wb.byNameWithoutId),
      byName: finish(wb.byName),
    });
  }
  return index;
}

/**
 * Builds the lookup index of `placements` and makes findPlacementAt use it for this array, from now
 * on (treat the array as immutable: a changed list is a new array, indexed again if need be).
 */
export function indexPlacements(placements: readonly ReportPlacement[]): void {
  const index = createPlacementIndex(placements);
  keepPlacementLookup(placements, (at) => {
    const cell = parseCell(at.cell);
    const wb = index.get(at.workbookId);
    if (!cell || !wb) return undefined;
    if (!at.sheetId) return searchSheet(wb.byName.get(at.sheetName), cell.row, cell.col)?.placement;
    // A placement with this sheet id, or one without a sheet id on a sheet of this name: the first.
    const byId = searchSheet(wb.byId.get(at.sheetId), cell.row, cell.col);
    const byName = searchSheet(wb.byNameWithoutId.get(at.sheetName), cell.row, cell.col);
    return (byId && byName ? (byId.order < byName.order ? byId : byName) : (byId ?? byName))?.placement;
  });
}
