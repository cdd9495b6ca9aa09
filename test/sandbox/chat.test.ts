/** platform-api.md, Agent chat: the agent chat stream, read raw line by line over loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_KEY, makeReport, placement, seedWith } from "../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox(
    seedWith([
      makeReport(1, [placement("Sales", "B2", { syncStatus: "CHANGED" })], { name: "Revenue by Region" }),
      makeReport(2, [], { name: "Churn" }),
    ]),
  );
});
afterAll(async () => {
  await sandbox?.stop();
});

// biome-ignore lint/suspicious/noExplicitAny: stream lines are read field by field
type Msg = Record<string, any>;

const chatUrl = (agent = "sales-agent") =>
  `${sandbox.url}/api/v1/public/sandbox/agents/${agent}/chat/stream-chat-state`;
const abortUrl = (agent = "sales-agent") => `${sandbox.url}/api/v1/public/sandbox/agents/${agent}/chat/abort`;

let nextMessageId = 1_700_000_000_000;
const newMessageId = () => `${nextMessageId++}-message`;

function post(url: string, body: unknown) {
  return fetch(url, {
    method: "POST",
    headers: { Authorization: `Api-Key ${AGENT_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Reads a response body as lines, calling `onLine` for each (it may act mid-stream). */
async function readLines(res: Response, onLine?: (line: string) => Promise<void> | void): Promise<string[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.trim()) {
        lines.push(line);
        await onLine?.(line);
      }
      nl = buffer.indexOf("\n");
    }
    if (done) break;
  }
  if (buffer.trim()) lines.push(buffer);
  return lines;
}

async function ask(body: Msg): Promise<{ res: Response; lines: Msg[] }> {
  const res = await post(chatUrl(), body);
  expect(res.status).toBe(200);
  const lines = (await readLines(res)).map((l) => JSON.parse(l) as Msg);
  return { res, lines };
}

/** The spec's answer: deltas merged by id, then the last assistant message whose graphPath starts with "final". */
function answerOf(lines: Msg[]): string {
  const merged = new Map<string, Msg>();
  for (const l of lines) {
    if (!l.id || !l.role) continue;
    const prev = merged.get(l.id);
    if (prev && l.isDelta) prev.content += l.content;
    else merged.set(l.id, { ...l });
  }
  const finals = [...merged.values()].filter(
    (m) => m.role === "assistant" && m.graphPath?.[0] === "final" && m.graphPath.length <= 2,
  );
  return finals.at(-1)?.content ?? "";
}

const ann = { externalId: "ann", email: "ann@example.com" };

