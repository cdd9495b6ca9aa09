/**
 * The request log: one line per request, written when its answer has been sent to the end (a
 * relayed stream included), so its duration and byte count are the whole answer's.
 *
 * A line holds only: time, request id, method, the route's template (`/relay/:host/*`, never the
 * relayed path or a query string), status, duration in ms, bytes of the answer's body, and for a
 * relayed call the listed tenant's host. Never a header value, a query string or a body: nothing a
 * caller sends reaches the log except a request id that passed REQUEST_ID.
 *
 * `json` (the default, for log collectors) writes one JSON object a line; `text` a readable line for
 * development. The CLI writes both on stderr: stdout carries its one URL line only.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { MiddlewareHandler } from "hono";
import { HEALTH_PATHS } from "./health.js";
import { RELAY_PREFIX } from "./relay.js";
import type { TenantList } from "./tenants.js";

export type LogFormat = "text" | "json";

export const LOG_FORMATS: readonly LogFormat[] = ["json", "text"];

/** A caller's X-Request-Id is kept only when it is such a token; otherwise one is made. */
export const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const REQUEST_ID_HEADER = "X-Request-Id";

export const RELAY_ROUTE = "/relay/:host/*";

/** Routes named by their own path; every other address is the static files' `/*`. */
const NAMED_ROUTES = new Set([
  "/",
  "/config.json",
  "/manifest.xml",
  "/manifest.json",
  HEALTH_PATHS.alive,
  HEALTH_PATHS.ready,
]);

export interface RequestLogEntry {
  time: string;
  requestId: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
  bytes: number;
  /** The listed tenant's host (and port) a relayed call went to; absent otherwise. */
  tenant?: string;
}

/** The route template of a path (never the path itself beyond the names above). */
export function routeTemplate(pathname: string): string {
  if (pathname.startsWith(RELAY_PREFIX)) return RELAY_ROUTE;
  return NAMED_ROUTES.has(pathname) ? pathname : "/*";
}

/**
 * The listed tenant's (or data origin's) host a relay path names, or undefined (an unlisted name is
 * never logged).
 */
function relayedTenant(pathname: string, tenants: TenantList, dataOrigins?: TenantList): string | undefined {
  if (!pathname.startsWith(RELAY_PREFIX)) return undefined;
  const rest = pathname.slice(RELAY_PREFIX.length);
  const slash = rest.indexOf("/");
  const hostAndPort = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase();
  const origin = tenants.lookup(hostAndPort) ?? dataOrigins?.lookup(hostAndPort);
  return origin ? new URL(origin).host : undefined;
}

export function requestId(given: string | null | undefined): string {
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

export function formatRequestLog(entry: RequestLogEntry, format: LogFormat): string {
  if (format === "json") return JSON.stringify(entry);
  const tenant = entry.tenant ? ` -> ${entry.tenant}` : "";
  return `${entry.time} ${entry.method} ${entry.route}${tenant} ${entry.status} ${entry.durationMs}ms ${entry.bytes}B id=${entry.requestId}`;
}

/**
 * Calls `onBody(bytes)` once `body` has been read to its end, failed, or been cancelled (the client
 * went away), passing every chunk through unchanged.
 */
function countedBody(
  body: ReadableStream<Uint8Array>,
  onEnd: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let bytes = 0;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd(bytes);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
          return;
        }
        bytes += value.byteLength;
        controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        end();
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
}

function chunkBytes(chunk: unknown): number {
  if (typeof chunk === "string") return Buffer.byteLength(chunk);
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}

/**
 * Calls `onEnd(bytes, status)` once Node's response has closed (sent to its end, or the client
 * went away), counting the body bytes written to it. Counting on Node's own response leaves the
 * answer's stream as it is: wrapping a relayed stream in another one cost milliseconds a request.
 */
function countedNodeResponse(outgoing: ServerResponse, onEnd: (bytes: number, status: number) => void): void {
  let bytes = 0;
  const write = outgoing.write;
  const end = outgoing.end;
  outgoing.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    bytes += chunkBytes(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof outgoing.write;
  outgoing.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    bytes += chunkBytes(chunk);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof outgoing.end;
  outgoing.once("close", () => onEnd(bytes, outgoing.statusCode));
}

/**
 * The middleware: takes or makes the request id, echoes it on the answer, and logs the request's
 * line once its body has gone. Registered first, so it sees every answer, refusals included.
 */
export function requestLogging(options: {
  tenants: TenantList;
  dataOrigins?: TenantList;
  onRequest?: (entry: RequestLogEntry) => void;
}): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const time = new Date().toISOString();
    const id = requestId(c.req.header(REQUEST_ID_HEADER));
    const pathname = new URL(c.req.url).pathname;
    await next();
    // A relayed answer that carries the tenant's own request id keeps it (the pane quotes it to the
    // tenant's support); every other answer echoes this server's id, which its log line records.
    if (!c.res.headers.has(REQUEST_ID_HEADER)) c.res.headers.set(REQUEST_ID_HEADER, id);
    const onRequest = options.onRequest;
    if (!onRequest) return;
    const tenant = relayedTenant(pathname, options.tenants, options.dataOrigins);
    // Hono answers HEAD by running the GET route and dropping its body: log the method asked.
    const method = c.req.raw.method;
    const log = (bytes: number, status = c.res.status) =>
      onRequest({
        time,
        requestId: id,
        method,
        route: routeTemplate(pathname),
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        bytes,
        ...(tenant ? { tenant } : {}),
      });
    // On Node (@hono/node-server), its response object: counted as it is written.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing && typeof outgoing.once === "function") {
      countedNodeResponse(outgoing, log);
      return;
    }
    // Elsewhere (app.request in tests, other runtimes): the body, counted as it is read.
    const res = c.res;
    if (!res.body || method === "HEAD") {
      log(0);
      return;
    }
    c.res = new Response(countedBody(res.body, log), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}
