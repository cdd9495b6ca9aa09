/** The chat client when things go wrong: refused requests, retries, a broken or hostile service. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAgentChat, MAX_CHAT_LINE_CHARS, REQUEST_TIMEOUT_MS } from "../../src/core/index.js";
import { fetchTransport, type Transport } from "../../src/core/transport.js";
import {
  API_KEY,
  CHAT_ID,
  chatFor,
  closeLastServer,
  closeServers,
  MESSAGE_ID,
  ndjsonResponse,
  randomBytes,
  realStream,
  rejection,
  SESSION,
  sleep,
  startServer,
  writeLines,
} from "../support/chat-service.js";

const encoder = new TextEncoder();

afterEach(closeServers);

describe("createAgentChat", () => {
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
    await closeLastServer();
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

describe("Stop (/chat/abort) against a service that misbehaves", () => {
  const CHAT = "https://ai.example.com/api/v1/public/acme/agents/7/chat/stream-chat-state";

  it(`gives up after ${REQUEST_TIMEOUT_MS / 1000} s when the service never answers`, async () => {
    vi.useFakeTimers();
    try {
      let released = false;
      const silent: Transport = (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener("abort", () => {
            released = true;
            reject(new DOMException("aborted", "AbortError"));
          });
        });
      const { chat } = chatFor(CHAT, { transport: silent });
      const stopping = rejection(chat.abort("c-1"));
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
      const error = await stopping;
      expect(error.kind).toBe("timeout");
      // The request was abandoned, not left holding the connection.
      expect(released).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads its answer up to a cap: an endless error body is not read whole", async () => {
    let pulled = 0;
    const chunk = encoder.encode("e".repeat(64 * 1024));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
      },
    });
    const hostile: Transport = async () => ({ status: 500, headers: {}, body: endless });
    const { chat } = chatFor(CHAT, { transport: hostile });
    const error = await rejection(chat.abort("c-1"));
    expect(error.kind).toBe("server");
    expect(pulled * chunk.length).toBeLessThan(MAX_CHAT_LINE_CHARS + 4 * chunk.length);
  });
});
