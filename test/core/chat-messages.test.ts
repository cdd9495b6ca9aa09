import { describe, expect, it } from "vitest";
import {
  type ChatMessage,
  conversationId,
  createMessageMerger,
  finalAnswer,
  isFinalAnswerMessage,
  markedFinalAnswer,
  mergeChatMessages,
  sortChatMessages,
} from "../../src/core/index.js";
import { CHAT_ID, MESSAGE_ID, realStream } from "../support/chat-service.js";

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

describe("merging streamed messages by id", () => {
  it("appends the content of a later isDelta line with the same id; its other fields overwrite", () => {
    const merged = mergeChatMessages([
      { id: "a", role: "assistant", content: "Hel", graphPath: ["final"], isInProcess: true },
      { id: "b", role: "assistant", content: "other" },
      { id: "a", content: "lo", isDelta: true, isInProcess: true },
      { id: "a", content: "!", isDelta: true, isInProcess: false },
    ]);
    expect(merged.map((m) => m.id)).toEqual(["a", "b"]);
    expect(merged[0]).toMatchObject({
      id: "a",
      role: "assistant",
      content: "Hello!",
      graphPath: ["final"],
      isInProcess: false,
    });
  });

  it("replaces the message when a later line with the same id is not a delta, keeping its place", () => {
    const merged = mergeChatMessages([
      { id: "a", role: "assistant", content: "draft", toolCall: { name: "t" } },
      { id: "b", role: "assistant", content: "b" },
      { id: "a", role: "assistant", content: "final text" },
    ]);
    expect(merged.map((m) => [m.id, m.content])).toEqual([
      ["a", "final text"],
      ["b", "b"],
    ]);
    expect(merged[0]).not.toHaveProperty("toolCall");
  });

  it("does not count lines without an id (an error line, a number) as messages", () => {
    const merger = createMessageMerger();
    expect(merger.push({ error: "boom" })).toBeNull();
    expect(merger.push(42)).toBeNull();
    expect(merger.push({ id: 5, content: "id must be a string" })).toBeNull();
    expect(merger.push({ id: "x", role: "assistant", content: "hi" })).toMatchObject({ id: "x" });
    expect(merger.messages()).toHaveLength(1);
  });

  it("after beginReplay, an id seen before starts afresh, even on a delta line", () => {
    const merger = createMessageMerger();
    merger.push({ id: "a", role: "assistant", content: "The ans", graphPath: ["final"] });
    merger.push({ id: "keep", role: "assistant", content: "kept" });
    merger.beginReplay();
    merger.push({ id: "a", role: "assistant", content: "The ", graphPath: ["final"], isDelta: true });
    merger.push({ id: "a", content: "answer", isDelta: true });
    expect(merger.messages().map((m) => [m.id, m.content])).toEqual([
      ["a", "The answer"],
      ["keep", "kept"],
    ]);
  });

  it("orders by sort when asked; messages without sort go last in first-seen order", () => {
    const sorted = sortChatMessages([
      { id: "u", sort: 3 },
      { id: "x" },
      { id: "c", sort: 0 },
      { id: "y" },
      { id: "a", sort: 1 },
    ]);
    expect(sorted.map((m) => m.id)).toEqual(["c", "a", "u", "x", "y"]);
  });

  it("merges a realistic stream into one message per id, in the order the ids first came", () => {
    const merged = mergeChatMessages(realStream());
    expect(merged.map((m) => m.id)).toEqual([
      "__cutoff__",
      MESSAGE_ID,
      "m-1",
      "m-2",
      "m-3",
      "__state__",
      "__usage__",
    ]);
    expect(merged.find((m) => m.id === "m-3")?.content).toBe("There were 1,204 orders last month.");
    expect(merged.find((m) => m.id === "m-2")).toMatchObject({ toolCall: { result: [{ count: 1204 }] } });
    expect(finalAnswer(merged)).toBe("There were 1,204 orders last month.");
    expect(conversationId(merged)).toBe(CHAT_ID);
  });
});

