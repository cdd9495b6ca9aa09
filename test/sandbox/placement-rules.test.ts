/**
 * The sandbox's own reading of the placement address (src/sandbox/placement-rules.ts, disconnect rules
 * 1-10) against the core's (`applyDisconnect`): the same addresses, the same answers. The two are
 * written separately on purpose (the sandbox stands in for the service), so this is where they meet.
 */
import { describe, expect, it } from "vitest";
import { applyDisconnect } from "../../src/core/placements.js";
import type { DisconnectInput, Report } from "../../src/core/schema.js";
import { addressedIndexes, withoutPlacement } from "../../src/sandbox/placement-rules.js";
import { makeReport, OTHER_WB, placement, WB } from "../support/sandbox-fixtures.js";

const report = makeReport(1, [
  placement("Sales", "B2", { id: "p-1", sheetId: "s1", endResultCell: "D9" }),
  placement("Sales", "F2", { sheetId: "s1" }),
  placement("Sales", "K2"),
  placement("Q1 Sales", "H2", { sheetName: undefined, anchorCell: undefined }),
  placement("Pipeline", "A1", { sheetId: "old-id" }),
  placement("Twice", "B2", { sheetId: "x1" }),
  placement("Twice", "B2", { sheetId: "x2" }),
  placement("Sales", "B2", { workbookId: OTHER_WB, sheetId: "s1", id: "p-other" }),
]);
const older = makeReport(2, undefined, { externalWorkbookId: WB, resultLocation: "Summary!B28" });

/** Every combination of a few values per address field: 4 x 3 x 4 x 4 x 4 x 4 addresses. */
function addresses(): DisconnectInput[] {
  const out: DisconnectInput[] = [];
  for (const placementId of [undefined, "p-1", "p-other", "nope"])
    for (const externalWorkbookId of [undefined, WB, OTHER_WB])
      for (const sheetName of [undefined, "Sales", "Q1 Sales", "Twice"])
        for (const anchorCell of [undefined, "B2", "$h$2", "A1"])
          for (const resultLocation of [undefined, "'Q1 Sales'!H2", "Summary!B28", "B2"])
            for (const sheetId of [undefined, "s1", "x2", "old-id"])
              out.push({ placementId, externalWorkbookId, sheetName, anchorCell, resultLocation, sheetId });
  return out;
}

describe("the sandbox's placement address agrees with the core's disconnect rules", () => {
  const cases = addresses();

  it("selects the same placement (or none) for every address", () => {
    let removedSome = 0;
    for (const address of cases) {
      for (const r of [report, older] as Report[]) {
        const core = applyDisconnect(r, address);
        const sandbox = withoutPlacement(r, address);
        expect(sandbox, JSON.stringify(address)).toEqual(core.report);
        if (core.removed) removedSome++;
      }
    }
    // The cases are not all misses: the comparison would pass trivially otherwise.
    expect(removedSome).toBeGreaterThan(100);
  });

  it("an address naming two placements (no sheet id, same name and anchor) acts on neither", () => {
    const address = { externalWorkbookId: WB, sheetName: "Twice", anchorCell: "B2" };
    expect(addressedIndexes(report.externalWorkbookPlacements!, address)).toEqual([5, 6]);
    expect(withoutPlacement(report, address)).toBe(report);
    expect(withoutPlacement(report, { ...address, sheetId: "x2" }).externalWorkbookPlacements).toHaveLength(
      7,
    );
  });
});
