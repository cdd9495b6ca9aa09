import { describe, expect, it } from "vitest";
import {
  type ChatMessage,
  finalAnswer,
  isFinalAnswerMessage,
  markedFinalAnswer,
} from "../../src/core/index.js";

const step: ChatMessage = {
  id: "s1",
  role: "assistant",
  graphPath: ["tools", "search"],
  content: "Searching…",
};
const deepFinal: ChatMessage = {
  id: "s2",
  role: "assistant",
  graphPath: ["final", "a", "b"],
  content: "not it",
};
const answer: ChatMessage = { id: "a1", role: "assistant", graphPath: ["final"], content: "The answer" };

describe("the final-answer rule (chat rule 2), for the pane while an answer streams", () => {
  it("accepts an assistant message whose graphPath starts with final and has at most 2 elements", () => {
    expect(isFinalAnswerMessage(answer)).toBe(true);
    expect(isFinalAnswerMessage({ ...answer, graphPath: ["final", "summary"] })).toBe(true);
    expect(isFinalAnswerMessage(deepFinal)).toBe(false);
    expect(isFinalAnswerMessage({ ...answer, role: "user" })).toBe(false);
    expect(isFinalAnswerMessage({ ...answer, graphPath: [] })).toBe(false);
  });

  it("markedFinalAnswer is rule 2 alone: no answer yet while only steps have arrived", () => {
    expect(markedFinalAnswer([step, deepFinal])).toBeNull();
    expect(finalAnswer([step, deepFinal])).toBe("not it");
    expect(markedFinalAnswer([step, answer, deepFinal])).toBe("The answer");
  });
});
