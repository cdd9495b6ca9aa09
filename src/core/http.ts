/**
 * Requests and answers of the platform client, shared by both runners (client.ts): auth rule 1
 * (HTTPS only), `Authorization: Bearer` (auth rules 2-3; the SCIM token for the directory, auth
 * rule 5), the error an answer means, and which failures are retried and after how long.
 */
import { type ErrorContext, errorFromStatus, invalidResponse, type PlatformError } from "./errors.js";
import { MAX_DELETE_RETRIES } from "./limits.js";
import { missingSetting } from "./messages.js";
import type { Operation } from "./operations.js";
import { type HttpMethod, type HttpRequest, requireSecureUrl } from "./transport.js";

export interface PlatformClientConfig {
  /** The tenant: `https://tenant.example.com` (http only for loopback). */
  baseUrl: string;
  /** API key or OAuth access token, sent as `Authorization: Bearer` (auth rules 2-3). */
  token: string;
  /** The SCIM token for `/api/scim/v2` (auth rule 5); defaults to `token`. */
  scimToken?: string;
  /** Per-request time limit in ms (default 30 s). */
  timeoutMs?: number;
  /** How many times an idempotent request is retried (default 3). */
  retries?: number;
  /** First backoff step in ms (default 300); doubles per attempt, with jitter. */
  retryBaseMs?: number;
  /** Longest wait the client accepts from `Retry-After` before giving up (default 30 s). */
  maxRetryAfterMs?: number;
}

/** The tenant's origin, checked: auth rule 1 (HTTPS only; http for loopback). */
export function tenantOrigin(baseUrl: string): string {
  const url = requireSecureUrl(baseUrl, "The tenant URL", "tenantUrl");
  // A base URL may carry a path prefix (a proxy); keep it, drop a trailing slash.
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function buildHttpRequest(config: PlatformClientConfig, op: Operation<unknown>): HttpRequest {
  const origin = tenantOrigin(config.baseUrl);
  const secret = op.credential === "scim-token" ? (config.scimToken ?? config.token) : config.token;
  if (!secret?.trim()) {
    throw missingSetting(op.credential === "scim-token" ? "scimToken" : "apiKey");
  }
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(op.query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  const headers: Record<string, string> = {
    Accept: "application/json",
    Authorization: `Bearer ${secret.trim()}`,
  };
  const request: HttpRequest = {
    method: op.method,
    url: `${origin}${op.path}${qs ? `?${qs}` : ""}`,
    headers,
  };
  if (op.body !== undefined) {
    headers["Content-Type"] = "application/json";
    request.body = JSON.stringify(op.body);
  } else if (op.method === "DELETE") {
    // Some front ends refuse a DELETE without a length (411). Transports that control their headers
    // (UrlFetchApp, node:http) send this one; fetch computes it from the empty body itself.
    headers["Content-Length"] = "0";
    request.body = "";
  }
  return request;
}

function errorContext(config: PlatformClientConfig, op: Operation<unknown>): ErrorContext {
  return {
    action: op.action,
    deploymentId: op.deploymentId ?? null,
    credential: op.credential,
    secrets: [config.token, config.scimToken],
  };
}

/** Reads an answer: the value on 2xx, else the PlatformError for the status. */
export function readHttpResponse<T>(
  config: PlatformClientConfig,
  op: Operation<T>,
  status: number,
  headers: Record<string, string>,
  text: string,
): T {
  if (status < 200 || status > 299) throw errorFromStatus(status, text, headers, errorContext(config, op));
  let json: unknown;
  try {
    json = text.trim() === "" ? null : JSON.parse(text);
  } catch {
    throw invalidResponse("an answer", "not JSON");
  }
  return op.read(json);
}

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "DELETE", "PUT"]);

/** Whether an error is worth another try: network failures, time-outs, 408, 429 and 5xx. */
function isTransient(error: PlatformError): boolean {
  return (
    error.kind === "network" ||
    error.kind === "timeout" ||
    error.kind === "rate-limited" ||
    (error.kind === "server" && (error.status ?? 500) >= 500)
  );
}

/**
 * Whether a failed request surely did not reach the service's logic: it said so (429: too many
 * requests; 503: unavailable). After a time-out, a broken connection or another 5xx, a DELETE may
 * already have been applied.
 */
function surelyNotApplied(error: PlatformError): boolean {
  return error.status === 429 || error.status === 503;
}

/**
 * How long to wait before attempt `attempt + 1`, or null to give up. Only idempotent requests are
 * retried. A GET up to `retries` times on any transient failure; a DELETE (disconnect rule 9 makes a
 * repeat harmless, but one click must not become a storm of them) at most MAX_DELETE_RETRIES times, and
 * only when the service surely did not act on it. `Retry-After` is honoured; one longer than the
 * client accepts ends the retries.
 */
export function retryDelay(
  config: PlatformClientConfig,
  method: HttpMethod,
  attempt: number,
  error: PlatformError,
  random: () => number = Math.random,
): number | null {
  const retries =
    method === "DELETE" ? Math.min(config.retries ?? 3, MAX_DELETE_RETRIES) : (config.retries ?? 3);
  if (!IDEMPOTENT.has(method) || attempt >= retries || !isTransient(error)) return null;
  if (method === "DELETE" && !surelyNotApplied(error)) return null;
  if (error.retryAfterSeconds != null) {
    const ms = error.retryAfterSeconds * 1000;
    return ms <= (config.maxRetryAfterMs ?? 30_000) ? ms : null;
  }
  const base = (config.retryBaseMs ?? 300) * 2 ** attempt;
  // Full jitter between half and the whole step, so clients that failed together spread out.
  return Math.round(base / 2 + random() * (base / 2));
}
