/**
 * The lookup index (placement-index.ts) answers findPlacementAt exactly as going through the list
 * does: generated lists of placements (overlapping ranges, sheets by id and by name only, older
 * placements with only resultLocation, other workbooks) asked about generated cells.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { placementRange } from "../../src/core/placement-fields.js";
import { indexPlacements } from "../../src/core/placement-index.js";
import { findPlacementAt, type PlacementAt } from "../../src/core/placements.js";
import type { ReportPlacement } from "../../src/core/schema.js";

const workbook = fc.constantFrom("wb-1", "wb-2");
const sheetId = fc.constantFrom(undefined, null, "", "s1", "s2");
const sheetName = fc.constantFrom(undefined, null, "Sales", "Notes", "Old Data");
const cell = fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 12 }));
const a1 = ([col, row]: [number, number]) => `${String.fromCharCode(64 + col)}${row}`;

const anyPlacement: fc.Arbitrary<ReportPlacement> = fc
  .record({
    workbookId: workbook,
    sheetId,
    sheetName,
    anchor: cell,
    end: fc.option(cell),
    older: fc.boolean(),
  })
  .map(({ workbookId, sheetId, sheetName, anchor, end, older }) => {
    const sheet = sheetName ?? "Sales";
    const range = end ? `${a1(anchor)}:${a1(end)}` : a1(anchor);
    // An older placement: sheet and range only in resultLocation.
    if (older) return { workbookId, resultLocation: `'${sheet}'!${range}` };
    return {
      workbookId,
      resultLocation: `'${sheet}'!${a1(anchor)}`,
      ...(sheetId === undefined ? {} : { sheetId }),
      ...(sheetName === undefined ? {} : { sheetName }),
      anchorCell: a1(anchor),
      ...(end ? { endResultCell: a1(end) } : {}),
    };
  });

const anyQuestion: fc.Arbitrary<PlacementAt> = fc.record({
  workbookId: workbook,
  sheetId: fc.constantFrom(undefined, null, "s1", "s2", "s3"),
  sheetName: fc.constantFrom("Sales", "Notes", "Old Data", "Other"),
  cell: fc.oneof(cell.map(a1), fc.constantFrom("$B$3", "c4", "not a cell")),
});

describe("indexPlacements", () => {
  it("answers every question as going through the list does", () => {
    fc.assert(
      fc.property(
        fc.array(anyPlacement, { maxLength: 30 }),
        fc.array(anyQuestion, { maxLength: 10 }),
        (list, questions) => {
          const indexed = [...list];
          indexPlacements(indexed);
          for (const q of questions) {
            const scanned = findPlacementAt(list, q);
            const found = findPlacementAt(indexed, q);
            expect(found).toBe(scanned);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("is what findPlacementAt asks from then on, for that array only", () => {
    const a: ReportPlacement = {
      workbookId: "wb-1",
      resultLocation: "Sales!B2",
      sheetId: "s1",
      sheetName: "Sales",
      anchorCell: "B2",
      endResultCell: "C3",
    };
    const list = [a];
    const question = { workbookId: "wb-1", sheetId: "s1", sheetName: "Sales", cell: "C3" };
    expect(placementRange(a)).not.toBeNull();
    indexPlacements(list);
    expect(findPlacementAt(list, question)).toBe(a);
    // The index was built from the list as it was: a list changed in place is not looked at again
    // (arrays are treated as immutable), so an answer from the index shows it was asked.
    list.pop();
    expect(findPlacementAt(list, question)).toBe(a);
    expect(findPlacementAt([...list], question)).toBeUndefined();
  });
});
