/**
 * The HTTP edges the sandbox's endpoints share, on web-standard Request and Response: errors as
 * `{"message": ...}`, JSON answers, request bodies with a size limit, and the `Authorization` header.
 */

import { readCappedBody } from "../server-kit/http.js";

/** Bodies larger than this answer 413. */
const MAX_BODY_BYTES = 1024 * 1024;
/** A body is read (and dropped) up to this size before a 413, so the client can read the answer. */
const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;

/** An error answer: status, `{"message"}` and any extra JSON fields or headers. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    message: string,
    options: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.body = { ...options.body, message };
    this.headers = options.headers ?? {};
  }
}

/** What every answer carries unless the sandbox runs with `--no-cors` (the app adds them). */
export const CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "Retry-After",
};

export function jsonResponse(status: number, value: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(value);
  return new Response(text, {
    status,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(text)),
      "Cache-Control": "no-store",
      ...headers,
    },
  });
}

export function errorResponse(error: HttpError): Response {
  return jsonResponse(error.status, error.body, error.headers);
}

/**
 * The whole request body as text; 413 past `MAX_BODY_BYTES`, read (and dropped) up to
 * `DRAIN_LIMIT_BYTES` so the client can read the answer, the connection closed past that.
 */
async function readBodyText(request: Request): Promise<string> {
  const read = await readCappedBody(request, MAX_BODY_BYTES, DRAIN_LIMIT_BYTES);
  if (read.kind === "too-large") throw tooLarge(!read.drained);
  return new TextDecoder().decode(read.bytes);
}

function tooLarge(close: boolean): HttpError {
  return new HttpError(413, `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MB).`, {
    headers: close ? { Connection: "close" } : {},
  });
}

/**
 * A JSON body: `undefined` when the body is empty (or only white space), else the parsed value.
 * Text that is not JSON answers 400.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
}

export interface Credential {
  /** The scheme as sent, lower-cased: "bearer", "api-key". */
  scheme: string;
  token: string;
}

/**
 * The `Authorization` header as scheme + token; null when missing. A header that is not exactly
 * `<scheme> <token>` answers 401 (malformed credential, auth rule 7).
 */
export function readAuthorization(request: Request): Credential | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const m = /^\s*([A-Za-z][A-Za-z0-9-]*) +(\S+)\s*$/.exec(header);
  if (!m) throw new HttpError(401, "The Authorization header is malformed: send `<scheme> <token>`.");
  return { scheme: m[1]!.toLowerCase(), token: m[2]! };
}

/** A 400 naming the first bad field of a zod error ("sessionSettings.externalId: ..."). */
export function describeZodIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "body"}: ${i.message}`)
    .join("; ");
}
