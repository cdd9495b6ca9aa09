/**
 * Renamed and moved tabs (placement-moves.ts): a placement whose sheet id is found under a new name
 * is corrected with an addressOnly connect-workbook; one stored without a sheet id whose name is
 * gone is "Not found", and Move here records it at the active cell. The bodies are applied with the
 * sandbox's own connect-workbook, so what the service keeps is checked too.
 */
import { describe, expect, it } from "vitest";
import {
  addressCorrectedMessage,
  addressCorrections,
  isNotFound,
  locatePlacement,
  movedHereMessage,
  placedReports,
  planMoveHere,
  planRefresh,
  sheetNoteText,
} from "../../src/core/index.js";
import { connectPlacement } from "../../src/sandbox/placing.js";
import { fullReport, placement } from "./fixtures.js";

const CHECKSUM = { v: 1, chunks: [{ from: 0, hash: "0123456789abcdef0123456789abcdef" }] };

const report = fullReport({
  name: "Revenue by region",
  externalWorkbookPlacements: [
    // Stored with its sheet's id: the tab was renamed "Sales" -> "Sales 2025".
    placement({
      id: "p1",
      sheetId: "s1",
      sheetName: "Sales",
      anchorCell: "B2",
      resultLocation: "Sales!B2",
      endResultCell: "F20",
      resultChecksum: CHECKSUM,
    }),
    // Stored without a sheet id, under a name no sheet has now.
    placement({
      id: "p2",
      sheetName: "Regions",
      anchorCell: "A1",
      resultLocation: "Regions!A1",
      endResultCell: "C5",
    }),
    // Stored with an id that is gone, under a name that is gone: the sheet was deleted.
    placement({ id: "p3", sheetId: "s9", sheetName: "Old", anchorCell: "A1", resultLocation: "Old!A1" }),
    // A placement without an id (placed before ids existed), its sheet renamed: nothing to correct with.
    placement({ sheetId: "s1", sheetName: "Sales", anchorCell: "K2", resultLocation: "Sales!K2" }),
  ],
});
const SHEETS = [
  { id: "s1", name: "Sales 2025" },
  { id: "s2", name: "Regions (EU)" },
];
const placed = placedReports([report]);
const [p1, p2, p3] = placed;

describe("a placement whose sheet was renamed (found by its sheet id)", () => {
  it("is corrected with an addressOnly body naming the new sheet, its anchor and extent kept", () => {
    const corrections = addressCorrections(placed, SHEETS);
    expect(corrections).toHaveLength(1);
    expect(corrections[0]!.input).toEqual({
      placementId: "p1",
      externalWorkbookId: "wb-1",
      resultLocation: "'Sales 2025'!B2:F20",
      sheetName: "Sales 2025",
      anchorCell: "B2",
      endResultCell: "F20",
      sheetId: "s1",
      addressOnly: true,
    });
    expect(addressCorrectedMessage(corrections[0]!)).toBe(
      "Revenue by region moved with its sheet, now on 'Sales 2025': its record was updated.",
    );
  });

  it("keeps its fingerprint and refresh on the service, and needs no correction afterwards", () => {
    const [correction] = addressCorrections(placed, SHEETS);
    const after = connectPlacement(report, correction!.input, { now: "2026-11-27T10:00:00.000Z", userId: 7 });
    const moved = after.externalWorkbookPlacements![0]!;
    expect(moved).toMatchObject({
      id: "p1",
      sheetName: "Sales 2025",
      resultChecksum: CHECKSUM,
      refreshedAt: p1!.refreshedAt,
      queryChecksum: p1!.queryChecksum,
    });
    expect(addressCorrections(placedReports([after]), SHEETS)).toEqual([]);
  });
});

describe("a placement stored without a sheet id whose sheet name is gone", () => {
  it("is Not found, not 'no longer in the workbook', and its note says which action fits which case", () => {
    const where = locatePlacement(p2!, SHEETS);
    expect(where.note).toEqual({ kind: "not-found", name: "Regions" });
    expect(isNotFound(p2!, SHEETS)).toBe(true);
    const text = sheetNoteText(where.note!);
    expect(text).toMatch(/^Not found: no sheet is named Regions now\./);
    expect(text).toContain(
      "If that sheet was renamed, select the report's top-left cell on it and choose Move here",
    );
    expect(text).toContain("if the sheet or the report's cells were deleted, choose Disconnect");
    expect(text).not.toContain("no longer in this workbook");
    // Refresh says the same, not that the sheet is gone.
    const plan = planRefresh([p2!], { kind: "placement", key: p2!.key }, SHEETS);
    expect(plan.notRefreshed[0]!.message).toContain("so Revenue by region was not found");
  });

  it("a placement whose stored sheet id and name are both gone was deleted with its sheet", () => {
    const note = locatePlacement(p3!, SHEETS).note!;
    expect(note.kind).toBe("missing");
    expect(sheetNoteText(note)).toContain("Its sheet was deleted from this workbook");
    expect(isNotFound(p3!, SHEETS)).toBe(false);
  });

  it("Move here records it at the active cell's sheet and anchor, its extent kept, addressOnly", () => {
    const plan = planMoveHere(
      p2!,
      { workbookId: "wb-1", sheetId: "s2", sheetName: "Regions (EU)", cell: "b3" },
      placed,
    );
    expect(plan.kind).toBe("move");
    if (plan.kind !== "move") return;
    expect(plan.input).toEqual({
      placementId: "p2",
      externalWorkbookId: "wb-1",
      resultLocation: "'Regions (EU)'!B3:D7",
      sheetName: "Regions (EU)",
      anchorCell: "B3",
      endResultCell: "D7",
      sheetId: "s2",
      addressOnly: true,
    });
    expect(movedHereMessage(plan)).toBe(
      "Revenue by region is now recorded at 'Regions (EU)'!B3:D7. Only its record moved: the cells were not changed.",
    );
    const after = connectPlacement(report, plan.input, { now: "2026-11-27T10:00:00.000Z", userId: 7 });
    const moved = placedReports([after]).find((p) => p.id === "p2")!;
    expect(isNotFound(moved, SHEETS)).toBe(false);
    expect(locatePlacement(moved, SHEETS).note).toBeNull();
  });

  it("Move here is refused on a cell under another placement, and for a placement without an id", () => {
    const under = planMoveHere(
      p2!,
      { workbookId: "wb-1", sheetId: "s1", sheetName: "Sales", cell: "C3" },
      placed,
    );
    expect(under).toMatchObject({ kind: "refused" });
    const noId = { ...p2!, id: null, key: "legacy" };
    expect(
      planMoveHere(
        noId,
        { workbookId: "wb-1", sheetId: "s2", sheetName: "Regions (EU)", cell: "A1" },
        placed,
      ),
    ).toMatchObject({
      kind: "refused",
      message: expect.stringContaining("placed before placements had ids"),
    });
  });
});
