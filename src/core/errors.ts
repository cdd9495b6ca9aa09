/**
 * A field of the Settings form, by the name the pane, the hosts and the stored settings use: the
 * field an error points the user to (messages.ts re-exports it).
 */
export type SettingsField = "tenantUrl" | "apiKey" | "scimToken" | "deploymentId" | "chatUrl" | "agentApiKey";

/**
 * One error type for everything that goes wrong between the add-in and the service. Its message is
 * written for the person using the add-in: what happened and what to do. It never holds a secret.
 */

export type PlatformErrorKind =
  | "insecure-url"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "bad-request"
  | "rate-limited"
  | "server"
  | "network"
  | "timeout"
  | "invalid-response"
  /** The user stopped the request (for example `Stop` in the chat). */
  | "aborted"
  /** A chat stream reported an error line, or was cut short (`__suspended__` twice). */
  | "stream";

export interface PlatformErrorOptions {
  status?: number | null;
  /** The text the service gave (its `message` or `error` field), already redacted. */
  serviceMessage?: string | null;
  /** Seconds to wait before retrying, from `Retry-After`. */
  retryAfterSeconds?: number | null;
  /** The Settings field the error is about (a missing or refused setting), if any. */
  field?: SettingsField | null;
  cause?: unknown;
}

export class PlatformError extends Error {
  override readonly name = "PlatformError";
  readonly kind: PlatformErrorKind;
  readonly status: number | null;
  readonly serviceMessage: string | null;
  readonly retryAfterSeconds: number | null;
  /** The Settings field to fix, when one would: the pane opens Settings there. */
  readonly field: SettingsField | null;

  constructor(kind: PlatformErrorKind, message: string, options: PlatformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status ?? null;
    this.serviceMessage = options.serviceMessage ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.field = options.field ?? null;
  }

  /** A plain object that can cross a postMessage or google.script.run boundary. */
  toJSON(): SerializedPlatformError {
    return {
      name: "PlatformError",
      kind: this.kind,
      status: this.status,
      message: this.message,
      serviceMessage: this.serviceMessage,
      retryAfterSeconds: this.retryAfterSeconds,
      field: this.field,
    };
  }

  static fromJSON(data: SerializedPlatformError): PlatformError {
    return new PlatformError(data.kind, data.message, data);
  }
}

export interface SerializedPlatformError {
  name: "PlatformError";
  kind: PlatformErrorKind;
  status: number | null;
  message: string;
  serviceMessage: string | null;
  retryAfterSeconds: number | null;
  /** Absent in the JSON of an older server. */
  field?: SettingsField | null;
}

export function isPlatformError(e: unknown): e is PlatformError {
  return e instanceof PlatformError;
}

/**
 * Replaces every occurrence of each secret in `text`, as written and URL-encoded (a key echoed in a
 * query string). Secrets shorter than 4 characters are left: too common to matter.
 */
export function redact(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join("[redacted]");
  }
  return out;
}

/** Longest service message shown from a JSON `message`/`error` field. */
const MAX_SERVICE_MESSAGE_CHARS = 500;
/** Longest service message shown from an HTML or plain-text body. */
const MAX_PLAIN_MESSAGE_CHARS = 300;

/**
 * The error text a body carries: its JSON `message` or `error` field, else the raw text (trimmed,
 * HTML tags dropped). Redacted whole with `secrets` before it is cut to its display length, so a
 * secret that straddles the cut shows none of its characters.
 */
export function serviceMessageOf(
  body: string | null | undefined,
  secrets: readonly (string | null | undefined)[] = [],
): string | null {
  if (!body) return null;
  const text = body.trim();
  if (!text) return null;
  const shown = (message: string, max: number) => redact(message, secrets).slice(0, max);
  try {
    const data = JSON.parse(text) as unknown;
    if (data && typeof data === "object") {
      const rec = data as Record<string, unknown>;
      for (const key of ["message", "error"]) {
        const v = rec[key];
        if (typeof v === "string" && v.trim()) return shown(v.trim(), MAX_SERVICE_MESSAGE_CHARS);
        if (v && typeof v === "object" && typeof (v as Record<string, unknown>).message === "string") {
          return shown(String((v as Record<string, unknown>).message), MAX_SERVICE_MESSAGE_CHARS);
        }
      }
    }
  } catch {
    // Not JSON: a proxy in front of the service may answer with HTML or plain text.
  }
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain ? shown(plain, MAX_PLAIN_MESSAGE_CHARS) : null;
}

export interface ErrorContext {
  /** What was being done, for the message: "list reports", "disconnect the report". */
  action?: string;
  /** The deployment the request targeted, for a 403 that names it. */
  deploymentId?: number | string | null;
  /** Host name of the service, for network messages. */
  host?: string;
  /** Which credential was used, so a 401 can say which one to replace. */
  credential?: "api-key" | "scim-token" | "agent-key";
  secrets?: readonly (string | null | undefined)[];
}

const CREDENTIAL_NAMES = {
  "api-key": "API key",
  "scim-token": "SCIM token",
  "agent-key": "agent API key",
} as const;

