/**
 * The agent's answer told honestly: an answer that may not be whole says so (chat rule 3's
 * fallback, a stream without its closing lines, a limit, a time-out); message ids are random within
 * the documented pattern; the chat POST follows no redirect. Over a real loopback server.
 */
import { randomBytes as nodeRandomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CHAT_IDLE_TIMEOUT_MS,
  createAgentChat,
  createSyncAgentChat,
  MAX_ANSWER_CHARS,
  MAX_CHAT_LINE_CHARS,
  MAX_CHAT_MESSAGES,
  MESSAGE_ID_PATTERN,
  newMessageId,
  type PlatformError,
} from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";

const cryptoRandomBytes = (n: number) => new Uint8Array(nodeRandomBytes(n));
const SESSION = { externalId: "ann" };
const KEY = "ak-test-0a1b2c3d4e";

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

type Handler = (req: IncomingMessage & { body: string }, res: ServerResponse) => void | Promise<void>;

async function serve(handler: Handler) {
  const received: { method: string; body: string; headers: IncomingMessage["headers"] }[] = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    received.push({ method: req.method ?? "", body, headers: req.headers });
    await handler(Object.assign(req, { body }), res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, chatUrl: `${base}/api/v1/public/acme/agents/7/chat/stream-chat-state`, received };
}

const line = (o: object) => `${JSON.stringify(o)}\n`;
const cutoff = { id: "__cutoff__", sort: 0, state: { chatId: "c-1", isStreaming: true } };
const usage = { id: "__usage__", type: "usage", usage: { totalTokens: 1 } };
const finalPiece = (content: string, isDelta = false) => ({
  id: "m-final",
  role: "assistant",
  content,
  graphPath: ["final"],
  isDelta,
});

function chat(chatUrl: string, idleTimeoutMs?: number) {
  return createAgentChat({
    transport: fetchTransport(fetch),
    chatUrl,
    apiKey: KEY,
    sessionSettings: SESSION,
    randomBytes: cryptoRandomBytes,
    retryDelaysMs: [1, 1],
    ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
  });
}

async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    return e as PlatformError;
  }
  throw new Error("expected a rejection");
}

describe("an answer that may not be whole says so", () => {
  it("a whole answer (rule 2, closed by __usage__) has no note", async () => {
    const { chatUrl } = await serve((_req, res) => {
      res.end(line(cutoff) + line(finalPiece("Revenue: 10")) + line(usage));
    });
    const answer = await chat(chatUrl).ask({ input: "q" });
    expect(answer.answer).toBe("Revenue: 10");
    expect(answer.incomplete).toBeNull();
  });

  it("rule 3's fallback (no final message) is shown whole, with a note", async () => {
    const table = [
      "| Region | Revenue |",
      "|---|---|",
      ...Array.from({ length: 12 }, (_, i) => `| R${i} | ${i} |`),
    ];
    const { chatUrl } = await serve((_req, res) => {
      res.end(
        line(cutoff) +
          line({ id: "m-1", role: "assistant", content: table.join("\n"), graphPath: ["analyst"] }) +
          line(usage),
      );
    });
    const answer = await chat(chatUrl).ask({ input: "q" });
    expect(answer.answer).toBe(table.join("\n"));
    expect(answer.incomplete?.reason).toBe("fallback");
    expect(answer.incomplete?.message).toMatch(/may be incomplete/);
  });

  it("a stream that ends without the service's closing lines is marked unfinished", async () => {
    const { chatUrl } = await serve((_req, res) => {
      res.end(line(cutoff) + line(finalPiece("| Region | Revenue |\n|---|---|\n| NA | 1 |", false)));
    });
    const answer = await chat(chatUrl).ask({ input: "q" });
    expect(answer.answer).toContain("| NA | 1 |");
    expect(answer.incomplete?.reason).toBe("unfinished");
  });

  it("the synchronous runner (Apps Script) marks the same answers", () => {
    const sync = createSyncAgentChat({
      chatUrl: "https://ai.example.com/api/v1/public/a/agents/7/chat/stream-chat-state",
      apiKey: KEY,
      sessionSettings: SESSION,
      randomBytes: cryptoRandomBytes,
      sleep: () => {},
      transport: () => ({ status: 200, headers: {}, body: line(cutoff) + line(finalPiece("half")) }),
    });
    expect(sync.ask({ input: "q" }).incomplete?.reason).toBe("unfinished");
  });
});

