/**
 * findPlacementAt over 2,000 placements (the real service's cap per document), the list indexed as
 * the pane indexes a long list (placement-index.ts), against a linear scan of the same list (what
 * findPlacementAt does for a list it has no index of). The budget (design.md): independent of the
 * number of placements.
 */

import { parseCell, rangeContains } from "../src/core/location.js";
import { indexPlacements } from "../src/core/placement-index.js";
import {
  findPlacementAt,
  type PlacementAt,
  placementRange,
  placementSheetName,
} from "../src/core/placements.js";
import type { ReportPlacement } from "../src/core/schema.js";

function makePlacements(n: number): ReportPlacement[] {
  return Array.from({ length: n }, (_, i) => ({
    workbookId: "wb-1",
    resultLocation: `S${i % 20}!A${Math.floor(i / 20) * 12 + 1}`,
    id: `p${i}`,
    sheetId: `s${i % 20}`,
    sheetName: `S${i % 20}`,
    anchorCell: `B${Math.floor(i / 20) * 12 + 1}`,
    endResultCell: `F${Math.floor(i / 20) * 12 + 10}`,
  }));
}

function linearScan(placements: readonly ReportPlacement[], at: PlacementAt): ReportPlacement | undefined {
  const cell = parseCell(at.cell)!;
  return placements.find((p) => {
    if (p.workbookId !== at.workbookId) return false;
    const sameSheet =
      p.sheetId && at.sheetId ? p.sheetId === at.sheetId : placementSheetName(p) === at.sheetName;
    const range = placementRange(p);
    return sameSheet && range !== null && rangeContains(range, cell);
  });
}

function opsPerSecond(fn: (i: number) => unknown, ms = 400): number {
  let n = 0;
  const start = performance.now();
  let sink = 0;
  while (performance.now() - start < ms) {
    for (let k = 0; k < 100; k++) if (fn(n++)) sink++;
  }
  if (sink < 0) console.log(sink);
  return n / ((performance.now() - start) / 1000);
}

export async function run(): Promise<void> {
  for (const n of [20, 2000]) {
    const placements = makePlacements(n);
    const probes: PlacementAt[] = Array.from({ length: 256 }, (_, i) => ({
      workbookId: "wb-1",
      sheetId: `s${i % 20}`,
      sheetName: `S${i % 20}`,
      cell: `C${((i * 37) % (Math.ceil(n / 20) * 12)) + 1}`,
    }));
    indexPlacements(placements); // once, as the pane does for a long list when idle
    const indexed = opsPerSecond((i) => findPlacementAt(placements, probes[i & 255]!));
    const linear = opsPerSecond((i) => linearScan(placements, probes[i & 255]!));
    console.log(
      `findPlacementAt, ${n} placements: ${(indexed / 1e6).toFixed(2)} M lookups/s (${(1e6 / indexed).toFixed(2)} µs each) vs linear scan ${(linear / 1e3).toFixed(1)} k/s: ${(indexed / linear).toFixed(0)}x`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