describe("the agent chat: the stream, in the real service's order and shapes", () => {
  it("cutoff first, the user's message, progress and tool calls, a non-final message, the answer in deltas, __state__, __usage__ last", async () => {
    const messageId = newMessageId();
    const { res, lines } = await ask({
      input: "What is the revenue by region?",
      messageId,
      sessionSettings: ann,
    });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("transfer-encoding")).toBe("chunked");

    const cutoff = lines[0]!;
    expect(cutoff).toMatchObject({ id: "__cutoff__", sort: 0, state: { isStreaming: true } });
    expect(typeof cutoff.state.chatId).toBe("string");
    expect(lines[1]).toMatchObject({
      id: messageId,
      role: "user",
      content: "What is the revenue by region?",
    });

    const usage = lines.at(-1)!;
    expect(usage).toMatchObject({ id: "__usage__", type: "usage" });
    expect(usage.role).toBeUndefined();
    for (const k of [
      "llmCalls",
      "inputTokens",
      "outputTokens",
      "cacheWriteTokens",
      "cacheReadTokens",
      "totalTokens",
    ]) {
      expect(typeof usage.usage[k], k).toBe("number");
    }
    const state = lines.at(-2)!;
    expect(state.id).toBe("__state__");

    const progress = lines.find((l) => l.role === "assistant" && l.graphPath?.join("/") === "analyst");
    expect(progress?.content).toBeTruthy();
    const tools = lines.filter((l) => l.graphPath?.join("/") === "analyst/tools");
    expect(tools.at(-1)?.toolCall).toMatchObject({ name: "query_data", result: expect.any(String) });

    const answerLines = lines.filter((l) => l.graphPath?.[0] === "final");
    expect(new Set(answerLines.map((l) => l.id)).size).toBe(1);
    expect(answerLines.length).toBeGreaterThan(2);
    expect(answerLines.every((l) => l.isDelta === true && l.role === "assistant")).toBe(true);
    expect(answerLines.map((l) => l.isInProcess)).toEqual([...answerLines.slice(1).map(() => true), false]);
    // A non-final assistant message comes before the answer.
    const firstAnswer = lines.indexOf(answerLines[0]!);
    expect(
      lines.slice(2, firstAnswer).some((l) => l.role === "assistant" && l.graphPath?.[0] !== "final"),
    ).toBe(true);

    const answer = answerOf(lines);
    expect(answer).toContain("| Region |");
    for (const region of ["North America", "Europe", "Asia Pacific", "Latin America"])
      expect(answer).toContain(region);
    // __state__ holds the whole thread, the answer merged.
    expect(state.state.messages.map((m: Msg) => m.id)).toContain(messageId);
    expect(state.state.messages.at(-1)).toMatchObject({ role: "assistant", content: answer });
  });

  it("is deterministic: the same conversation gets the same answer", async () => {
    const a = await ask({ input: "Top region in Q3?", sessionSettings: ann });
    const b = await ask({ input: "Top region in Q3?", sessionSettings: ann });
    expect(answerOf(a.lines)).toBe(answerOf(b.lines));
    expect(a.lines[0]!.state.chatId).not.toBe(b.lines[0]!.state.chatId);
  });

  it("4. sending the chatId of __cutoff__ keeps the conversation context", async () => {
    const first = await ask({ input: "What is the revenue by region?", sessionSettings: ann });
    const chatId = first.lines[0]!.state.chatId;
    const second = await ask({ input: "And in Q2 for Europe?", chatId, sessionSettings: ann });
    expect(second.lines[0]).toMatchObject({ id: "__cutoff__", state: { chatId } });
    const answer = answerOf(second.lines);
    expect(answer).toContain("What is the revenue by region?");
    expect(answer).toContain("| Europe | 1,012 |");
    expect(answer).not.toContain("North America");
    const recap = await ask({ input: "What did I ask so far?", chatId, sessionSettings: ann });
    expect(answerOf(recap.lines)).toMatch(/1\. What is the revenue by region\?\n2\. And in Q2 for Europe\?/);
  });

  it("5. user attributes of sessionSettings scope the answer (row-level security)", async () => {
    const eu = await ask({
      input: "Revenue by region?",
      sessionSettings: { externalId: "bo", userAttributes: [{ name: "region", value: "Europe" }] },
    });
    const answer = answerOf(eu.lines);
    expect(answer).toContain("Europe");
    expect(answer).not.toContain("North America");
    expect(answer).toMatch(/row-level security: region = Europe/);
    const two = answerOf(
      (
        await ask({
          input: "Revenue by region?",
          sessionSettings: { externalId: "bo", userAttributes: [{ name: "region", value: ["NA", "APAC"] }] },
        })
      ).lines,
    );
    expect(two).toContain("North America");
    expect(two).toContain("Asia Pacific");
    expect(two).not.toContain("Europe |");
    const none = answerOf(
      (
        await ask({
          input: "Revenue by region?",
          sessionSettings: { externalId: "bo", userAttributes: [{ name: "region", value: "Antarctica" }] },
        })
      ).lines,
    );
    expect(none).toMatch(/No revenue rows are visible/);
  });

  it("answers about the deployment's reports as they stand", async () => {
    const { lines } = await ask({ input: "Which reports are out of date?", sessionSettings: ann });
    const answer = answerOf(lines);
    expect(answer).toContain("| Revenue by Region | 1 | 1 |");
    expect(answer).toContain("| Churn | 0 | 0 |");
  });

  it("a chatId with no input returns the thread", async () => {
    const first = await ask({ input: "Revenue by region?", sessionSettings: ann });
    const chatId = first.lines[0]!.state.chatId;
    const { lines } = await ask({ chatId, sessionSettings: ann });
    expect(lines[0]).toMatchObject({ id: "__cutoff__", state: { chatId, isStreaming: false } });
    expect(lines.at(-1)?.id).toBe("__usage__");
    expect(answerOf(lines)).toBe(answerOf(first.lines));
    expect(lines.filter((l) => l.role === "user").map((l) => l.content)).toEqual(["Revenue by region?"]);
  });

  it("the same messageId after the run finished replays the same stream and adds no turn", async () => {
    const messageId = newMessageId();
    const first = await ask({ input: "Revenue by region?", messageId, sessionSettings: ann });
    const chatId = first.lines[0]!.state.chatId;
    const again = await ask({ input: "Revenue by region?", messageId, chatId, sessionSettings: ann });
    expect(again.lines).toEqual(first.lines);
    const thread = await ask({ chatId, sessionSettings: ann });
    expect(thread.lines.filter((l) => l.role === "user")).toHaveLength(1);
  });
});

