import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  type AgentChatOptions,
  type AskRequest,
  conversationId,
  createAgentChat,
  createMessageMerger,
  createSyncAgentChat,
  finalAnswer,
  type MergedChatMessage,
  mergeChatMessages,
  sortChatMessages,
} from "../../src/core/index.js";
import {
  fetchTransport,
  type HttpRequest,
  type SyncTransport,
  type Transport,
} from "../../src/core/transport.js";

/** A fixed "random" source, so generated message ids are known (the randomness has its own tests). */
const randomBytes = (n: number) => new Uint8Array(n).fill(7);

const encoder = new TextEncoder();

const CHAT_ID = "chat-7f3a";
/** What the chats below generate: the clock's millisecond, then the fixed "random" digits of `randomBytes`. */
const MESSAGE_ID = "1718000000000777777777777-message";

/** A stream in the order the real service sends it (platform-api.md, "Agent chat, more precisely"). */
function realStream(options: { chatId?: string; messageId?: string; input?: string } = {}): object[] {
  const chatId = options.chatId ?? CHAT_ID;
  const messageId = options.messageId ?? MESSAGE_ID;
  return [
    { id: "__cutoff__", sort: 0, state: { chatId, isStreaming: true } },
    { id: messageId, role: "user", content: options.input ?? "How many orders last month?", sort: 1 },
    {
      id: "m-1",
      role: "assistant",
      content: "Let me look at the orders cube.",
      graphPath: ["cube_data_analyst_agent"],
      sort: 2,
    },
    {
      id: "m-2",
      role: "assistant",
      content: "",
      graphPath: ["cube_data_analyst_agent", "tools"],
      toolCall: { name: "load_data", input: { measures: ["orders.count"] } },
      isInProcess: true,
      sort: 3,
    },
    {
      id: "m-2",
      role: "assistant",
      content: "",
      graphPath: ["cube_data_analyst_agent", "tools"],
      toolCall: { name: "load_data", input: { measures: ["orders.count"] }, result: [{ count: 1204 }] },
      sort: 3,
    },
    {
      id: "m-3",
      role: "assistant",
      content: "There were ",
      graphPath: ["final"],
      isDelta: true,
      isInProcess: true,
      sort: 4,
    },
    { id: "m-3", content: "1,204 orders ", isDelta: true, isInProcess: true },
    { id: "m-3", content: "last month.", isDelta: true, isInProcess: false },
    { id: "__state__", sort: 5, state: { chatId, messages: [{ role: "user" }, { role: "assistant" }] } },
    {
      id: "__usage__",
      type: "usage",
      usage: { models: ["m"], llmCalls: 2, inputTokens: 900, outputTokens: 80, totalTokens: 980 },
    },
  ];
}

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

// ---------------------------------------------------------------------------------------------
// createAgentChat over a real loopback HTTP server

const API_KEY = "ak_live_9f8e7d6c5b4a39281706";
const SESSION = { externalId: "ana@example.com", email: "ana@example.com" };

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

type Handler = (request: Received, response: ServerResponse, n: number) => void | Promise<void>;

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function startServer(handler: Handler) {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      // Left empty: a test asserting on json will fail on its own.
    }
    const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json };
    received.push(request);
    await handler(request, res, received.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    chatUrl: `${base}/api/v1/public/acme/agents/42/chat/stream-chat-state`,
    received,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function ndjsonResponse(res: ServerResponse, status = 200): void {
  // The real service serves NDJSON as application/json (platform-api.md).
  res.writeHead(status, { "Content-Type": "application/json" });
}

async function writeLines(res: ServerResponse, lines: object[], delayMs = 0): Promise<void> {
  for (const line of lines) {
    res.write(`${JSON.stringify(line)}\n`);
    if (delayMs) await sleep(delayMs);
  }
}

function chatFor(chatUrl: string, extra: Partial<AgentChatOptions> = {}) {
  const delays: number[] = [];
  const chat = createAgentChat({
    chatUrl,
    apiKey: API_KEY,
    transport: fetchTransport(fetch),
    sessionSettings: SESSION,
    now: () => 1718000000000,
    randomBytes,
    retryDelaysMs: [5, 10],
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...extra,
  });
  return { chat, delays };
}

async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    return error as PlatformError;
  }
  throw new Error("expected a rejection");
}

