/**
 * groupBySheet orders each sheet's placements by their top-left cell, read once per placement: the
 * order must be the one a plain sort by (top row, left column) gives, list order among equals and
 * placements without a range last, for any list.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placementRange } from "../../src/core/placement-fields.js";
import { groupBySheet, type PlacedReport, placedReports } from "../../src/core/placement-view.js";
import type { ReportPlacement } from "../../src/core/schema.js";
import { fullReport } from "./fixtures.js";

/** The order by top row, then left column, stable; no range last (what groupBySheet promises). */
function byTopLeft(list: readonly PlacedReport[]): PlacedReport[] {
  const corner = (p: PlacedReport) => {
    const r = placementRange(p);
    return r ? [r.top, r.left] : [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];
  };
  return [...list].sort((a, b) => {
    const [ar, ac] = corner(a) as [number, number];
    const [br, bc] = corner(b) as [number, number];
    return ar - br || ac - bc;
  });
}

const cell = fc
  .tuple(fc.constantFrom("A", "B", "Z", "AA", "XFD"), fc.constantFrom(1, 2, 3, 40, 1_048_576, 10_000_000))
  .map(([c, r]) => `${c}${r}`);

const anyPlacement: fc.Arbitrary<ReportPlacement> = fc
  .record({
    sheet: fc.constantFrom("Sales", "Notes", "Gone"),
    anchor: fc.oneof(cell, fc.constant("nowhere")),
    end: fc.option(cell),
  })
  .map(({ sheet, anchor, end }) => ({
    workbookId: "wb-1",
    sheetName: sheet,
    resultLocation: `${sheet}!${anchor}`,
    anchorCell: anchor,
    ...(end ? { endResultCell: end } : {}),
  }));

describe("groupBySheet", () => {
  it("orders each sheet's placements by top row, then left column, list order among equals", () => {
    const sheets = [
      { id: "s1", name: "Sales" },
      { id: "s2", name: "Notes" },
    ];
    fc.assert(
      fc.property(fc.array(anyPlacement, { maxLength: 40 }), (list) => {
        const placed = placedReports([fullReport({ externalWorkbookPlacements: list })]);
        const groups = groupBySheet(placed, sheets);
        for (const group of groups) {
          const members = placed.filter((p) => group.placements.some((g) => g.placement === p));
          const at = (p: PlacedReport) => placed.indexOf(p);
          expect(group.placements.map((g) => at(g.placement))).toEqual(byTopLeft(members).map(at));
        }
        expect(groups.flatMap((g) => g.placements)).toHaveLength(placed.length);
      }),
      { numRuns: 1000 },
    );
  });
});
