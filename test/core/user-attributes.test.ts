/** User attributes as the pane edits them: text rows read into the values the chat API takes. */
import { describe, expect, it } from "vitest";
import {
  formatAttributeValue,
  parseAttributeValue,
  rowsToAttributes,
} from "../../src/core/user-attributes.js";

describe("user attribute values", () => {
  it("reads numbers, booleans, comma lists and text", () => {
    expect(parseAttributeValue("42")).toBe(42);
    expect(parseAttributeValue("-3.5")).toBe(-3.5);
    expect(parseAttributeValue("true")).toBe(true);
    expect(parseAttributeValue("false")).toBe(false);
    expect(parseAttributeValue("EMEA, APAC")).toEqual(["EMEA", "APAC"]);
    expect(parseAttributeValue("1, 2,x")).toEqual([1, 2, "x"]);
    expect(parseAttributeValue("  Sales team ")).toBe("Sales team");
    expect(parseAttributeValue("")).toBeNull();
    expect(parseAttributeValue("0x10")).toBe("0x10");
  });

  it("writes values back as the text they are read from", () => {
    for (const v of [42, true, "EMEA", ["a", 1], null] as const) {
      expect(parseAttributeValue(formatAttributeValue(v as never))).toEqual(v);
    }
  });

  it("ignores rows without a name", () => {
    expect(
      rowsToAttributes([
        { name: " region ", value: "EMEA" },
        { name: "", value: "x" },
      ]),
    ).toEqual([{ name: "region", value: "EMEA" }]);
  });
});