describe("chat rules 2-4 on merged messages", () => {
  it("rule 2: the final answer consists of messages where role is assistant, graphPath is a non-empty array whose first element is final, and graphPath has at most 2 elements; the last such message's content is the consolidated answer", () => {
    const messages = mergeChatMessages([
      { id: "1", role: "assistant", content: "first final", graphPath: ["final"] },
      { id: "2", role: "assistant", content: "second final", graphPath: ["final", "summary"] },
      { id: "3", role: "assistant", content: "three deep", graphPath: ["final", "a", "b"] },
      { id: "4", role: "assistant", content: "not first", graphPath: ["agent", "final"] },
      { id: "5", role: "user", content: "user final", graphPath: ["final"] },
      { id: "6", role: "assistant", content: "empty path", graphPath: [] },
      { id: "7", role: "assistant", content: "no path" },
    ]);
    expect(finalAnswer(messages)).toBe("second final");
    expect(finalAnswer(messages.filter((m) => m.id !== "2"))).toBe("first final");
  });

  it("rule 3: when no such message exists, the last assistant message with non-empty content serves as the answer", () => {
    const messages = mergeChatMessages([
      { id: "1", role: "assistant", content: "progress", graphPath: ["cube_data_analyst_agent"] },
      {
        id: "2",
        role: "assistant",
        content: "the real one",
        graphPath: ["cube_data_analyst_agent", "tools"],
      },
      { id: "3", role: "assistant", content: "", graphPath: ["cube_data_analyst_agent"] },
      { id: "4", role: "user", content: "later user text" },
      { id: "5", role: "assistant", content: "deep", graphPath: ["final", "x", "y"] },
      { id: "6", role: "assistant", content: null },
    ]);
    expect(finalAnswer(messages)).toBe("deep");
    expect(finalAnswer(messages.filter((m) => m.id !== "5"))).toBe("the real one");
    expect(finalAnswer(mergeChatMessages([{ id: "u", role: "user", content: "q" }]))).toBeNull();
    expect(finalAnswer([])).toBeNull();
  });

  it("rule 4: the conversation id comes in the message whose id is __cutoff__, in its state.chatId", () => {
    expect(
      conversationId(
        mergeChatMessages([
          { id: "m", role: "assistant", state: { chatId: "wrong" } },
          { id: "__state__", state: { chatId: "also-wrong" } },
          { id: "__cutoff__", sort: 0, state: { chatId: "c-1", isStreaming: true } },
        ]),
      ),
    ).toBe("c-1");
    expect(conversationId(mergeChatMessages([{ id: "__state__", state: { chatId: "x" } }]))).toBeNull();
    expect(conversationId(mergeChatMessages([{ id: "__cutoff__", state: null }]))).toBeNull();
  });
});

describe("merging is linear in the number of lines", () => {
  /** Merges n lines of distinct ids, reading every message after each line, as a streaming chat does. */
  function mergeReadingEachLine(n: number): number {
    const merger = createMessageMerger();
    let read = 0;
    for (let i = 0; i < n; i++) {
      merger.push({ id: `m-${i}`, role: "assistant", content: "x" });
      read += merger.messages().length;
    }
    return read;
  }

  function bestOf(runs: number, work: () => void): number {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      work();
      best = Math.min(best, performance.now() - start);
    }
    return best;
  }

  it("four times the ids costs about four times as much, not sixteen (a ratio, not a duration)", () => {
    mergeReadingEachLine(1_000); // warm-up
    const small = bestOf(5, () => mergeReadingEachLine(1_500));
    const large = bestOf(5, () => mergeReadingEachLine(6_000));
    // Linear: about 4. Rebuilding the list on every line (quadratic): about 16.
    expect(large / small).toBeLessThan(9);
  });
});
