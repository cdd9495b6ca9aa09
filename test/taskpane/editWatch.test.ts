/**
 * taskpane/editWatch.ts on its own (the pane around it is HandEditLine.test.tsx's): when a placement
 * is compared again after the list changed without a load.
 */
import { describe, expect, it } from "vitest";
import { type PlacedReport, placedReports } from "../../src/core/placement-view.js";
import { resultChecksum } from "../../src/core/result-checksum.js";
import type { Report, ReportPlacement } from "../../src/core/schema.js";
import { createEditWatch } from "../../taskpane/editWatch.js";

const GRID = [
  ["Region", "Count"],
  ["North", 1],
  ["South", 2],
];
const SHEETS = [{ id: "sheet-sales", name: "Sales" }];

function placed(extra: Partial<ReportPlacement> = {}): PlacedReport {
  const owner = { id: 1, email: "ann@example.com", firstName: "Ann", picture: null };
  const report: Report = {
    id: 8,
    publicId: "abcdefghij08",
    deploymentId: 1,
    userId: 1,
    user: owner,
    refreshedByUser: owner,
    name: "Orders by region",
    createdAt: "2024-01-01",
    updatedAt: "2024-01-02",
    type: "REPORT",
    externalWorkbookPlacements: [
      {
        id: "p-orders",
        workbookId: "wb-1",
        sheetId: "sheet-sales",
        sheetName: "Sales",
        anchorCell: "B2",
        endResultCell: "C4",
        resultLocation: "Sales!B2:C4",
        syncStatus: "UP_TO_DATE",
        refreshedAt: "2026-11-27T10:00:00.000Z",
        resultChecksum: resultChecksum(GRID) as never,
        ...extra,
      },
    ],
  };
  return placedReports([report])[0]!;
}

describe("editWatch", () => {
  it("a refresh that wrote the same result over hand edits (the same checksum, a new time) clears Edited", async () => {
    const cells = GRID.map((row) => [...row]);
    const watch = createEditWatch({ readCells: async () => cells.map((row) => [...row]) });
    const before = placed();
    cells[1]![1] = 99;
    await watch.checkAll([before], SHEETS);
    expect(watch.getSnapshot().get(before.key)).toMatchObject({ kind: "edited", text: "row 3 edited" });

    // The refresh overwrites the edit with the report's unchanged data, and records it: the same
    // checksum as before, at a new time.
    cells[1]![1] = 1;
    const after = placed({ refreshedAt: "2026-11-27T10:05:00.000Z" });
    expect(after.resultChecksum).toEqual(before.resultChecksum);
    await watch.checkChanged([after], SHEETS);
    expect(watch.getSnapshot().get(after.key)).toBeUndefined();
  });

  it("a list change that did not touch the placement reads nothing", async () => {
    let reads = 0;
    const watch = createEditWatch({
      readCells: async () => {
        reads++;
        return GRID.map((row) => [...row]);
      },
    });
    await watch.checkAll([placed()], SHEETS);
    expect(reads).toBe(1);
    await watch.checkChanged([placed()], SHEETS);
    expect(reads).toBe(1);
  });
});
