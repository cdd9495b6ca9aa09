/** createSyncAgentChat: the same rules over a synchronous transport (Apps Script's UrlFetchApp). */
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { type AskRequest, createSyncAgentChat, mergeChatMessages } from "../../src/core/index.js";
import type { HttpRequest, SyncTransport } from "../../src/core/transport.js";
import { API_KEY, CHAT_ID, MESSAGE_ID, randomBytes, realStream, SESSION } from "../support/chat-service.js";

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
