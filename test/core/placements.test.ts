import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyDisconnect,
  describePlacement,
  findPlacementAt,
  placementsOf,
  type Report,
  type ReportPlacement,
  selectPlacements,
  toDisconnectInput,
} from "../../src/core/index.js";
import { indexPlacements } from "../../src/core/placement-index.js";
import { fullReport, placement } from "./fixtures.js";

describe("placementsOf", () => {
  it("gives the report's placements", () => {
    expect(placementsOf(fullReport()).map((p) => p.id)).toEqual(["p1", "p2"]);
  });

  it("builds one placement from the older top-level fields when there are no placements", () => {
    const r = fullReport({
      externalWorkbookPlacements: undefined,
      externalWorkbookId: "wb-old",
      resultLocation: "'Q1 Sales'!C3",
      endResultCell: "E9",
    });
    const [only, ...rest] = placementsOf(r);
    expect(rest).toHaveLength(0);
    expect(only).toMatchObject({
      workbookId: "wb-old",
      resultLocation: "'Q1 Sales'!C3",
      endResultCell: "E9",
    });
    expect(describePlacement(only!)).toBe("'Q1 Sales'!C3:E9");
    expect(describePlacement(only!, "Sales 2024")).toBe("'Sales 2024'!C3:E9");
  });

  it("gives none for an empty list, whatever the older fields say", () => {
    expect(placementsOf(fullReport({ externalWorkbookPlacements: [] }))).toEqual([]);
  });
});

// Both ways of answering: going through the list, and the index a long list gets (placement-index.ts).
describe.each(["going through the list", "from its index"])("findPlacementAt, %s", (way) => {
  const copies = new Map<readonly ReportPlacement[], ReportPlacement[]>();
  /** The list as asked: itself, or an indexed copy of it (an index is kept per array). */
  const asked = (list: readonly ReportPlacement[]) => {
    if (way === "going through the list") return list;
    let copy = copies.get(list);
    if (!copy) {
      copy = [...list];
      indexPlacements(copy);
      copies.set(list, copy);
    }
    return copy;
  };
  const find = (list: readonly ReportPlacement[], where: Parameters<typeof findPlacementAt>[1]) =>
    findPlacementAt(asked(list), where);

  const placements = [
    placement({ id: "a", sheetId: "s1", sheetName: "Sales", anchorCell: "B2", endResultCell: "D5" }),
    placement({ id: "b", sheetId: "s1", sheetName: "Sales", anchorCell: "F2", endResultCell: "G3" }),
    placement({ id: "c", sheetName: "Notes", anchorCell: "A1" }),
    placement({
      id: "d",
      workbookId: "wb-2",
      sheetId: "s1",
      sheetName: "Sales",
      anchorCell: "B2",
      endResultCell: "D5",
    }),
    // An older placement: sheet and anchor only in resultLocation.
    { workbookId: "wb-1", resultLocation: "'Old Data'!B2", endResultCell: "C3" },
  ];
  const at = (cell: string, sheetName = "Sales", sheetId: string | null = "s1", workbookId = "wb-1") => ({
    workbookId,
    sheetId,
    sheetName,
    cell,
  });

  it("finds the placement whose range covers the cell, anchor to end cell", () => {
    expect(find(placements, at("B2"))?.id).toBe("a");
    expect(find(placements, at("D5"))?.id).toBe("a");
    expect(find(placements, at("c4"))?.id).toBe("a");
    expect(find(placements, at("$G$3"))?.id).toBe("b");
    expect(find(placements, at("E2"))).toBeUndefined();
    expect(find(placements, at("B6"))).toBeUndefined();
  });

  it("covers the anchor alone when there is no end cell", () => {
    expect(find(placements, at("A1", "Notes", "n1"))?.id).toBe("c");
    expect(find(placements, at("A2", "Notes", "n1"))).toBeUndefined();
  });

  it("only looks in the given workbook", () => {
    expect(find(placements, at("B2", "Sales", "s1", "wb-2"))?.id).toBe("d");
    expect(find(placements, at("B2", "Sales", "s1", "wb-3"))).toBeUndefined();
  });

  it("matches a renamed sheet by its id", () => {
    expect(find(placements, at("B2", "Revenue", "s1"))?.id).toBe("a");
  });

  it("does not match a sheet recreated under the same name with another id", () => {
    expect(find(placements, at("B2", "Sales", "s9"))).toBeUndefined();
  });

  it("falls back to the sheet name when either side has no sheet id", () => {
    expect(find(placements, at("B2", "Sales", null))?.id).toBe("a");
    expect(find(placements, at("C3", "Old Data", "x"))?.resultLocation).toBe("'Old Data'!B2");
  });

  it("answers over 2,000 placements", () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      placement({
        id: `m${i}`,
        sheetId: `s${i % 10}`,
        sheetName: `S${i % 10}`,
        anchorCell: `A${i * 10 + 1}`,
        endResultCell: `C${i * 10 + 5}`,
      }),
    );
    expect(find(many, at("B1993", "S9", "s9"))?.id).toBe("m199");
    expect(find(many, at("B1997", "S9", "s9"))).toBeUndefined();
    expect(find(many, at("C19995", "Renamed", "s9"))?.id).toBe("m1999");
  });
});

