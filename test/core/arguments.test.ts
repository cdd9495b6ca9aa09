/** Every argument a host function can receive across google.script.run is checked before use. */
import { describe, expect, it } from "vitest";
import {
  AskArgumentSchema,
  checkArgument,
  DisconnectArgumentsSchema,
  RangeTargetArgumentSchema,
  ScimPageArgumentSchema,
} from "../../src/core/index.js";

describe("checkArgument", () => {
  it("passes a well-formed argument through", () => {
    expect(checkArgument(ScimPageArgumentSchema, { count: 10, startIndex: 1 }, "the page")).toEqual({
      count: 10,
      startIndex: 1,
    });
    expect(
      checkArgument(DisconnectArgumentsSchema, [1, 101, { placementId: "p1" }], "the placement"),
    ).toEqual([1, 101, { placementId: "p1" }]);
  });

  it.each([
    [ScimPageArgumentSchema, { count: "10", startIndex: 1 }, /the page of users at count: expected number/],
    [DisconnectArgumentsSchema, ["1", 101, {}], /the placement at 0: expected number/],
    [DisconnectArgumentsSchema, [1, 101, { placementId: 5 }], /the placement at 2\.placementId/],
    [AskArgumentSchema, { input: 42 }, /the question at input: expected string/],
    [AskArgumentSchema, null, /the question: expected object/],
    [RangeTargetArgumentSchema, { sheetId: 7, sheetName: "S", range: "A1" }, /the range at sheetId/],
  ])("refuses a wrong type with a bad-request naming where (%#)", (schema, value, message) => {
    const what =
      schema === ScimPageArgumentSchema
        ? "the page of users"
        : schema === AskArgumentSchema
          ? "the question"
          : schema === RangeTargetArgumentSchema
            ? "the range"
            : "the placement";
    expect(() => checkArgument(schema as never, value, what)).toThrow(
      expect.objectContaining({ kind: "bad-request", message: expect.stringMatching(message) }),
    );
  });

  it("never echoes the value it refused", () => {
    expect(() =>
      checkArgument(AskArgumentSchema, { input: ["secret-question-xyz"] }, "the question"),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining("secret-question-xyz") }));
  });
});
