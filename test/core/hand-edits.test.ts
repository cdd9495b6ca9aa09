/**
 * Hand edits (src/core/hand-edits.ts): which placements are compared, what is read, the size limit,
 * another checksum version ("cannot tell", never "Edited"), and the words.
 */
import { describe, expect, it } from "vitest";
import {
  EAGER_EDIT_CHECK_CELLS,
  editCheckOf,
  editedRefreshQuestion,
  editNote,
  editsKeptMessage,
  type PlacedReport,
  placedReports,
  resultChecksum,
} from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

const SHEETS = [{ id: "s1", name: "Sales" }];

/** A 4 x 2 result at B3:C6 whose cells were written as `grid`. */
const grid = [
  ["Region", "Count"],
  ["North", 1],
  ["South", 2],
  ["West", 3],
];

function placed(overrides: Parameters<typeof placement>[0] = {}): PlacedReport {
  return placedReports([
    fullReport({
      externalWorkbookPlacements: [
        placement({
          id: "p1",
          sheetId: "s1",
          sheetName: "Sales",
          anchorCell: "B3",
          endResultCell: "C6",
          resultChecksum: resultChecksum(grid),
          ...overrides,
        }),
      ],
    }),
  ])[0]!;
}

describe("editCheckOf", () => {
  it("reads an Up to date placement's cells, on its sheet as it is now", () => {
    expect(editCheckOf(placed(), [{ id: "s1", name: "Renamed" }])).toEqual({
      kind: "read",
      sheet: { id: "s1", name: "Renamed" },
      range: { top: 3, left: 2, bottom: 6, right: 3 },
      cells: 8,
      lazy: false,
    });
  });

  it("skips what it cannot compare: not Up to date, no checksum, sheet gone", () => {
    expect(editCheckOf(placed({ syncStatus: "CHANGED" }), SHEETS)).toEqual({ kind: "skip" });
    expect(editCheckOf(placed({ resultChecksum: null }), SHEETS)).toEqual({ kind: "skip" });
    expect(editCheckOf(placed(), [{ id: "s9", name: "Other" }])).toEqual({ kind: "skip" });
  });

  it("a checksum of another version is 'cannot tell' without reading, never Edited", () => {
    const check = editCheckOf(placed({ resultChecksum: { v: 2, chunks: [{ from: 0, hash: "x" }] } }), SHEETS);
    expect(check).toEqual({
      kind: "known",
      note: {
        kind: "cannot-tell",
        text: "Hand edits: cannot tell (its fingerprint is of version 2; this add-in reads version 1).",
      },
    });
  });

  it("a range past the size limit is compared lazily", () => {
    const rows = Math.floor(EAGER_EDIT_CHECK_CELLS / 10) + 1;
    const big = placed({ anchorCell: "A1", endResultCell: `J${rows}` });
    expect(editCheckOf(big, SHEETS)).toMatchObject({ kind: "read", lazy: true, cells: rows * 10 });
    const limit = placed({ anchorCell: "A1", endResultCell: `J${EAGER_EDIT_CHECK_CELLS / 10}` });
    expect(editCheckOf(limit, SHEETS)).toMatchObject({ kind: "read", lazy: false });
  });
});

describe("editNote", () => {
  const p = placed();
  const check = editCheckOf(p, SHEETS);
  if (check.kind !== "read") throw new Error("expected a read");

  it("unchanged cells: nothing to say", () => {
    expect(editNote(p, check, grid)).toEqual({ kind: "unchanged" });
  });

  it("names the edited sheet rows and what Locate selects", () => {
    const now = grid.map((r) => [...r]);
    now[1]![1] = 10;
    now[2]![0] = "Sud";
    const note = editNote(p, check, now);
    expect(note).toEqual({
      kind: "edited",
      rows: [{ from: 1, to: 2 }],
      text: "rows 4-5 edited",
      locate: { sheetId: "s1", sheetName: "Sales", range: "B4:C5" },
    });
    if (note.kind !== "edited") return;
    expect(editedRefreshQuestion(p, note)).toBe(
      "Refresh will overwrite your edits in rows 4-5 of Revenue by region (Sales!B4:C5).",
    );
    expect(editsKeptMessage(p, note)).toBe(
      "Not refreshed: your edits in rows 4-5 of Revenue by region were kept.",
    );
  });

  it("Locate spans the first to the last edited row", () => {
    const now = grid.map((r) => [...r]);
    now[1]![1] = 10;
    now[3]![1] = 30;
    const note = editNote(p, check, now);
    expect(note).toMatchObject({ text: "rows 4 and 6 edited", locate: { range: "B4:C6" } });
  });

  it("a checksum of another extent is 'cannot tell', not Edited", () => {
    const q = placed({ resultChecksum: resultChecksum(grid.slice(0, 3)) });
    const c = editCheckOf(q, SHEETS);
    if (c.kind !== "read") throw new Error("expected a read");
    expect(editNote(q, c, grid)).toEqual({
      kind: "cannot-tell",
      text: "Hand edits: cannot tell (the fingerprint covers 3 × 2 cells, the placement 4 × 2).",
    });
  });
});