describe("toDisconnectInput (disconnect rules 1-7, client side)", () => {
  it("rule 1: a placement with an id is addressed by placementId alone", () => {
    expect(toDisconnectInput(placement({ id: "p1", sheetId: "s1" }), { sheetId: "s1" })).toEqual({
      placementId: "p1",
    });
  });

  it("rule 2: a placement without id is addressed by workbook, sheet name and anchor", () => {
    const p = placement({ sheetName: "Sales", anchorCell: "B2" });
    expect(toDisconnectInput(p)).toEqual({
      externalWorkbookId: "wb-1",
      sheetName: "Sales",
      anchorCell: "B2",
    });
  });

  it("rule 2: for older placements the sheet name and anchor come from resultLocation", () => {
    const p: ReportPlacement = { workbookId: "wb-1", resultLocation: "'Q1 Sales'!$C$3" };
    expect(toDisconnectInput(p)).toEqual({
      externalWorkbookId: "wb-1",
      sheetName: "Q1 Sales",
      anchorCell: "C3",
    });
  });

  it("rule 3: by resultLocation when no sheet name can be known", () => {
    const p: ReportPlacement = { workbookId: "wb-1", resultLocation: "C3" };
    expect(toDisconnectInput(p)).toEqual({ externalWorkbookId: "wb-1", resultLocation: "C3" });
  });

  it("rule 6: sends the sheet id when the placement stores it and it is the sheet the user is on", () => {
    const p = placement({ sheetId: "s1", sheetName: "Sales", anchorCell: "B2" });
    expect(toDisconnectInput(p, { sheetId: "s1" })).toEqual({
      externalWorkbookId: "wb-1",
      sheetName: "Sales",
      anchorCell: "B2",
      sheetId: "s1",
    });
  });

  it("rule 7: leaves the sheet id out when the sheet may have been recreated (another id)", () => {
    const p = placement({ sheetId: "s1", sheetName: "Sales", anchorCell: "B2" });
    expect(toDisconnectInput(p, { sheetId: "s2" })).not.toHaveProperty("sheetId");
    expect(toDisconnectInput(p)).not.toHaveProperty("sheetId");
  });

  it("rule 5: never a sheet id without a sheet name; the stored name even after a rename", () => {
    const p = placement({ sheetId: "s1", sheetName: "Sales", anchorCell: "B2" });
    const input = toDisconnectInput(p, { sheetId: "s1", sheetName: "Revenue" });
    expect(input.sheetName).toBe("Sales");
  });
});