describe("createAgentChat", () => {
  it("auth rule 6: the agent chat request carries Authorization: Api-Key <API_KEY>, with JSON content type and an NDJSON accept", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    await chatFor(server.chatUrl).chat.ask({ input: "How many orders last month?" });
    const [request] = server.received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/v1/public/acme/agents/42/chat/stream-chat-state");
    expect(request?.headers.authorization).toBe(`Api-Key ${API_KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.accept).toBe("application/x-ndjson, application/json");
  });

  it("sends the chat request (platform-api.md, Agent chat) with a generated messageId, and no chatId for a new conversation", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({
      input: "How many orders last month?",
      sessionSettings: {
        externalId: "  Ana@Example.com ",
        userAttributes: [{ name: "region", value: "EU" }],
      },
    });
    expect(server.received[0]?.json).toEqual({
      input: "How many orders last month?",
      messageId: MESSAGE_ID,
      // platform-api.md: externalId must be lowercase and trimmed.
      sessionSettings: { externalId: "ana@example.com", userAttributes: [{ name: "region", value: "EU" }] },
    });
    expect(result).toMatchObject({
      answer: "There were 1,204 orders last month.",
      chatId: CHAT_ID,
      messageId: MESSAGE_ID,
    });
    expect(result.messages.map((m) => m.id)).toContain("__usage__");
    expect(result.messages.find((m) => m.role === "user")?.content).toBe("How many orders last month?");
  });

  it("rule 4: sending that value as chatId in the next request keeps the conversation context", async () => {
    const server = await startServer(async (req, res) => {
      ndjsonResponse(res);
      const chatId = typeof req.json.chatId === "string" ? req.json.chatId : "chat-new-1";
      await writeLines(res, realStream({ chatId }));
      res.end();
    });
    const { chat } = chatFor(server.chatUrl);
    const first = await chat.ask({ input: "How many orders last month?" });
    const second = await chat.ask({ input: "And the month before?", chatId: first.chatId ?? undefined });
    expect(first.chatId).toBe("chat-new-1");
    expect(server.received[1]?.json.chatId).toBe("chat-new-1");
    expect(second.chatId).toBe("chat-new-1");
  });

  it("rule 1: requests to different agents have an identical shape; only the URL differs", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    const otherAgent = server.chatUrl.replace("/agents/42/", "/agents/77/");
    await chatFor(server.chatUrl).chat.ask({ input: "Same question" });
    await chatFor(otherAgent).chat.ask({ input: "Same question" });
    const [a, b] = server.received;
    expect(a?.path).not.toBe(b?.path);
    expect(b?.path).toBe("/api/v1/public/acme/agents/77/chat/stream-chat-state");
    expect(a?.body).toBe(b?.body);
    const shape = (r: Received | undefined) => ({
      method: r?.method,
      authorization: r?.headers.authorization,
      contentType: r?.headers["content-type"],
      accept: r?.headers.accept,
    });
    expect(shape(a)).toEqual(shape(b));
  });

  it("delivers each merged message to onMessage while the stream is still open", async () => {
    let ended = false;
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream(), 25);
      ended = true;
      res.end();
    });
    const seen: { id: string; content: string | null | undefined; total: number; ended: boolean }[] = [];
    const result = await chatFor(server.chatUrl).chat.ask(
      { input: "How many orders last month?" },
      { onMessage: (m, all) => seen.push({ id: m.id, content: m.content, total: all.length, ended }) },
    );
    expect(seen).toHaveLength(10);
    expect(seen[0]).toMatchObject({ id: "__cutoff__", total: 1, ended: false });
    expect(seen.filter((s) => s.id === "m-3").map((s) => s.content)).toEqual([
      "There were ",
      "There were 1,204 orders ",
      "There were 1,204 orders last month.",
    ]);
    expect(seen.filter((s) => s.ended)).toHaveLength(0);
    expect(result.answer).toBe("There were 1,204 orders last month.");
  });

  it("returns the thread for a chatId without input", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream({ chatId: "c-old" }));
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ chatId: "c-old" });
    expect(server.received[0]?.json).not.toHaveProperty("input");
    expect(server.received[0]?.json.chatId).toBe("c-old");
    expect(result.chatId).toBe("c-old");
    expect(result.messages.length).toBeGreaterThan(0);
  });

  it("rejects an error line mid-stream with kind stream, the service's text without the key, and what to do", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 3));
      await writeLines(res, [{ error: `Model quota exceeded for key ${API_KEY}` }]);
      await writeLines(res, realStream().slice(3));
      res.end();
    });
    const seen: string[] = [];
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask({ input: "q" }, { onMessage: (m) => seen.push(m.id) }),
    );
    expect(error.kind).toBe("stream");
    expect(error.message).toContain("Model quota exceeded");
    expect(error.message).toMatch(/Ask again/);
    expect(error.message).not.toContain(API_KEY);
    expect(error.serviceMessage).not.toContain(API_KEY);
    expect(seen).toEqual(["__cutoff__", MESSAGE_ID, "m-1"]);
  });

  it("resumes once after __suspended__ with the same chatId, input and messageId", async () => {
    const server = await startServer(async (req, res, n) => {
      ndjsonResponse(res);
      if (n === 1) {
        await writeLines(res, [
          ...realStream({ chatId: "c-9" }).slice(0, 6),
          {
            id: "__suspended__",
            type: "suspend",
            code: "chat_suspended",
            retryable: true,
            messageId: req.json.messageId,
            error: "Server restarting",
          },
          { id: "__usage__", type: "usage", usage: {} },
        ]);
      } else if (req.json.messageId === MESSAGE_ID && req.json.chatId === "c-9" && req.json.input === "q") {
        // A re-subscribed run replays its messages from the start.
        await writeLines(res, realStream({ chatId: "c-9" }));
      } else {
        await writeLines(res, [{ error: "resumed with a different request" }]);
      }
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ input: "q", messageId: MESSAGE_ID });
    expect(server.received).toHaveLength(2);
    expect(server.received[0]?.json).not.toHaveProperty("chatId");
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(result.chatId).toBe("c-9");
  });

  it("rejects a second __suspended__ with kind stream and does not ask a third time", async () => {
    const server = await startServer(async (req, res) => {
      ndjsonResponse(res);
      await writeLines(res, [
        { id: "__cutoff__", sort: 0, state: { chatId: "c-9" } },
        {
          id: "__suspended__",
          type: "suspend",
          retryable: true,
          messageId: req.json.messageId,
          error: "restart",
        },
      ]);
      res.end();
    });
    const error = await rejection(chatFor(server.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/interrupted/);
    expect(server.received).toHaveLength(2);
  });

  it("rejects with kind aborted when the stream ends with __aborted__", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, [
        ...realStream().slice(0, 6),
        { id: "__aborted__", type: "abort", code: "chat_aborted" },
        { id: "__usage__", type: "usage", usage: {} },
      ]);
      res.end();
    });
    const seen: MergedChatMessage[] = [];
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask(
        { input: "q" },
        { onMessage: (_m, all) => seen.splice(0, Infinity, ...all) },
      ),
    );
    expect(error.kind).toBe("aborted");
    // The partial answer reached the caller before the rejection.
    expect(finalAnswer(seen)).toBe("There were ");
  });

  it("stops reading and rejects with kind aborted when the caller's signal aborts", async () => {
    let serverSawClose = false;
    const server = await startServer(async (_req, res) => {
      res.on("close", () => {
        serverSawClose = true;
      });
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 3));
      // Then hang, as a long-running answer does.
    });
    const controller = new AbortController();
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask(
        { input: "q" },
        {
          signal: controller.signal,
          onMessage: (m) => {
            if (m.id === "m-1") controller.abort();
          },
        },
      ),
    );
    expect(error.kind).toBe("aborted");
    await expect.poll(() => serverSawClose).toBe(true);
  });

  it("does not send anything when the signal is already aborted", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask({ input: "q" }, { signal: AbortSignal.abort() }),
    );
    expect(error.kind).toBe("aborted");
    expect(server.received).toHaveLength(0);
  });

  it("refuses an insecure chat URL before any request is sent", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    let calls = 0;
    const counting: Transport = (request) => {
      calls += 1;
      return fetchTransport(fetch)(request);
    };
    const insecure = server.chatUrl.replace("127.0.0.1", "reporting.example.com");
    const { chat } = chatFor(insecure, { transport: counting });
    const askError = await rejection(chat.ask({ input: "q" }));
    const abortError = await rejection(chat.abort("c-1"));
    expect(askError.kind).toBe("insecure-url");
    expect(askError.message).toMatch(/https/);
    expect(abortError.kind).toBe("insecure-url");
    expect(calls).toBe(0);
    expect(server.received).toHaveLength(0);
  });

  it("refuses a chat URL whose path does not end in /chat/stream-chat-state", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const error = await rejection(chatFor(`${server.base}/api/v1/agents/42/chat`).chat.ask({ input: "q" }));
    expect(error.message).toContain("/chat/stream-chat-state");
    expect(server.received).toHaveLength(0);
  });

  it("refuses a request without sessionSettings or without input and chatId, before sending", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const noSettings = createAgentChat({
      chatUrl: server.chatUrl,
      apiKey: API_KEY,
      transport: fetchTransport(fetch),
      randomBytes,
    });
    expect((await rejection(noSettings.ask({ input: "q" }))).kind).toBe("bad-request");
    expect((await rejection(chatFor(server.chatUrl).chat.ask({}))).kind).toBe("bad-request");
    expect((await rejection(chatFor(server.chatUrl).chat.ask({ input: "q", messageId: "abc" }))).kind).toBe(
      "bad-request",
    );
    expect(server.received).toHaveLength(0);
  });

  it("refuses to send without an API key", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const error = await rejection(chatFor(server.chatUrl, { apiKey: " " }).chat.ask({ input: "q" }));
    expect(error.kind).toBe("unauthorized");
    expect(error.message).toContain("Settings");
    expect(server.received).toHaveLength(0);
  });

  it.each([
    [401, "unauthorized", /agent API key was refused \(401\)/],
    [403, "forbidden", /not allowed to ask the agent \(403\)/],
  ] as const)("maps %i to kind %s, without the key in the message", async (status, kind, text) => {
    const server = await startServer((_req, res) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: `Key ${API_KEY} has no access to agent 42` }));
    });
    const error = await rejection(chatFor(server.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toMatch(text);
    expect(error.message).toContain("has no access to agent 42");
    expect(error.message).not.toContain(API_KEY);
    expect(JSON.stringify(error.toJSON())).not.toContain(API_KEY);
    expect(server.received).toHaveLength(1);
  });

  it("retries 503 and 429 with the same messageId, then streams", async () => {
    const server = await startServer(async (_req, res, n) => {
      if (n === 1) {
        res.writeHead(503);
        res.end("Service Unavailable");
      } else if (n === 2) {
        res.writeHead(429, { "Retry-After": "0" });
        res.end("{}");
      } else {
        ndjsonResponse(res);
        await writeLines(res, realStream());
        res.end();
      }
    });
    const { chat, delays } = chatFor(server.chatUrl);
    const result = await chat.ask({ input: "q" });
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(server.received).toHaveLength(3);
    expect(new Set(server.received.map((r) => r.json.messageId))).toEqual(new Set([MESSAGE_ID]));
    expect(delays).toEqual([5, 10]);
  });

  it("gives up after 2 retries, and does not retry a 400", async () => {
    const failing = await startServer((_req, res) => {
      res.writeHead(502);
      res.end("<html><body>Bad gateway</body></html>");
    });
    const error = await rejection(chatFor(failing.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe("server");
    expect(error.message).toContain("Bad gateway");
    expect(failing.received).toHaveLength(3);

    const refusing = await startServer((_req, res) => {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "userAttributes.region is not configured" }));
    });
    const badRequest = await rejection(chatFor(refusing.chatUrl).chat.ask({ input: "q" }));
    expect(badRequest.kind).toBe("bad-request");
    expect(badRequest.message).toContain("userAttributes.region is not configured");
    expect(refusing.received).toHaveLength(1);
  });

  it("does not retry once the stream has started, and reports a broken connection as network", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 3));
      await sleep(20);
      res.destroy();
    });
    const error = await rejection(chatFor(server.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe("network");
    expect(server.received).toHaveLength(1);
  });

  it("reports an unreachable service as kind network after retrying, without the key", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const deadUrl = server.chatUrl;
    const server0 = servers.pop() as Server;
    server0.closeAllConnections();
    await new Promise<void>((resolve) => server0.close(() => resolve()));
    const { chat, delays } = chatFor(deadUrl);
    const error = await rejection(chat.ask({ input: "q" }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("127.0.0.1");
    expect(error.message).not.toContain(API_KEY);
    expect(delays).toHaveLength(2);
  });

  it("reports a 200 that is not NDJSON (a proxy's HTML page) as invalid-response", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>\n<body>Sign in to continue</body>\n</html>\n");
    });
    const error = await rejection(chatFor(server.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe("invalid-response");
  });

  it("reads a body given whole as text (an Apps Script transport)", async () => {
    const text = realStream()
      .map((l) => JSON.stringify(l))
      .join("\r\n");
    const transport: Transport = async () => ({ status: 200, headers: {}, body: text });
    const chat = createAgentChat({
      chatUrl: "https://ai.eu.example.com/api/v1/public/acme/agents/42/chat/stream-chat-state",
      apiKey: API_KEY,
      transport,
      sessionSettings: SESSION,
      randomBytes,
    });
    const result = await chat.ask({ input: "q" });
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(result.messageId).toMatch(/^\d{13,}-message$/);
  });
});

describe("createAgentChat on hostile streams", () => {
  it("a 5 MB answer line is cut at the line limit: the answer so far comes back marked too large, in bounded memory", async () => {
    const big = "é5".repeat(5 * 512 * 1024); // 5 MB of UTF-8 (é is 2 bytes), a multi-byte char at every cut
    const lines = realStream();
    lines.splice(8, 0, { id: "m-big", role: "assistant", content: big, graphPath: ["final"], sort: 6 });
    const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    const bytes = encoder.encode(text);
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      // Odd-sized writes, so pieces end inside a multi-byte character.
      for (let at = 0; at < bytes.length; at += 65_537) res.write(bytes.subarray(at, at + 65_537));
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ input: "q" });
    expect(bytes.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(result.incomplete?.reason).toBe("too-large");
    expect(result.incomplete?.message).toMatch(/cut: it passed the add-in's limit/);
    expect(result.messages.map((m) => m.id)).not.toContain("m-big");
    expect(result.chatId).toBe(CHAT_ID);
  });

  it("CRLF line ends, blank lines and a malformed line between good ones still give the whole answer", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      const lines = realStream().map((l) => JSON.stringify(l));
      lines.splice(3, 0, "", "   ", '{"id": "m-x", "role": "assist');
      res.end(`${lines.join("\r\n")}\r\n\r\n`);
    });
    const result = await chatFor(server.chatUrl).chat.ask({ input: "q" });
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(result.chatId).toBe(CHAT_ID);
    expect(result.messages.map((m) => m.id)).not.toContain("m-x");
  });

  it("a stream without __cutoff__: the answer is still read; chatId is null for a new conversation, the request's for a follow-up", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(
        res,
        realStream().filter((l) => (l as { id?: string }).id !== "__cutoff__"),
      );
      res.end();
    });
    const { chat } = chatFor(server.chatUrl);
    const fresh = await chat.ask({ input: "q" });
    expect(fresh.answer).toBe("There were 1,204 orders last month.");
    // __state__ carries a chatId too, but chat rule 4 reads it from __cutoff__ only.
    expect(fresh.chatId).toBeNull();
    const followUp = await chat.ask({ input: "and before?", chatId: "chat-earlier" });
    expect(followUp.answer).toBe("There were 1,204 orders last month.");
    expect(followUp.chatId).toBe("chat-earlier");
    expect(server.received[1]?.json.chatId).toBe("chat-earlier");
  });

  it("a stream that stops after __cutoff__ without an answer resolves with no answer and the conversation id", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 2));
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ input: "q" });
    expect(result.answer).toBeNull();
    expect(result.chatId).toBe(CHAT_ID);
  });
});

describe("AgentChat.abort", () => {
  it("POSTs {chatId, sessionSettings} to /chat/abort with the Api-Key header and resolves true on 204", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await chatFor(server.chatUrl).chat.abort("c-1")).toBe(true);
    const [request] = server.received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/v1/public/acme/agents/42/chat/abort");
    expect(request?.headers.authorization).toBe(`Api-Key ${API_KEY}`);
    expect(request?.json).toEqual({ chatId: "c-1", sessionSettings: SESSION });
  });

  it.each([
    [404, "not-found"],
    [403, "forbidden"],
  ] as const)("rejects %i with kind %s", async (status, kind) => {
    const server = await startServer((_req, res) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: `chat c-1 not yours (${API_KEY})` }));
    });
    const error = await rejection(chatFor(server.chatUrl).chat.abort("c-1"));
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(API_KEY);
  });
});

// ---------------------------------------------------------------------------------------------
// createSyncAgentChat: the same rules over a synchronous transport (Apps Script's UrlFetchApp)

const SYNC_CHAT_URL = "https://ai.eu.example.com/api/v1/public/acme/agents/42/chat/stream-chat-state";

type SyncAnswer = ReturnType<SyncTransport>;

const ndjson = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join("\n");

/** A sync chat over scripted answers; records each request, each wait, and answers 500 when out. */
function syncChatFor(answers: (SyncAnswer | Error)[], extra: { chatUrl?: string; apiKey?: string } = {}) {
  const requests: (Omit<HttpRequest, "signal"> & { json: Record<string, unknown> })[] = [];
  const delays: number[] = [];
  const chat = createSyncAgentChat({
    chatUrl: extra.chatUrl ?? SYNC_CHAT_URL,
    apiKey: extra.apiKey ?? API_KEY,
    transport: (request) => {
      requests.push({ ...request, json: request.body ? JSON.parse(request.body) : {} });
      const next = answers.shift() ?? { status: 500, headers: {}, body: "no more answers" };
      if (next instanceof Error) throw next;
      return next;
    },
    sleep: (ms) => {
      delays.push(ms);
    },
    sessionSettings: SESSION,
    now: () => 1718000000000,
    randomBytes,
  });
  return { chat, requests, delays };
}

function thrown(work: () => unknown): PlatformError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    return error as PlatformError;
  }
  throw new Error("expected a PlatformError");
}

const ok = (body: string): SyncAnswer => ({ status: 200, headers: {}, body });

describe("createSyncAgentChat", () => {
  it("auth rule 6 and the chat request: POSTs with Api-Key and a <ms>-message id, and returns the whole answer", () => {
    const { chat, requests } = syncChatFor([ok(ndjson(realStream()))]);
    const result = chat.ask({
      input: "How many orders last month?",
      sessionSettings: { externalId: " Ana@Example.com " },
    });
    expect(result).toMatchObject({
      answer: "There were 1,204 orders last month.",
      chatId: CHAT_ID,
      messageId: MESSAGE_ID,
    });
    expect(result.messages).toEqual(mergeChatMessages(realStream()));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "POST", url: SYNC_CHAT_URL });
    expect(requests[0]?.headers).toEqual({
      "Content-Type": "application/json",
      Accept: "application/x-ndjson, application/json",
      Authorization: `Api-Key ${API_KEY}`,
    });
    // platform-api.md: the external id is sent lowercase and trimmed; no chatId for a new conversation.
    expect(requests[0]?.json).toEqual({
      input: "How many orders last month?",
      messageId: MESSAGE_ID,
      sessionSettings: { externalId: "ana@example.com" },
    });
  });

  it("rule 4: sends a chatId to continue; an empty one starts a new conversation", () => {
    const { chat, requests } = syncChatFor([ok(ndjson(realStream())), ok(ndjson(realStream()))]);
    chat.ask({ input: "q", chatId: CHAT_ID });
    chat.ask({ input: "q", chatId: "" });
    expect(requests[0]?.json.chatId).toBe(CHAT_ID);
    expect(requests[1]?.json).not.toHaveProperty("chatId");
  });

  it("retries a network failure, 503 and 429 with the same messageId, waiting as planned, then reads the answer", () => {
    const { chat, requests, delays } = syncChatFor([
      { status: 503, headers: {}, body: "busy" },
      { status: 429, headers: { "retry-after": "2" }, body: "" },
      ok(ndjson(realStream())),
    ]);
    expect(chat.ask({ input: "q" }).answer).toBe("There were 1,204 orders last month.");
    expect(requests.map((r) => r.json.messageId)).toEqual([MESSAGE_ID, MESSAGE_ID, MESSAGE_ID]);
    // Retry-After (2 s) outweighs the planned 1 s.
    expect(delays).toEqual([300, 2000]);
  });

  it("gives up after 2 retries, and does not retry a 400", () => {
    const failing = syncChatFor([
      new Error(`socket hang up ${API_KEY}`),
      new Error("reset"),
      new Error("reset"),
    ]);
    const error = thrown(() => failing.chat.ask({ input: "q" }));
    expect(error.kind).toBe("network");
    expect(error.message).toContain("ai.eu.example.com");
    expect(error.message).not.toContain(API_KEY);
    expect(failing.requests).toHaveLength(3);

    const refused = syncChatFor([{ status: 400, headers: {}, body: JSON.stringify({ error: "bad input" }) }]);
    expect(thrown(() => refused.chat.ask({ input: "q" })).kind).toBe("bad-request");
    expect(refused.requests).toHaveLength(1);
    expect(refused.delays).toEqual([]);
  });

  it("a 403 names the agent key and hides it", () => {
    const { chat } = syncChatFor([
      { status: 403, headers: {}, body: JSON.stringify({ error: `no (${API_KEY})` }) },
    ]);
    const error = thrown(() => chat.ask({ input: "q" }));
    expect(error.kind).toBe("forbidden");
    expect(error.message).toMatch(/agent API key/);
    expect(error.message).not.toContain(API_KEY);
  });

  it("ends with kind stream on an error line, without the key", () => {
    const { chat } = syncChatFor([
      ok(ndjson([...realStream().slice(0, 3), { error: { message: `model overloaded (${API_KEY})` } }])),
    ]);
    const error = thrown(() => chat.ask({ input: "q" }));
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/The agent stopped with an error: "model overloaded/);
    expect(error.message).not.toContain(API_KEY);
  });

  it("ends with kind aborted on __aborted__", () => {
    const { chat } = syncChatFor([
      ok(ndjson([...realStream().slice(0, 6), { id: "__aborted__", type: "abort", code: "chat_aborted" }])),
    ]);
    expect(thrown(() => chat.ask({ input: "q" })).kind).toBe("aborted");
  });

  it("resumes once after __suspended__ with the same messageId and the chat id from __cutoff__, read as a replay", () => {
    const { chat, requests } = syncChatFor([
      ok(
        ndjson([
          ...realStream({ chatId: "c-9" }).slice(0, 6),
          { id: "__suspended__", type: "suspend", retryable: true, error: "Server restarting" },
          { id: "m-late", role: "assistant", content: "not part of this run" },
        ]),
      ),
      ok(ndjson(realStream({ chatId: "c-9" }))),
    ]);
    const result = chat.ask({ input: "q" });
    expect(requests).toHaveLength(2);
    expect(requests[0]?.json).not.toHaveProperty("chatId");
    expect(requests[1]?.json).toMatchObject({ chatId: "c-9", input: "q", messageId: MESSAGE_ID });
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(result.chatId).toBe("c-9");
    expect(result.messages.map((m) => m.id)).not.toContain("m-late");
  });

  it("ends with kind stream on a second __suspended__ and does not ask a third time", () => {
    const suspended = ok(
      ndjson([
        { id: "__cutoff__", sort: 0, state: { chatId: "c-9" } },
        { id: "__suspended__", type: "suspend", retryable: true, error: "restart" },
      ]),
    );
    const { chat, requests } = syncChatFor([suspended, { ...suspended }]);
    const error = thrown(() => chat.ask({ input: "q" }));
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/interrupted/);
    expect(requests).toHaveLength(2);
  });

  it("reports a 200 that is not NDJSON (a proxy's HTML page) as invalid-response", () => {
    const { chat } = syncChatFor([ok("<html>\n<body>Sign in to continue</body>\n</html>\n")]);
    expect(thrown(() => chat.ask({ input: "q" })).kind).toBe("invalid-response");
  });

  it("refuses an insecure or wrong chat URL, a missing key and an empty question before sending", () => {
    const cases: [Parameters<typeof syncChatFor>[1], string, AskRequest][] = [
      [
        { chatUrl: "http://ai.eu.example.com/api/v1/public/acme/agents/42/chat/stream-chat-state" },
        "insecure-url",
        { input: "q" },
      ],
      [
        { chatUrl: "https://ai.eu.example.com/api/v1/public/acme/agents/42/chat" },
        "bad-request",
        { input: "q" },
      ],
      [{ apiKey: " " }, "unauthorized", { input: "q" }],
      [{}, "bad-request", {}],
    ];
    for (const [extra, kind, request] of cases) {
      const { chat, requests } = syncChatFor([], extra);
      expect(thrown(() => chat.ask(request)).kind).toBe(kind);
      expect(requests).toHaveLength(0);
    }
  });
});

describe("SyncAgentChat.abort", () => {
  it("POSTs {chatId, sessionSettings} to /chat/abort with the Api-Key header and returns true on 204", () => {
    const { chat, requests } = syncChatFor([{ status: 204, headers: {}, body: "" }]);
    expect(chat.abort("c-1", { externalId: " Ana@Example.com " })).toBe(true);
    expect(requests[0]).toMatchObject({
      method: "POST",
      url: "https://ai.eu.example.com/api/v1/public/acme/agents/42/chat/abort",
    });
    expect(requests[0]?.headers.Authorization).toBe(`Api-Key ${API_KEY}`);
    expect(requests[0]?.json).toEqual({ chatId: "c-1", sessionSettings: { externalId: "ana@example.com" } });
  });

  it.each([
    [404, "not-found"],
    [403, "forbidden"],
  ] as const)("throws %i as kind %s, without the key", (status, kind) => {
    const { chat } = syncChatFor([
      { status, headers: {}, body: JSON.stringify({ error: `chat c-1 not yours (${API_KEY})` }) },
    ]);
    const error = thrown(() => chat.abort("c-1"));
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(API_KEY);
  });
});
