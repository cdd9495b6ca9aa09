/**
 * The relay: `/relay/<host[:port]>/<path>?<query>` forwards to the listed tenant origin with that
 * host, for a pane whose tenant accepts no calls from the add-in's page (no CORS). Web-standard
 * Request in, Response out, so it runs on any runtime Hono runs on.
 *
 * A listed data origin (where a deployment's data API is, its `deploymentUrl`) is relayed its data
 * API's load call only (`POST …/cubejs-api/v1/load`), with the data token: a request that carries
 * a credential with a scheme (`Bearer`, `Api-Key`, …: the tenant's keys) is never sent there.
 *
 * What crosses: the method, path, query and body, and of the headers only Authorization,
 * Content-Type and Accept. Nothing is sent for a host that is not listed. No redirect is followed,
 * only the response headers on PASSED_RESPONSE_HEADERS come back (never cookies, hop-by-hop or
 * origin-wide headers), and the answer is streamed through as it arrives (the agent's NDJSON is
 * never buffered). A silent tenant is given up (DEFAULT_RELAY_TIMEOUT_MS), and at most
 * DEFAULT_RELAY_MAX_IN_FLIGHT requests are held at once. Header values and bodies are never logged.
 */
import { readCappedBody } from "../server-kit/http.js";
import type { TenantList } from "./tenants.js";

export const RELAY_PREFIX = "/relay/";

/** Set on the relay's own refusals, so the pane can tell them from the tenant's answers. */
const RELAY_ERROR_HEADER = "X-Relay-Error";

/**
 * A tenant's redirect target, passed on under a name no browser follows (the pane's error names it,
 * see core/errors.ts), resolved against the tenant's address.
 */
const RELAY_LOCATION_HEADER = "X-Relay-Location";

/** How the relay names itself to a tenant (its logs), in place of Node's fetch's "node". */
const RELAY_USER_AGENT = "reporting-platform-addin-relay";

/** Request headers forwarded to the tenant; every other one stays here. */
const FORWARDED_REQUEST_HEADERS = ["authorization", "content-type", "accept"];

/**
 * Response headers passed on to the pane: an allow-list, because a relayed answer is served from
 * the add-in's own origin, and many headers act on the whole origin that serves them
 * (`Clear-Site-Data` erases its storage, where the keys are; `NEL`, `Report-To` and
 * `Reporting-Endpoints` send its traffic reports elsewhere; `Alt-Svc`, `Link`, `Refresh`,
 * `Service-Worker-Allowed`, `Permissions-Policy` and `Cross-Origin-*` change how it loads or what
 * it may do). Only what the pane reads crosses: the content type, the caching validators, the
 * service's `Retry-After` (its back-off, read by core/errors.ts), `WWW-Authenticate` and request ids.
 * Content-Length is not passed: fetch may have decoded the body, so the add-in server frames it.
 */
const PASSED_RESPONSE_HEADERS = new Set([
  "content-type",
  "etag",
  "last-modified",
  "retry-after",
  "www-authenticate",
  "x-request-id",
  "request-id",
  "x-correlation-id",
]);

/**
 * Every relayed answer: it was asked for with the user's key, so no cache, shared or the
 * browser's, keeps it (a tenant's `Cache-Control: public` would let a shared cache keep it).
 */
const RELAYED_CACHE_CONTROL = "no-store";

const RELAYED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);

/** Bodies above this are refused (413): the service's own limit is 1 MB. */
export const MAX_RELAY_BODY_BYTES = 2 * 1024 * 1024;

/**
 * How long the relay waits for a tenant to send anything (its answer's headers, or the next piece
 * of its body) before it gives up: 90 s, longer than the pane's own waits (a management request's
 * 30 s, the chat's 60 s between pieces), so the pane's limit is the one the user meets. A slow
 * answer that keeps streaming is not cut. `--relay-timeout`, `RELAY_TIMEOUT_SECONDS`.
 */
export const DEFAULT_RELAY_TIMEOUT_MS = 90_000;

/**
 * Most relayed requests one add-in server holds at once (from arrival to the last byte of the
 * answer): 64. Each may buffer a body of up to MAX_RELAY_BODY_BYTES, so this bounds the memory the
 * relay can be made to hold (128 MB); past it, 503 with Retry-After. `--relay-max-in-flight`,
 * `RELAY_MAX_IN_FLIGHT`. Scale out with more copies (docs/excel.md).
 */
export const DEFAULT_RELAY_MAX_IN_FLIGHT = 64;

/** The Retry-After of a relay that is full, in seconds: places free up as answers end. */
const RELAY_BUSY_RETRY_AFTER_S = 2;

/** Counts relayed requests in flight; `enter` returns the release, or null when full. */
export interface InFlightGate {
  enter(): (() => void) | null;
}

export function inFlightGate(max: number): InFlightGate {
  let inFlight = 0;
  return {
    enter() {
      if (inFlight >= max) return null;
      inFlight += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inFlight -= 1;
      };
    },
  };
}

