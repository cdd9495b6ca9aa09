/**
 * A loopback HTTP server standing in for the tenant, for the platform client's tests: each test
 * sets the handler that answers, and reads what the client sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll } from "vitest";
import { createPlatformClient, type PlatformClient, type PlatformError } from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";

export const TOKEN = "sk-live-0123456789abcdef";
export const SCIM = "scim-secret-999999";

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (req: Seen, res: ServerResponse) => void;

/** Listens on 127.0.0.1; every request is recorded in `seen`, then answered by `handle`. */
async function startLoopback(seen: Seen[], handle: Handler): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const s = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      seen.push(s);
      handle(s, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function stopLoopback(server: Server): void {
  server.closeAllConnections();
  server.close();
}

/** A loopback service for one test file, with the platform client pointed at it. */
export interface LoopbackService {
  /** Every request of the current test, in order (emptied after each test). */
  readonly seen: Seen[];
  /** The service's origin once it listens (set before the first test). */
  base: string;
  /** How it answers: set by each test. */
  handler: Handler;
  /** The platform client for this service, with the test's tokens and no sleeping between retries. */
  client(extra?: Partial<Parameters<typeof createPlatformClient>[0]>): PlatformClient;
}

/** Starts a loopback service before the file's tests and stops it after them (vitest hooks). */
export function loopbackService(): LoopbackService {
  let server: Server | undefined;
  const service: LoopbackService = {
    seen: [],
    base: "",
    handler: (_req, res) => json(res, 500, { message: "no handler set" }),
    client: (extra = {}) =>
      createPlatformClient({
        transport: fetchTransport(fetch),
        baseUrl: service.base,
        token: TOKEN,
        scimToken: SCIM,
        sleep: async () => {},
        ...extra,
      }),
  };
  beforeAll(async () => {
    ({ server, base: service.base } = await startLoopback(service.seen, (s, res) => service.handler(s, res)));
  });
  afterAll(() => {
    if (server) stopLoopback(server);
  });
  afterEach(() => {
    service.seen.length = 0;
  });
  return service;
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    return e as PlatformError;
  }
  throw new Error("expected a failure");
}
