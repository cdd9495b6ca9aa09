/**
 * The small interface between the core and the network. The core never touches a global `fetch`:
 * a transport is passed in (`fetchTransport` in a browser or Node, one over UrlFetchApp in Apps
 * Script), so the same code serves every host and is tested over real sockets.
 */
import { PlatformError, redirectNotFollowed } from "./errors.js";
import { formatBytes } from "./limits.js";
import type { SettingsField } from "./messages.js";

export type HttpMethod = "GET" | "POST" | "DELETE" | "PUT" | "PATCH";

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  /** Header names in their usual case; values never logged. */
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * What fetch does with a redirect. By default only a GET follows one (`redirectNotFollowed`). A
   * caller sets "follow" only for a hop that never passes a Location on (the add-in server's relay),
   * so that the page can read the 3xx itself instead of an opaque redirect.
   */
  redirect?: "follow" | "manual";
  /**
   * "data-api": a deployment's data API (its `deploymentUrl`), an origin apart from the tenant's
   * on the real platform. A transport that cannot reach it says so naming that origin
   * (`dataOriginNotListed`); it carries the data token only, never a key of the tenant's.
   */
  target?: "data-api";
}

/** A byte or text stream: a web ReadableStream or any async iterable of chunks. */
export type ByteSource = ReadableStream<Uint8Array | string> | AsyncIterable<Uint8Array | string>;

export interface HttpResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body, whole (`string`) or as a stream. */
  body: string | ByteSource | null;
}

export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

/** A transport that answers at once, for runtimes without promises across calls (Apps Script). */
export type SyncTransport = (request: Omit<HttpRequest, "signal">) => {
  status: number;
  headers: Record<string, string>;
  body: string;
};

function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key.toLowerCase()] = value;
  });
  return out;
}

/** The answer was larger than the add-in reads. */
export function responseTooLarge(maxBytes: number): PlatformError {
  return new PlatformError(
    "invalid-response",
    `The service's answer is larger than ${formatBytes(maxBytes)}, the add-in's limit, and was not read. Try again; if it persists, ask an admin to check the service.`,
  );
}

/**
 * A transport over the `fetch` function the caller passes in (the core never reaches for the global
 * one: it does no I/O of its own, docs/architecture.md). Network failures become `network` errors;
 * an abort surfaces as the signal's reason. Only GET follows redirects (`redirect: "manual"` for
 * the rest): see `redirectNotFollowed`.
 */
export function fetchTransport(fetchFn: typeof fetch): Transport {
  return async (request) => {
    // fetch owns Content-Length (it is a forbidden header name in browsers).
    const { "Content-Length": _length, ...headers } = request.headers;
    const init: RequestInit = {
      method: request.method,
      headers,
      signal: request.signal ?? null,
      redirect: request.redirect ?? (request.method === "GET" ? "follow" : "manual"),
    };
    // An empty body as bytes: a string would add a bogus "Content-Type: text/plain".
    if (request.body !== undefined) init.body = request.body === "" ? new Uint8Array(0) : request.body;
    const response = await fetchFn(request.url, init);
    // A browser answers a manual redirect with an opaque response (status 0, no headers); Node
    // hands over the 3xx itself, which the client reads as an error naming its Location.
    if (response.type === "opaqueredirect") {
      await response.body?.cancel().catch(() => {});
      throw redirectNotFollowed(0, null);
    }
    return { status: response.status, headers: headersToRecord(response.headers), body: response.body };
  };
}

/**
 * Reads a whole body as text, whatever form it came in. Past `maxBytes` it stops reading and throws
 * `responseTooLarge` (a string body is measured in characters).
 */
export async function readBodyText(body: HttpResponse["body"], maxBytes = Infinity): Promise<string> {
  if (body == null) return "";
  if (typeof body === "string") {
    if (body.length > maxBytes) throw responseTooLarge(maxBytes);
    return body;
  }
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for await (const chunk of iterateChunks(body)) {
    size += chunk.length;
    if (size > maxBytes) break;
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  }
  if (size > maxBytes) {
    // The loop released the reader: cancelling frees the connection instead of draining it.
    if (typeof (body as ReadableStream).cancel === "function") {
      await (body as ReadableStream).cancel().catch(() => {});
    }
    throw responseTooLarge(maxBytes);
  }
  return text + decoder.decode();
}

/**
 * Reads a whole body as it came: a stream of bytes as one Uint8Array, undecoded (to hand to a
 * worker, which decodes it off the page's thread: transferring bytes copies nothing); a body given
 * as text, or a stream of text, as text. Past `maxBytes`, as readBodyText.
 */
export async function readBodyBytes(
  body: HttpResponse["body"],
  maxBytes = Infinity,
): Promise<Uint8Array | string> {
  if (body == null || typeof body === "string") return readBodyText(body, maxBytes);
  const chunks: Uint8Array[] = [];
  const decoder = new TextDecoder();
  let text: string | null = null;
  let size = 0;
  for await (const chunk of iterateChunks(body)) {
    size += chunk.length;
    if (size > maxBytes) break;
    if (typeof chunk === "string" && text === null) {
      // A stream of text after all: what came as bytes so far is decoded in front of it.
      text = chunks.map((c) => decoder.decode(c, { stream: true })).join("");
    }
    if (text !== null) text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    else chunks.push(chunk as Uint8Array);
  }
  if (size > maxBytes) {
    if (typeof (body as ReadableStream).cancel === "function") {
      await (body as ReadableStream).cancel().catch(() => {});
    }
    throw responseTooLarge(maxBytes);
  }
  if (text !== null) return text + decoder.decode();
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** Iterates a ReadableStream or an async iterable alike (not every runtime makes streams iterable). */
export async function* iterateChunks(source: ByteSource): AsyncGenerator<Uint8Array | string> {
  if (typeof (source as ReadableStream).getReader === "function") {
    const reader = (source as ReadableStream<Uint8Array | string>).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value !== undefined) yield value;
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    yield* source as AsyncIterable<Uint8Array | string>;
  }
}

const LOOPBACK_V4 = /^127(\.\d{1,3}){3}$/;

/**
 * True for hosts on this machine: `localhost` itself, 127.0.0.0/8 and [::1]. Not a name under
 * `.localhost`: a browser keeps those on this machine, but Node (the add-in server's relay) asks
 * the system's resolver, which may answer with any address, and the key would travel there in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "localhost" || LOOPBACK_V4.test(h) || h === "[::1]" || h === "::1";
}

/**
 * Auth rule 1, only HTTPS: returns the parsed URL or throws `insecure-url` before anything is
 * sent. Plain http is allowed for loopback hosts only, which the local sandbox uses.
 */
export function requireSecureUrl(url: string, what = "The service URL", field?: SettingsField): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PlatformError(
      "insecure-url",
      `${what} is not a valid address. Enter it as https://your-tenant.example.com.`,
      { field },
    );
  }
  if (parsed.username || parsed.password) {
    throw new PlatformError("insecure-url", `${what} must not carry a user name or password. Remove them.`, {
      field,
    });
  }
  if (parsed.protocol === "https:") return parsed;
  if (parsed.protocol === "http:" && isLoopbackHost(parsed.hostname)) return parsed;
  throw new PlatformError(
    "insecure-url",
    `${what} must use https:// (got ${parsed.protocol}//${parsed.host}). Only the local sandbox on this computer may use http://.`,
    { field },
  );
}