export interface RelayOptions {
  tenants: TenantList;
  /** The data origins listed (`--data-origin`): each is relayed its load call only. */
  dataOrigins?: TenantList;
  /** The fetch used to reach tenants (the runtime's own by default). */
  fetch?: typeof fetch;
  /** One line per relayed request: method, tenant host, path, status. No header value, no body. */
  log?: (line: string) => void;
  /** DEFAULT_RELAY_TIMEOUT_MS unless given. */
  timeoutMs?: number;
  /** Shared by every request of one server (`inFlightGate(DEFAULT_RELAY_MAX_IN_FLIGHT)` unless given). */
  gate?: InFlightGate;
  /**
   * Cuts the pane's connection when the tenant's answer broke off part-way (Node: destroys the
   * response), so the pane sees a broken answer rather than a whole short one.
   */
  onBroken?: () => void;
}

function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ error: code, message }), {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      [RELAY_ERROR_HEADER]: code,
      ...headers,
    },
  });
}

/** The one call relayed to a data origin: the data API's load (data rule 2). */
const DATA_LOAD_PATH = /\/cubejs-api\/v1\/load$/;

/**
 * Why a request may not go to a data origin, or null. The data token is sent bare
 * (`Authorization: <token>`, data rule 2); a value with a scheme before it is one of the tenant's
 * keys (the API key's `Bearer`, the agent's `Api-Key`), which only the tenant may receive.
 */
function dataOriginRefusal(method: string, path: string, authorization: string | null): string | null {
  if (method !== "POST" || !DATA_LOAD_PATH.test(path)) return "only the data API's load call";
  if (authorization !== null && /\s/.test(authorization.trim())) return "not the tenant's keys";
  return null;
}

/** Splits the raw (still percent-encoded) path `/relay/<host[:port]>/<rest>`. */
function relayTarget(pathname: string): { hostAndPort: string; path: string } | null {
  if (!pathname.startsWith(RELAY_PREFIX)) return null;
  const rest = pathname.slice(RELAY_PREFIX.length);
  const slash = rest.indexOf("/");
  const hostAndPort = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase();
  if (!hostAndPort) return null;
  return { hostAndPort, path: slash < 0 ? "/" : rest.slice(slash) };
}

function passedHeaders(upstream: Headers, destination: string): Headers {
  const out = new Headers();
  upstream.forEach((value, name) => {
    // The relay's own signals (RELAY_ERROR_HEADER, RELAY_LOCATION_HEADER) are not on the list: a
    // tenant cannot forge them.
    if (PASSED_RESPONSE_HEADERS.has(name.toLowerCase())) out.append(name, value);
  });
  out.set("Cache-Control", RELAYED_CACHE_CONTROL);
  const location = upstream.get("location");
  if (location !== null) {
    let resolved = location;
    try {
      resolved = new URL(location, destination).href;
    } catch {
      // Named as the tenant wrote it.
    }
    out.set(RELAY_LOCATION_HEADER, resolved);
  }
  return out;
}

const defaultGate = inFlightGate(DEFAULT_RELAY_MAX_IN_FLIGHT);

/**
 * Aborts the tenant's request when it has sent nothing for `ms`; each sign of life (the answer's
 * headers, a piece of its body) starts the wait again.
 */
function idleAbort(ms: number) {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired = false;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      expired = true;
      controller.abort();
    }, ms);
  };
  return {
    signal: controller.signal,
    touch,
    stop: () => clearTimeout(timer),
    abort: () => controller.abort(),
    get expired() {
      return expired;
    },
  };
}

/**
 * The tenant's body, passed on as it is read: each piece keeps the idle wait alive, and `release`
 * runs once when it ends, fails or the pane goes away (the request then leaves the in-flight count).
 * A stream that ends early (the tenant broke off or fell silent, the pane went away) is told in one
 * line of the server's own log and cut with `onBroken` (the pane then sees a broken answer, not a
 * short one); the stream itself ends without an error, which the Node adapter would print.
 */
function watchedBody(
  body: ReadableStream<Uint8Array>,
  idle: ReturnType<typeof idleAbort>,
  release: () => void,
  ended: (why: string) => void,
  paneGone: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  const finish = (why: string | null) => {
    if (finished) return;
    finished = true;
    idle.stop();
    release();
    if (why !== null) ended(why);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            finish(null);
            controller.close();
            return;
          }
          idle.touch();
          controller.enqueue(value);
        } catch {
          finish(
            paneGone.aborted
              ? "the pane went away"
              : idle.expired
                ? "the tenant sent nothing for too long"
                : "the tenant's connection broke",
          );
          try {
            controller.close();
          } catch {
            // Already cancelled by the adapter: nothing left to close.
          }
        }
      },
      cancel(reason) {
        finish("the pane went away");
        idle.abort();
        return reader.cancel(reason).catch(() => {});
      },
    },
    { highWaterMark: 0 },
  );
}

