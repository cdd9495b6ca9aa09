/**
 * A loopback HTTP server standing in for the tenant, for the platform client's tests: each test
 * sets the handler that answers, and reads what the client sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { PlatformError } from "../../src/core/index.js";

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
export async function startLoopback(
  seen: Seen[],
  handle: Handler,
): Promise<{ server: Server; base: string }> {
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

export function stopLoopback(server: Server): void {
  server.closeAllConnections();
  server.close();
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