describe("trigger words", () => {
  it("trigger:error sends an {error} line mid-stream, then __usage__", async () => {
    const { lines } = await ask({ input: "Revenue? trigger:error", sessionSettings: ann });
    const error = lines.find((l) => "error" in l)!;
    expect(typeof error.error).toBe("string");
    expect(error.id).toBeUndefined();
    expect(error.role).toBeUndefined();
    expect(lines.indexOf(error)).toBeGreaterThan(1);
    expect(lines.at(-1)?.id).toBe("__usage__");
  });

  it("trigger:malformed sends one line that is not JSON between good lines", async () => {
    const res = await post(chatUrl(), { input: "Revenue by region trigger:malformed", sessionSettings: ann });
    const raw = await readLines(res);
    const bad = raw.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    });
    expect(bad).toHaveLength(1);
    const index = raw.indexOf(bad[0]!);
    expect(index).toBeGreaterThan(0);
    expect(index).toBeLessThan(raw.length - 1);
    expect(answerOf(raw.filter((l) => l !== bad[0]).map((l) => JSON.parse(l)))).toContain("Europe");
  });

  it("trigger:suspend ends with __suspended__; the same request again completes it", async () => {
    const messageId = newMessageId();
    const body = { input: "Revenue by region? trigger:suspend", messageId, sessionSettings: ann };
    const first = await ask(body);
    const last = first.lines.at(-1)!;
    expect(last).toMatchObject({
      id: "__suspended__",
      type: "suspend",
      code: "chat_suspended",
      retryable: true,
      messageId,
    });
    expect(answerOf(first.lines)).toBe("");
    const chatId = first.lines[0]!.state.chatId;
    const resumed = await ask({ ...body, chatId });
    expect(resumed.lines[0]).toMatchObject({ id: "__cutoff__", state: { chatId } });
    expect(resumed.lines.some((l) => l.id === "__suspended__")).toBe(false);
    expect(answerOf(resumed.lines)).toContain("| Region |");
    expect(resumed.lines.at(-1)?.id).toBe("__usage__");
  });

  it("trigger:slow is stopped by /chat/abort: 204, then __aborted__ and __usage__ end the stream", async () => {
    const res = await post(chatUrl(), { input: "Revenue trigger:slow", sessionSettings: ann });
    let aborted: Response | null = null;
    let chatId = "";
    const raw = await readLines(res, async (line) => {
      const msg = JSON.parse(line) as Msg;
      if (msg.id === "__cutoff__") chatId = msg.state.chatId;
      if (msg.role === "user") {
        // Another caller may not stop it; an unknown chat is 404.
        expect((await post(abortUrl(), { chatId, sessionSettings: { externalId: "mallory" } })).status).toBe(
          403,
        );
        expect((await post(abortUrl(), { chatId: "no-such-chat" })).status).toBe(404);
        aborted = await post(abortUrl(), { chatId, sessionSettings: ann });
      }
    });
    expect(aborted!.status).toBe(204);
    expect(await aborted!.text()).toBe("");
    const lines = raw.map((l) => JSON.parse(l) as Msg);
    expect(lines.at(-2)).toMatchObject({ id: "__aborted__", type: "abort", code: "chat_aborted" });
    expect(lines.at(-1)?.id).toBe("__usage__");
  });
});

describe("the agent chat: messageId", () => {
  it("the same messageId while its stream is still running re-subscribes to it; another question in that chat waits (409)", async () => {
    const messageId = newMessageId();
    const body = { input: "Revenue trigger:slow", messageId, sessionSettings: ann };
    const first = await post(chatUrl(), body);
    let chatId = "";
    let second: Promise<string[]> | null = null;
    const firstLines = await readLines(first, async (line) => {
      const msg = JSON.parse(line) as Msg;
      if (msg.id === "__cutoff__") chatId = msg.state.chatId;
      if (msg.role === "user" && !second) {
        const again = await post(chatUrl(), { ...body, chatId });
        expect(again.status).toBe(200);
        second = readLines(again);
        const busy = await post(chatUrl(), { input: "Another question", chatId, sessionSettings: ann });
        expect(busy.status).toBe(409);
        expect((await post(abortUrl(), { chatId, sessionSettings: ann })).status).toBe(204);
      }
    });
    const secondLines = (await second!)!.map((l) => JSON.parse(l) as Msg);
    // The re-subscriber got what was sent before it came (replayed), then the rest live.
    expect(secondLines.map((l) => l.id)).toEqual(firstLines.map((l) => (JSON.parse(l) as Msg).id));
    expect(secondLines.at(-2)?.id).toBe("__aborted__");
  });
});

