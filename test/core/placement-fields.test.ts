/**
 * `placementRange` reads a placement's cells without writing them out as text and parsing them
 * again: it must answer what `rangeOf(placementAnchor(p), placementEnd(p))` answers, for any
 * placement the service may send (plain cells, `$` and lower case, sheet-qualified ranges, spaces,
 * cells out of a worksheet, nothing usable).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rangeOf } from "../../src/core/location.js";
import { placementAnchor, placementEnd, placementRange } from "../../src/core/placement-fields.js";
import type { ReportPlacement } from "../../src/core/schema.js";

/** The range as the fields' own functions describe it. */
function byFields(p: ReportPlacement) {
  const anchor = placementAnchor(p);
  return anchor ? rangeOf(anchor, placementEnd(p)) : null;
}

const column = fc.constantFrom("A", "b", "Z", "AA", "xfd", "XFE", "AAAA");
const row = fc.constantFrom("0", "1", "2", "40", "1048576", "10000000", "10000001", "123456789");
const cell = fc
  .tuple(fc.boolean(), column, fc.boolean(), row)
  .map(([d1, c, d2, r]) => `${d1 ? "$" : ""}${c}${d2 ? "$" : ""}${r}`);
const sheet = fc.constantFrom("", "Sales!", "'Q1 Sales'!", "'It''s'!", "Bad'!", "Sheet 1!");
const location = fc.oneof(
  cell,
  fc.tuple(sheet, cell).map(([s, c]) => s + c),
  fc.tuple(sheet, cell, cell).map(([s, a, b]) => `${s}${a}:${b}`),
  fc.tuple(fc.constantFrom(" ", "  ", ""), cell, fc.constantFrom(" ", "")).map(([a, c, b]) => a + c + b),
  fc.constantFrom("", "B2:", ":B2", "B2:C3:D4", "!", "Sales!", "B 2"),
  fc.string({ maxLength: 8 }),
);
const optional = fc.option(location, { nil: undefined });
const nullable = fc.oneof(optional, fc.constant(null));

const anyPlacement: fc.Arbitrary<ReportPlacement> = fc
  .record({ resultLocation: location, anchorCell: nullable, endResultCell: nullable })
  .map(({ resultLocation, anchorCell, endResultCell }) => ({
    workbookId: "wb",
    resultLocation,
    ...(anchorCell === undefined ? {} : { anchorCell }),
    ...(endResultCell === undefined ? {} : { endResultCell }),
  }));

describe("placementRange", () => {
  it("is the range from placementAnchor to placementEnd, for generated placements", () => {
    fc.assert(
      fc.property(anyPlacement, (p) => {
        expect(placementRange(p)).toEqual(byFields(p));
      }),
      { numRuns: 5000 },
    );
  });

  it("reads the usual forms", () => {
    const p = (fields: Partial<ReportPlacement>) => ({
      workbookId: "wb",
      resultLocation: "Sales!B2",
      ...fields,
    });
    expect(placementRange(p({ anchorCell: "B2", endResultCell: "E3" }))).toEqual({
      top: 2,
      left: 2,
      bottom: 3,
      right: 5,
    });
    expect(placementRange(p({ anchorCell: "$c$4", endResultCell: "'Q1 Sales'!A1:B2" }))).toEqual({
      top: 2,
      left: 2,
      bottom: 4,
      right: 3,
    });
    expect(placementRange(p({ resultLocation: "'It''s'!D5:B3" }))).toEqual({
      top: 3,
      left: 2,
      bottom: 5,
      right: 4,
    });
    expect(placementRange(p({ resultLocation: "nowhere" }))).toBeNull();
    // Read once: the same frozen range each time.
    const once = p({ anchorCell: "B2" });
    expect(placementRange(once)).toBe(placementRange(once));
    expect(Object.isFrozen(placementRange(once))).toBe(true);
  });
});