describe("answer size limits", () => {
  it(`an answer past ${MAX_ANSWER_CHARS} characters is cut there, reading stops, and the note names the limit`, async () => {
    const piece = "x".repeat(50_000);
    const { chatUrl } = await serve(async (_req, res) => {
      res.write(line(cutoff) + line(finalPiece(piece)));
      for (let i = 0; i < 20; i++) res.write(line(finalPiece(piece, true)));
      res.end(line(usage));
    });
    const answer = await chat(chatUrl).ask({ input: "q" });
    expect(answer.answer?.length).toBe(MAX_ANSWER_CHARS);
    expect(answer.incomplete?.reason).toBe("too-large");
    expect(answer.incomplete?.message).toMatch(/200,000 characters/);
  });
});

describe("a stream of many message ids", () => {
  const manyIds = (n: number) =>
    Array.from({ length: n }, (_, i) => line({ id: `step-${i}`, role: "assistant", content: `s${i}` })).join(
      "",
    );

  it(`stops at ${MAX_CHAT_MESSAGES} messages: the answer so far shows, with the "cut" note naming the limit`, async () => {
    const { chatUrl } = await serve(async (_req, res) => {
      res.end(line(cutoff) + line(finalPiece("The answer.")) + manyIds(20_000) + line(usage));
    });
    let most = 0;
    const answer = await chat(chatUrl).ask(
      { input: "q" },
      { onMessage: (_m, all) => (most = Math.max(most, all.length)) },
    );
    expect(answer.answer).toBe("The answer.");
    expect(answer.messages.length).toBeLessThanOrEqual(MAX_CHAT_MESSAGES);
    expect(most).toBeLessThanOrEqual(MAX_CHAT_MESSAGES);
    expect(answer.incomplete?.reason).toBe("too-large");
    expect(answer.incomplete?.message).toContain(`${MAX_CHAT_MESSAGES.toLocaleString("en-US")} messages`);
  });

  it("the synchronous runner (Apps Script) stops at the same number", () => {
    const sync = createSyncAgentChat({
      transport: () => ({
        status: 200,
        headers: {},
        body: line(cutoff) + line(finalPiece("The answer.")) + manyIds(20_000) + line(usage),
      }),
      chatUrl: "https://ai.example.com/api/v1/public/acme/agents/7/chat/stream-chat-state",
      apiKey: KEY,
      sessionSettings: SESSION,
      randomBytes: cryptoRandomBytes,
      sleep: () => {},
    });
    const answer = sync.ask({ input: "q" });
    expect(answer.answer).toBe("The answer.");
    expect(answer.messages.length).toBeLessThanOrEqual(MAX_CHAT_MESSAGES);
    expect(answer.incomplete?.reason).toBe("too-large");
  });
});

describe("answer size limits in Apps Script (the body arrives whole)", () => {
  it("an overlong line ends the reading; the lines before it still give the answer, marked too large", () => {
    const sync = createSyncAgentChat({
      chatUrl: "https://ai.example.com/api/v1/public/a/agents/7/chat/stream-chat-state",
      apiKey: KEY,
      sessionSettings: SESSION,
      randomBytes: cryptoRandomBytes,
      sleep: () => {},
      transport: () => ({
        status: 200,
        headers: {},
        body:
          line(cutoff) +
          line(finalPiece("Revenue: 10")) +
          line({ id: "x", content: "y".repeat(MAX_CHAT_LINE_CHARS + 1) }),
      }),
    });
    const answer = sync.ask({ input: "q" });
    expect(answer.answer).toBe("Revenue: 10");
    expect(answer.incomplete?.reason).toBe("too-large");
  });
});

