/**
 * Starts the add-in server on Node (@hono/node-server): HTTP, or HTTPS with a certificate and key.
 * `cli.ts` is `npm run serve`; tests and `npm run start:excel` call `startAddinServer` directly.
 *
 * Every answer carries the security headers, including those made before the routes run: a request
 * Node cannot parse (400, 431 for headers past its 16 KB, 408), an `Expect` it does not meet (417),
 * and one the Node adapter refuses (a backslash in the path, a host with a user name: 400). Node's
 * `clientError` and `checkExpectation` events and the adapter's `errorHandler` answer them here.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createAddinApp } from "./app.js";
import { ServerState } from "./health.js";
import { trackRequests } from "./lifecycle.js";
import type { RequestLogEntry } from "./logging.js";
import { loadServedManifests, type ServedManifests } from "./manifests.js";
import { securityHeaders } from "./security-headers.js";
import type { TenantList } from "./tenants.js";

export interface AddinServerOptions {
  distDir: string;
  tenants: TenantList;
  /** The deployments' data origins the relay reaches (their load call only). */
  dataOrigins?: TenantList;
  /** 0 takes a free port. */
  port: number;
  /** Default 127.0.0.1: only this machine, unless an admin says otherwise. */
  host?: string;
  /** PEM certificate and key: the server speaks HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Who may frame the pages (the default list unless given). */
  frameAncestors?: readonly string[];
  /** How long the relay waits for a silent tenant (DEFAULT_RELAY_TIMEOUT_MS). */
  relayTimeoutMs?: number;
  /** Most relayed requests at once; past it 503 (DEFAULT_RELAY_MAX_IN_FLIGHT). */
  relayMaxInFlight?: number;
  /** The structured request log (logging.ts). */
  requestLog?: (entry: RequestLogEntry) => void;
  /**
   * The https address users reach the server at (behind a load balancer, say): the manifests are
   * rendered for it at start. Without it, a server speaking HTTPS renders them for its own URL, and
   * one speaking HTTP serves the built ones as they are.
   */
  publicUrl?: string;
}

export interface RunningAddinServer {
  /** `https://localhost:<port>` with TLS on loopback (the certificate's name), else `http://<host>:<port>`. */
  url: string;
  port: number;
  close(): Promise<void>;
  /**
   * Stops accepting, answers /readyz 503, lets the requests in flight end within `graceMs`, then
   * closes what is left (lifecycle.ts). `cutOff`: the requests still running at the deadline.
   */
  drain(graceMs: number): Promise<{ cutOff: number }>;
}

const EARLY_MESSAGES: Record<number, string> = {
  400: "The request is malformed.",
  408: "The request took too long to arrive.",
  417: "The server does not meet this Expect header.",
  431: "The request's headers are too large.",
  500: "The add-in server had an internal error.",
};

function earlyBody(status: number): string {
  return JSON.stringify({ message: EARLY_MESSAGES[status] ?? STATUS_CODES[status] ?? "Error" });
}

function earlyHeaders(secure: boolean, body: string): Record<string, string> {
  return {
    ...securityHeaders(secure),
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Length": String(Buffer.byteLength(body)),
  };
}

export async function startAddinServer(options: AddinServerOptions): Promise<RunningAddinServer> {
  const host = options.host ?? "127.0.0.1";
  const secure = Boolean(options.tls);
  const log = options.log;
  const state = new ServerState();
  let manifests: ServedManifests | null = null;
  const app = createAddinApp({
    state,
    manifests: () => manifests,
    ...(options.requestLog ? { requestLog: options.requestLog } : {}),
    distDir: options.distDir,
    tenants: options.tenants,
    ...(options.dataOrigins ? { dataOrigins: options.dataOrigins } : {}),
    secure,
    ...(options.frameAncestors ? { frameAncestors: options.frameAncestors } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(log ? { log } : {}),
    ...(options.relayTimeoutMs !== undefined ? { relayTimeoutMs: options.relayTimeoutMs } : {}),
    ...(options.relayMaxInFlight !== undefined ? { relayMaxInFlight: options.relayMaxInFlight } : {}),
  });
  const listener = getRequestListener(app.fetch, {
    hostname: host,
    // A request the adapter cannot turn into a web Request (a backslash in the path, `Host: a@b`):
    // 400, and a failure before any answer: 500; both with the security headers, never the detail.
    errorHandler(error) {
      const status = error instanceof Error && error.name === "RequestError" ? 400 : 500;
      log?.(`- - ${status} ${status === 400 ? "malformed request" : "internal error"}`);
      const body = earlyBody(status);
      return new Response(body, { status, headers: earlyHeaders(secure, body) });
    },
  });
  const server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener)
    : createHttpServer(listener);
  // Node answers these itself when nobody listens, without our headers.
  server.on("checkExpectation", (_req: IncomingMessage, res: ServerResponse) => {
    log?.(`- - 417 unmet Expect`);
    const body = earlyBody(417);
    res.writeHead(417, { ...earlyHeaders(secure, body), Connection: "close" });
    res.end(body);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    log?.(`- - ${status} unreadable request`);
    const body = earlyBody(status);
    const head = Object.entries({ ...earlyHeaders(secure, body), Connection: "close" })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  });
  server.listen(options.port, host);
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const drainable = trackRequests(server as Server, state);
  const port = (server.address() as AddressInfo).port;
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const shown = secure && loopback ? "localhost" : host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  const url = `${secure ? "https" : "http"}://${shown}:${port}`;
  const manifestBase = options.publicUrl ?? (secure ? url : null);
  if (manifestBase) manifests = loadServedManifests(options.distDir, manifestBase);
  state.readiness = "ready";
  return {
    url,
    port,
    drain: (graceMs) => drainable.drain(graceMs),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