/** Answers one relay request (the caller checked that the path starts with RELAY_PREFIX). */
export async function relay(request: Request, options: RelayOptions): Promise<Response> {
  const release = (options.gate ?? defaultGate).enter();
  if (!release) {
    options.log?.(`${request.method} ${RELAY_PREFIX} 503 busy`);
    return refusal(503, "relay-busy", "The add-in server is busy. Try again in a moment.", {
      "Retry-After": String(RELAY_BUSY_RETRY_AFTER_S),
    });
  }
  let response: Response;
  try {
    response = await relayWithin(request, options, release);
  } catch (error) {
    release();
    throw error;
  }
  // An answer without a body streamed through is done now; a streamed one releases at its end.
  if (!response.body || response.headers.has(RELAY_ERROR_HEADER)) release();
  return response;
}

async function relayWithin(request: Request, options: RelayOptions, release: () => void): Promise<Response> {
  const url = new URL(request.url);
  const target = relayTarget(url.pathname);
  if (!target) {
    return refusal(400, "bad-relay-path", "A relay path is /relay/<tenant host[:port]>/<path>.");
  }
  const tenant = options.tenants.lookup(target.hostAndPort);
  const origin = tenant ?? options.dataOrigins?.lookup(target.hostAndPort) ?? null;
  if (!origin) {
    // Nothing is sent: the relay reaches only the tenants its admin listed.
    options.log?.(`${request.method} ${RELAY_PREFIX}${target.hostAndPort} 403 not listed`);
    return refusal(
      403,
      "tenant-not-listed",
      `The add-in server does not relay to ${target.hostAndPort}: ask your admin to list it on the add-in server.`,
    );
  }
  const dest = request.headers.get("sec-fetch-dest");
  if (dest !== null && dest !== "empty") {
    // Only the pane's fetch calls are relayed. Loaded as a script, a style, a page or a frame, a
    // tenant's answer would run as the add-in's own origin, which holds the user's keys.
    options.log?.(`${request.method} ${RELAY_PREFIX}${target.hostAndPort} 403 not a fetch (${dest})`);
    return refusal(403, "not-a-fetch", "The relay answers the pane's fetch calls only.");
  }
  const method = request.method.toUpperCase();
  if (!tenant) {
    // A data origin: its load call, with the data token, and nothing else (nothing is sent).
    const why = dataOriginRefusal(method, target.path, request.headers.get("authorization"));
    if (why) {
      options.log?.(`${method} ${RELAY_PREFIX}${target.hostAndPort} 403 data origin: ${why}`);
      return refusal(
        403,
        "data-origin-call-refused",
        `The add-in server relays only the data API's load call, with its data token, to ${origin}.`,
      );
    }
  }
  if (!RELAYED_METHODS.has(method)) {
    return refusal(405, "method-not-relayed", `${method} is not relayed.`, {
      Allow: [...RELAYED_METHODS].join(", "),
    });
  }

  // Node's fetch (undici) adds Accept-Language: *, Sec-Fetch-Mode: cors and Accept-Encoding to
  // every request, none of them the user's; the relay names itself instead of Node's "node".
  const headers = new Headers({ "User-Agent": RELAY_USER_AGENT });
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    // Reading stops the moment the cap is passed: a chunked body is never held past it.
    const read = await readCappedBody(request, MAX_RELAY_BODY_BYTES);
    if (read.kind === "too-large")
      return refusal(413, "body-too-large", "The request body is too large to relay.");
    body = read.bytes;
  }

  const fetchFn = options.fetch ?? globalThis.fetch;
  const destination = `${origin}${target.path}${url.search}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_RELAY_TIMEOUT_MS;
  const idle = idleAbort(timeoutMs);
  let upstream: Response;
  try {
    idle.touch();
    upstream = await fetchFn(destination, {
      method,
      headers,
      ...(body ? { body } : {}),
      redirect: "manual",
      signal: AbortSignal.any([request.signal, idle.signal]),
    });
    idle.touch();
  } catch {
    idle.stop();
    if (idle.expired) {
      options.log?.(`${method} ${RELAY_PREFIX}${target.hostAndPort}${target.path} 504 no answer`);
      return refusal(
        504,
        "tenant-timeout",
        `${origin} sent nothing for ${Math.round(timeoutMs / 1000)} s, so the add-in server stopped waiting. Try again later.`,
      );
    }
    options.log?.(`${method} ${RELAY_PREFIX}${target.hostAndPort}${target.path} unreachable`);
    return refusal(
      502,
      "tenant-unreachable",
      `The add-in server could not reach ${origin}. Try again later.`,
    );
  }
  options.log?.(`${method} ${RELAY_PREFIX}${target.hostAndPort}${target.path} ${upstream.status}`);
  const nullBody = method === "HEAD" || [101, 204, 205, 304].includes(upstream.status);
  if (nullBody || !upstream.body) {
    idle.stop();
    upstream.body?.cancel().catch(() => {});
  }
  const where = `${method} ${RELAY_PREFIX}${target.hostAndPort}${target.path}`;
  const ended = (why: string) => {
    options.log?.(`${where} ${upstream.status} ended: ${why}`);
    options.onBroken?.();
  };
  const relayed =
    nullBody || !upstream.body ? null : watchedBody(upstream.body, idle, release, ended, request.signal);
  return new Response(relayed, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers: passedHeaders(upstream.headers, destination),
  });
}