describe("chat time-out", () => {
  it(`a service that never answers is given up after the idle limit (${CHAT_IDLE_TIMEOUT_MS / 1000} s by default), not retried`, async () => {
    const { chatUrl, received } = await serve(() => {
      // Never answers.
    });
    // A limit of a second, not a few milliseconds: on a busy machine a shorter one ran out before
    // the request had reached the server, and nothing was received at all.
    const error = await rejection(chat(chatUrl, 1000).ask({ input: "q" }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/The agent sent nothing for 1 s/);
    expect(received).toHaveLength(1);
  });

  it("a stream that stalls after part of the answer keeps that part, marked as timed out", async () => {
    const { chatUrl } = await serve((_req, res) => {
      res.write(line(cutoff) + line(finalPiece("The first half")));
      // ...and nothing more.
    });
    const answer = await chat(chatUrl, 400).ask({ input: "q" });
    expect(answer.answer).toBe("The first half");
    expect(answer.incomplete?.reason).toBe("timeout");
  });

  it("a slow agent that keeps sending is not cut: the limit is between pieces", async () => {
    const { chatUrl } = await serve(async (_req, res) => {
      res.write(line(cutoff) + line(finalPiece("a")));
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 40));
        res.write(line(finalPiece("a", true)));
      }
      res.end(line(usage));
    });
    const answer = await chat(chatUrl, 1000).ask({ input: "q" });
    expect(answer.answer).toBe("aaaaa");
    expect(answer.incomplete).toBeNull();
  });
});

describe("message ids", () => {
  it("within the documented pattern, starting with the millisecond", () => {
    const id = newMessageId(1_718_000_000_000, cryptoRandomBytes);
    expect(id).toMatch(MESSAGE_ID_PATTERN);
    expect(id.startsWith("1718000000000")).toBe(true);
    expect(id.length).toBeGreaterThan("1718000000000-message".length + 10);
  });

  it("two questions in the same millisecond get different ids", async () => {
    const { chatUrl, received } = await serve((_req, res) => {
      res.end(line(cutoff) + line(finalPiece("ok")) + line(usage));
    });
    const frozen = createAgentChat({
      transport: fetchTransport(fetch),
      chatUrl,
      apiKey: KEY,
      sessionSettings: SESSION,
      randomBytes: cryptoRandomBytes,
      now: () => 1_718_000_000_000,
    });
    const [a, b] = await Promise.all([frozen.ask({ input: "q1" }), frozen.ask({ input: "q2" })]);
    expect(a.messageId).not.toBe(b.messageId);
    const sent = received.map((r) => JSON.parse(r.body).messageId as string);
    expect(new Set(sent).size).toBe(2);
    for (const id of sent) expect(id).toMatch(MESSAGE_ID_PATTERN);
  });

  it("skips biased bytes, so every digit is as likely as any other", () => {
    // 250..255 would favour 0-5; such bytes are dropped, the rest give their last digit.
    let calls = 0;
    const id = newMessageId(1, (n) => {
      calls += 1;
      return new Uint8Array(n).fill(calls === 1 ? 255 : 13);
    });
    expect(id).toBe("0000000000001333333333333-message");
  });
});

describe("the chat POST follows no redirect", () => {
  it("a 307 to another host is an error naming the location; the other host receives nothing", async () => {
    const elsewhere = await serve((_req, res) => {
      res.end(line(cutoff));
    });
    const { chatUrl, received } = await serve((_req, res) => {
      res.writeHead(307, { Location: `${elsewhere.chatUrl}?stolen=1` });
      res.end();
    });
    const error = await rejection(chat(chatUrl).ask({ input: "q" }));
    expect(error.message).toContain(`redirect (307) to ${elsewhere.chatUrl}?stolen=1`);
    expect(elsewhere.received).toHaveLength(0);
    expect(received).toHaveLength(1);
  });
});
