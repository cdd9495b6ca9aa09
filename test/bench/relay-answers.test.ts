/**
 * The relay bench counts the relay's busy refusals apart from lost answers (bench/relay-answers.ts):
 * a 503 the relay gives past its requests-in-flight limit is shed load, not a loss; any other
 * failure, or the echo of another request, is lost.
 */
import { describe, expect, it } from "vitest";
import { answerKind } from "../../bench/relay-answers.js";

describe("a relay bench answer", () => {
  it("is answered when it is the echo asked for", () => {
    expect(answerKind(200, null, { n: 7, padding: "x" }, 7)).toBe("answered");
  });

  it("is shed when the relay refuses it as busy (503, X-Relay-Error: relay-busy)", () => {
    expect(answerKind(503, "relay-busy", { error: "relay-busy", message: "busy" }, 7)).toBe("shed");
  });

  it("is lost otherwise: another echo, another status, a 503 that is not the relay's busy answer", () => {
    expect(answerKind(200, null, { n: 8 }, 7)).toBe("lost");
    expect(answerKind(200, null, null, 7)).toBe("lost");
    expect(answerKind(502, "tenant-unreachable", { error: "tenant-unreachable" }, 7)).toBe("lost");
    expect(answerKind(503, null, { message: "the tenant is down" }, 7)).toBe("lost");
    expect(answerKind(503, "tenant-not-listed", {}, 7)).toBe("lost");
  });
});