describe("streaming: each line is sent as it is produced, and a run outlives its caller", () => {
  it("the first line arrives while the run is still going (nothing waits for the stream to end)", async () => {
    const res = await post(chatUrl(), { input: "Revenue trigger:slow", sessionSettings: ann });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    while (!buffer.includes("\n")) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      buffer += decoder.decode(value, { stream: true });
    }
    const first = JSON.parse(buffer.slice(0, buffer.indexOf("\n"))) as Msg;
    expect(first).toMatchObject({ id: "__cutoff__", state: { isStreaming: true } });
    const chatId = first.state.chatId as string;
    // The thread itself says its answer is still streaming: the line was not held back to the end.
    const thread = await ask({ chatId, sessionSettings: ann });
    expect(thread.lines[0]).toMatchObject({ id: "__cutoff__", state: { chatId, isStreaming: true } });
    expect((await post(abortUrl(), { chatId, sessionSettings: ann })).status).toBe(204);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
    }
    const lines = buffer.trim().split("\n");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ id: "__usage__" });
  });

  it("a caller that disconnects mid-stream does not stop the run: the same messageId then gets all of it", async () => {
    const messageId = newMessageId();
    const body = { input: "Revenue by region?", messageId, sessionSettings: ann };
    const walkaway = new AbortController();
    const res = await fetch(chatUrl(), {
      method: "POST",
      headers: { Authorization: `Api-Key ${AGENT_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: walkaway.signal,
    });
    let chatId = "";
    await readLines(res, (line) => {
      const msg = JSON.parse(line) as Msg;
      if (msg.id === "__cutoff__") chatId = msg.state.chatId;
      if (msg.role === "user") walkaway.abort();
    }).catch(() => undefined);
    expect(chatId).not.toBe("");
    const again = await ask({ ...body, chatId });
    expect(again.lines[0]).toMatchObject({ id: "__cutoff__", state: { chatId } });
    expect(again.lines.at(-2)?.id).toBe("__state__");
    expect(again.lines.at(-1)?.id).toBe("__usage__");
    expect(answerOf(again.lines)).toContain("| Region |");
    const thread = await ask({ chatId, sessionSettings: ann });
    expect(answerOf(thread.lines)).toBe(answerOf(again.lines));
  });
});

describe("chat requests the service refuses (nothing is stored)", () => {
  it("400 for bad bodies and identities", async () => {
    for (const body of [
      { input: "hi" },
      { input: "hi", sessionSettings: { externalId: "Ann" } },
      { input: "hi", sessionSettings: { externalId: " ann" } },
      { input: "hi", sessionSettings: {} },
      { input: "hi", sessionSettings: { externalId: "ann", userAttributes: [{ name: "salary", value: 1 }] } },
      { input: 42, sessionSettings: ann },
      { sessionSettings: ann },
      { input: "hi", messageId: "not-a-message-id", sessionSettings: ann },
    ]) {
      const res = await post(chatUrl(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof ((await res.json()) as Msg).message).toBe("string");
    }
    const res = await fetch(chatUrl(), {
      method: "POST",
      headers: { Authorization: `Api-Key ${AGENT_KEY}` },
      body: "{not json",
    });
    expect(res.status).toBe(400);
  });

  it("a thread belongs to its externalId (403) and to its agent (404 elsewhere)", async () => {
    const first = await ask({ input: "Revenue by region?", sessionSettings: ann });
    const chatId = first.lines[0]!.state.chatId;
    expect(
      (await post(chatUrl(), { input: "more", chatId, sessionSettings: { externalId: "bo" } })).status,
    ).toBe(403);
    expect((await post(chatUrl(), { chatId, sessionSettings: { externalId: "bo" } })).status).toBe(403);
    expect((await post(chatUrl("ops-agent"), { input: "more", chatId, sessionSettings: ann })).status).toBe(
      404,
    );
    expect(
      (await post(chatUrl(), { input: "more", chatId: "no-such-chat", sessionSettings: ann })).status,
    ).toBe(404);
    const thread = await ask({ chatId, sessionSettings: ann });
    expect(thread.lines.filter((l) => l.role === "user")).toHaveLength(1);
  });
});
