import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatLocation,
  type Location,
  parseCell,
  parseLocation,
  quoteSheetName,
} from "../../src/core/location.js";

describe("parseLocation: A1 locations as spreadsheets write them", () => {
  it.each([
    ["B2", { sheetName: null, start: "B2", end: null }],
    ["$B$2", { sheetName: null, start: "B2", end: null }],
    ["b2", { sheetName: null, start: "B2", end: null }],
    ["Sheet1!B2", { sheetName: "Sheet1", start: "B2", end: null }],
    ["'Q1 Sales'!B2:F9", { sheetName: "Q1 Sales", start: "B2", end: "F9" }],
    ["'It''s'!A1", { sheetName: "It's", start: "A1", end: null }],
    ["Data!$a$1:$c$3", { sheetName: "Data", start: "A1", end: "C3" }],
    ["XFD1048576", { sheetName: null, start: "XFD1048576", end: null }],
    ["'2024'!A1", { sheetName: "2024", start: "A1", end: null }],
    ["'A!B'!C3", { sheetName: "A!B", start: "C3", end: null }],
  ])("reads %s", (text, expected) => {
    expect(parseLocation(text)).toEqual(expected);
  });

  it("accepts rows beyond Excel's last row, as Google Sheets allows", () => {
    expect(parseLocation("A2000000")).toEqual({ sheetName: null, start: "A2000000", end: null });
  });

  it.each([
    "",
    "B",
    "2",
    "B0",
    "XFE1",
    "AAAA1",
    "B2:",
    ":B2",
    "B2:C3:D4",
    "''!A1",
    "'Open!A1",
    "Sheet1!",
    "B2 x",
    "R1C1",
  ])("returns null for %j, which is not a location", (text) => {
    expect(parseLocation(text)).toBeNull();
  });

  it("reads columns up to XFD and no further", () => {
    expect(parseCell("XFD1")).toEqual({ col: 16384, row: 1 });
    expect(parseCell("XFE1")).toBeNull();
  });
});

describe("formatLocation", () => {
  it("quotes a sheet name when it must", () => {
    expect(quoteSheetName("Sales")).toBe("Sales");
    expect(quoteSheetName("Q1 Sales")).toBe("'Q1 Sales'");
    expect(quoteSheetName("It's")).toBe("'It''s'");
    expect(quoteSheetName("2024")).toBe("'2024'");
    expect(quoteSheetName("A1")).toBe("'A1'");
    expect(quoteSheetName("R1C1")).toBe("'R1C1'");
    expect(quoteSheetName("Sales-EU")).toBe("'Sales-EU'");
  });

  it("writes ranges and bare cells", () => {
    expect(formatLocation({ sheetName: "Q1 Sales", start: "B2", end: "F9" })).toBe("'Q1 Sales'!B2:F9");
    expect(formatLocation({ sheetName: null, start: "B2", end: null })).toBe("B2");
  });

  const column = fc.integer({ min: 1, max: 16384 }).map((n) => {
    let s = "";
    let x = n;
    while (x > 0) {
      s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
      x = Math.floor((x - 1) / 26);
    }
    return s;
  });
  const cell = fc.tuple(column, fc.integer({ min: 1, max: 10_000_000 })).map(([c, r]) => `${c}${r}`);
  const sheetName = fc.oneof(
    fc.constant(null),
    fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() === s && !/[[\]*?/\\:]/.test(s)),
    fc.constantFrom("Sales", "Q1 Sales", "It's", "2024", "A1", "Données", "''", "a!b"),
  );
  const location: fc.Arbitrary<Location> = fc.record({
    sheetName,
    start: cell,
    end: fc.option(cell, { nil: null }),
  });

  it("round-trips with parseLocation for any location", () => {
    fc.assert(
      fc.property(location, (loc) => {
        expect(parseLocation(formatLocation(loc))).toEqual(loc);
      }),
      { numRuns: 500 },
    );
  });
});
