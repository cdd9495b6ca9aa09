/**
 * The preview's cells (src/hosts/preview/cells.ts): what typing into a cell makes of the text (a
 * number when it is one, otherwise the text), the text an edit starts from, and a hand edit applied
 * to a sheet's shown and written values as a host reads them back.
 */
import { describe, expect, it } from "vitest";
import { applyBlock, applyEdit, editText, readBack, typedValue } from "../../../src/hosts/preview/cells.js";

describe("typedValue", () => {
  it("reads numbers as Excel reads typed numbers: sign, thousands grouped by commas, decimals, exponent", () => {
    expect(typedValue("42")).toBe(42);
    expect(typedValue(" 42 ")).toBe(42);
    expect(typedValue("-3.5")).toBe(-3.5);
    expect(typedValue("+7")).toBe(7);
    expect(typedValue("1,234,567.25")).toBe(1_234_567.25);
    expect(typedValue(".5")).toBe(0.5);
    expect(typedValue("2e3")).toBe(2000);
    expect(typedValue("0")).toBe(0);
  });

  it("keeps everything else as the text typed", () => {
    for (const text of [
      "abc",
      "12 apples",
      "1,23",
      "1.2.3",
      "--1",
      "2024-03-01",
      "50%",
      "TRUE",
      "e5",
      "-",
      ".",
    ]) {
      expect(typedValue(text), text).toBe(text);
    }
    // Text keeps its own spaces; only numbers are read trimmed.
    expect(typedValue(" North ")).toBe(" North ");
  });

  it("a leading apostrophe keeps the rest as text; nothing left empties the cell", () => {
    expect(typedValue("'007")).toBe("007");
    expect(typedValue("'")).toBeNull();
    expect(typedValue("")).toBeNull();
    expect(typedValue("   ")).toBeNull();
  });
});

describe("editText", () => {
  it("starts a number's edit from the number as typed, not grouped", () => {
    expect(editText(1234.5, "1,234.5")).toBe("1234.5");
    expect(editText(-7, "-7")).toBe("-7");
  });

  it("starts a date, text or an unwritten cell from what it shows", () => {
    // A serial date shown by its format.
    expect(editText(45352, "2024-03-01")).toBe("2024-03-01");
    expect(editText("North", "North")).toBe("North");
    expect(editText(undefined, "1,234")).toBe("1,234");
    expect(editText(undefined, undefined)).toBe("");
  });
});

describe("applyEdit", () => {
  it("writes a typed number as a number (read back as one) and shows it grouped", () => {
    const shown = new Map<string, string>();
    const written = new Map<string, unknown>();
    applyEdit(shown, written, "C3", "1234.5");
    expect(shown.get("C3")).toBe("1,234.5");
    expect(readBack(shown, written, "C3")).toEqual([[1234.5]]);
  });

  it("writes other text as text, and an empty edit empties the cell", () => {
    const shown = new Map<string, string>();
    const written = new Map<string, unknown>();
    applyEdit(shown, written, "B2", "Europe");
    expect(readBack(shown, written, "B2:C2")).toEqual([["Europe", ""]]);
    applyEdit(shown, written, "B2", "");
    expect(shown.has("B2")).toBe(false);
    expect(written.has("B2")).toBe(false);
    expect(readBack(shown, written, "B2")).toEqual([[""]]);
  });

  it("replaces what a refresh wrote, leaving the cells around it as written", () => {
    const shown = new Map<string, string>();
    const written = new Map<string, unknown>();
    applyBlock(shown, written, {
      sheetId: "s",
      sheetName: "S",
      topLeft: "A1",
      values: [
        ["Region", "Revenue"],
        ["Europe", 1200],
        ["Asia", 900],
      ],
      dateFormats: [],
      clear: [],
    });
    applyEdit(shown, written, "B3", "950");
    expect(readBack(shown, written, "A1:B3")).toEqual([
      ["Region", "Revenue"],
      ["Europe", 1200],
      ["Asia", 950],
    ]);
  });
});