describe("selectPlacements and applyDisconnect (disconnect rules 1-10, service side)", () => {
  const report = fullReport({
    externalWorkbookPlacements: [
      placement({ id: "p1", sheetId: "s1", sheetName: "Sales", anchorCell: "B2" }),
      placement({ id: "p2", sheetId: "s1", sheetName: "Sales", anchorCell: "H2" }),
      placement({ sheetName: "Legacy", anchorCell: "A1", sheetId: null }),
      { workbookId: "wb-1", resultLocation: "'Old Tab'!C3" },
      placement({ id: "p3", workbookId: "wb-2", sheetId: "s1", sheetName: "Sales", anchorCell: "B2" }),
    ],
  });
  const removedBy = (input: Parameters<typeof applyDisconnect>[1]) => applyDisconnect(report, input).removed;

  it("rule 1: the placement is addressed by placementId", () => {
    expect(removedBy({ placementId: "p2", sheetName: "Nope", anchorCell: "Z9" })?.id).toBe("p2");
  });

  it("rule 2: otherwise by externalWorkbookId plus sheetName plus anchorCell", () => {
    expect(removedBy({ externalWorkbookId: "wb-1", sheetName: "Legacy", anchorCell: "A1" })?.sheetName).toBe(
      "Legacy",
    );
    expect(removedBy({ externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "$h$2" })?.id).toBe("p2");
  });

  it("rule 3: otherwise by a resultLocation naming both sheet and anchor, plus externalWorkbookId", () => {
    expect(removedBy({ externalWorkbookId: "wb-1", resultLocation: "'Old Tab'!C3" })?.resultLocation).toBe(
      "'Old Tab'!C3",
    );
    expect(removedBy({ externalWorkbookId: "wb-2", resultLocation: "Sales!B2" })?.id).toBe("p3");
  });

  it("rule 4: a target missing the sheet or the anchor matches nothing", () => {
    expect(
      selectPlacements(placementsOf(report), { externalWorkbookId: "wb-1", sheetName: "Sales" }),
    ).toEqual([]);
    expect(selectPlacements(placementsOf(report), { externalWorkbookId: "wb-1", anchorCell: "B2" })).toEqual(
      [],
    );
    expect(
      selectPlacements(placementsOf(report), { externalWorkbookId: "wb-1", resultLocation: "B2" }),
    ).toEqual([]);
    expect(selectPlacements(placementsOf(report), { sheetName: "Sales", anchorCell: "B2" })).toEqual([]);
  });

  it("rule 5: sheetId never replaces sheetName; an id only matches nothing", () => {
    expect(
      selectPlacements(placementsOf(report), { externalWorkbookId: "wb-1", sheetId: "s1", anchorCell: "B2" }),
    ).toEqual([]);
  });

  it("rule 6: a sent sheetId narrows: a placement stored under another sheet id is not matched", () => {
    expect(
      removedBy({ externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "B2", sheetId: "s9" }),
    ).toBeNull();
    expect(
      removedBy({ externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "B2", sheetId: "s1" })?.id,
    ).toBe("p1");
  });

  it("rule 7: addressed by sheet name without sheetId after the id changed", () => {
    expect(removedBy({ externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "B2" })?.id).toBe("p1");
  });

  it("rule 8: only the one matching placement is removed; all others stay", () => {
    const { report: after } = applyDisconnect(report, { placementId: "p1" });
    expect(placementsOf(after).map((p) => p.id ?? p.resultLocation)).toEqual([
      "p2",
      "'Legacy'!A1",
      "'Old Tab'!C3",
      "p3",
    ]);
  });

  it("rule 9: a target that matches nothing changes nothing, and repeating is safe", () => {
    const once = applyDisconnect(report, { placementId: "p1" }).report;
    const twice = applyDisconnect(once, { placementId: "p1" });
    expect(twice.removed).toBeNull();
    expect(twice.report).toBe(once);
    expect(applyDisconnect(report, {}).report).toBe(report);
  });

  it("rule 10: the report's definition is not touched", () => {
    const { report: after } = applyDisconnect(report, { placementId: "p2" });
    const { externalWorkbookPlacements: _a, ...defAfter } = after;
    const { externalWorkbookPlacements: _b, ...defBefore } = report;
    expect(defAfter).toEqual(defBefore);
  });

  it("removes an older top-level placement by clearing those fields", () => {
    const legacy = fullReport({
      externalWorkbookPlacements: null,
      externalWorkbookId: "wb-1",
      resultLocation: "Sales!B2",
      endResultCell: "C4",
    });
    const out = applyDisconnect(legacy, { externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "B2" });
    expect(out.removed).not.toBeNull();
    expect(placementsOf(out.report)).toEqual([]);
    expect(out.report.name).toBe(legacy.name);
  });

  it("where the spec is silent: an address that matches more than one placement removes none", () => {
    const twin = fullReport({
      externalWorkbookPlacements: [
        placement({ sheetId: "old", sheetName: "Sales", anchorCell: "B2" }),
        placement({ sheetId: "new", sheetName: "Sales", anchorCell: "B2" }),
      ],
    });
    const out = applyDisconnect(twin, { externalWorkbookId: "wb-1", sheetName: "Sales", anchorCell: "B2" });
    expect(out.matched).toBe(2);
    expect(out.removed).toBeNull();
    expect(
      applyDisconnect(twin, {
        externalWorkbookId: "wb-1",
        sheetName: "Sales",
        anchorCell: "B2",
        sheetId: "new",
      }).removed?.sheetId,
    ).toBe("new");
  });
});

describe("property: toDisconnectInput removes that placement and no other", () => {
  const sheetNames = ["Sales", "Q1 Sales", "It's", "Summary"];
  const cells = ["A1", "B2", "C3", "H10"];
  // A report's placements: ids unique; without an id, one placement per workbook + sheet + anchor
  // (a spot holds one placement of a report).
  const placementArb = fc.record({
    hasId: fc.boolean(),
    workbookId: fc.constantFrom("wb-1", "wb-2"),
    sheetName: fc.constantFrom(...sheetNames),
    anchor: fc.constantFrom(...cells),
    sheetId: fc.option(fc.constantFrom("s1", "s2", "s3"), { nil: null }),
    legacyForm: fc.boolean(),
  });

  it("holds for any report and any of its placements, with or without the user's sheet id", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(placementArb, {
          minLength: 1,
          maxLength: 12,
          selector: (p) => `${p.workbookId}|${p.sheetName}|${p.anchor}`,
        }),
        fc.nat(),
        fc.option(fc.constantFrom("s1", "s2", "s3"), { nil: undefined }),
        (specs, pick, userSheetId) => {
          const placements: ReportPlacement[] = specs.map((s, i) => {
            const resultLocation = `'${s.sheetName.replace(/'/g, "''")}'!${s.anchor}`;
            if (s.legacyForm && !s.hasId) return { workbookId: s.workbookId, resultLocation };
            return {
              workbookId: s.workbookId,
              resultLocation,
              id: s.hasId ? `id-${i}` : null,
              sheetName: s.sheetName,
              anchorCell: s.anchor,
              sheetId: s.sheetId,
            };
          });
          const report: Report = fullReport({ externalWorkbookPlacements: placements });
          const target = placements[pick % placements.length]!;
          const input = toDisconnectInput(target, { sheetId: userSheetId });
          const { report: after, removed } = applyDisconnect(report, input);
          expect(removed).toBe(target);
          expect(placementsOf(after)).toEqual(placements.filter((p) => p !== target));
        },
      ),
      { numRuns: 400 },
    );
  });
});