/** The Settings field that holds each credential: a refused one is replaced there. */
const CREDENTIAL_FIELDS = {
  "api-key": "apiKey",
  "scim-token": "scimToken",
  "agent-key": "agentApiKey",
} as const;

function withDetail(text: string, detail: string | null): string {
  return detail ? `${text} The service said: "${detail}".` : text;
}

/**
 * A redirect the transport did not follow. Only a GET follows redirects: a DELETE or a chat POST
 * resent to another address would carry the key and the body there, and a redirect loop would
 * repeat the request (the browser strips `Authorization` from a GET redirected to another origin).
 */
export function redirectNotFollowed(status: number, location: string | null): PlatformError {
  const where = location ? `to ${location.slice(0, 200)}` : "to an address not shown to the add-in";
  return new PlatformError(
    "bad-request",
    `The service answered with a redirect (${status || "3xx"}) ${where}. The add-in does not follow it for this request, so nothing was sent there. Check the URLs in Settings.`,
    { status: status || null },
  );
}

/**
 * A deployment's data origin (its `deploymentUrl`'s, apart from the tenant's) that the add-in's
 * page cannot reach: it accepts no calls from the page, and the add-in server does not relay to it.
 * An admin lists it there (`--data-origin`, docs/excel.md); the message names the origin to list.
 */
export function dataOriginNotListed(origin: string): PlatformError {
  return new PlatformError(
    "forbidden",
    `The report's data is at ${origin}, which accepts no calls from the add-in's page: ask your admin to list ${origin} on the add-in server.`,
  );
}

/** Maps an HTTP status (and its body) to a PlatformError whose message says what to do. */
export function errorFromStatus(
  status: number,
  body: string | null,
  headers: Record<string, string>,
  ctx: ErrorContext = {},
): PlatformError {
  const detail = (() => {
    const m = serviceMessageOf(body, ctx.secrets ?? []);
    return m ? redact(m, ctx.secrets ?? []) : null;
  })();
  const credential = CREDENTIAL_NAMES[ctx.credential ?? "api-key"];
  const retryAfterSeconds = parseRetryAfter(headers["retry-after"]);
  const opts = { status, serviceMessage: detail, retryAfterSeconds };
  const action = ctx.action ? ` to ${ctx.action}` : "";
  if (status >= 300 && status <= 399) {
    // An add-in server's relay passes the target as X-Relay-Location, so that no browser follows it.
    const target = headers.location ?? headers["x-relay-location"];
    const location = target ? redact(target, ctx.secrets ?? []) : null;
    return redirectNotFollowed(status, location);
  }
  if (status === 401) {
    return new PlatformError(
      "unauthorized",
      // The service's own reason, when it gives one, replaces the usual causes: said once.
      detail
        ? `The ${credential} was refused (401). The service said: "${detail}". Paste a new one in Settings.`
        : `The ${credential} was refused (401): it is missing, malformed or expired. Paste a new one in Settings.`,
      { ...opts, field: CREDENTIAL_FIELDS[ctx.credential ?? "api-key"] },
    );
  }
  if (status === 403) {
    const scope =
      ctx.deploymentId != null && ctx.credential !== "scim-token" && ctx.credential !== "agent-key"
        ? ` This key may be scoped to other deployments: deployment ${ctx.deploymentId} is not among them. Use a key that covers it, or pick another deployment.`
        : ` Ask an admin for a ${credential} with access, or use another one.`;
    return new PlatformError(
      "forbidden",
      withDetail(`The ${credential} is valid but not allowed${action} (403).${scope}`, detail),
      opts,
    );
  }
  if (status === 404) {
    return new PlatformError(
      "not-found",
      withDetail(
        `Not found (404)${ctx.action ? ` while trying${action}` : ""}: it may have been deleted, or the URL in Settings is wrong.`,
        detail,
      ),
      opts,
    );
  }
  if (status === 408) {
    return new PlatformError("timeout", withDetail("The service timed out (408). Try again.", detail), opts);
  }
  if (status === 429) {
    const wait =
      retryAfterSeconds != null
        ? ` Try again in ${Math.ceil(retryAfterSeconds)} s.`
        : " Try again in a moment.";
    return new PlatformError("rate-limited", withDetail(`The service is busy (429).${wait}`, detail), opts);
  }
  if (status >= 500) {
    return new PlatformError(
      "server",
      withDetail(`The Reporting Platform had a problem (${status}). Try again in a moment.`, detail),
      opts,
    );
  }
  if (status === 413) {
    return new PlatformError("bad-request", withDetail("The request was too large (413).", detail), opts);
  }
  return new PlatformError(
    "bad-request",
    withDetail(`The service refused the request${action} (${status}).`, detail),
    opts,
  );
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. Null when absent or unreadable. */
function parseRetryAfter(value: string | undefined | null, now: number = Date.now()): number | null {
  if (value == null || value.trim() === "") return null;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (at - now) / 1000);
}

export function invalidResponse(what: string, problem: string): PlatformError {
  return new PlatformError(
    "invalid-response",
    `The service sent ${what} this add-in cannot read (${problem}). Try again; if it persists, the service may be newer than this add-in: update it.`,
  );
}
