/**
 * The agent chat as the service streams it, for the chat client's tests: a stream in the real
 * service's order, and a loopback HTTP server that answers the chat POST as a test scripts it.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { type AgentChatOptions, createAgentChat } from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";

/** A fixed "random" source, so generated message ids are known (the randomness has its own tests). */
export const randomBytes = (n: number) => new Uint8Array(n).fill(7);

export const CHAT_ID = "chat-7f3a";
/** What the chats below generate: the clock's millisecond, then the fixed "random" digits of `randomBytes`. */
export const MESSAGE_ID = "1718000000000777777777777-message";

/** A stream in the order the real service sends it (platform-api.md, Agent chat). */
export function realStream(options: { chatId?: string; messageId?: string; input?: string } = {}): object[] {
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

export const API_KEY = "ak_live_9f8e7d6c5b4a39281706";
export const SESSION = { externalId: "ana@example.com", email: "ana@example.com" };

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

export type Handler = (request: Received, response: ServerResponse, n: number) => void | Promise<void>;

const servers: Server[] = [];

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Closes every server `startServer` opened; each test file calls it after each test. */
export async function closeServers(): Promise<void> {
  for (const server of servers.splice(0)) await close(server);
}

/** Closes the server `startServer` opened last, so its URL answers nothing (an unreachable service). */
export async function closeLastServer(): Promise<void> {
  const server = servers.pop();
  if (server) await close(server);
}

export async function startServer(handler: Handler) {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function ndjsonResponse(res: ServerResponse, status = 200): void {
  // The real service serves NDJSON as application/json (platform-api.md).
  res.writeHead(status, { "Content-Type": "application/json" });
}

export async function writeLines(res: ServerResponse, lines: object[], delayMs = 0): Promise<void> {
  for (const line of lines) {
    res.write(`${JSON.stringify(line)}\n`);
    if (delayMs) await sleep(delayMs);
  }
}

export function chatFor(chatUrl: string, extra: Partial<AgentChatOptions> = {}) {
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

export async function rejection(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformError);
    return error as PlatformError;
  }
  throw new Error("expected a rejection");
}
