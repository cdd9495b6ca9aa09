/**
 * The platform client: management API (`/api/v1`), build API (`/build/api/v1`) and provisioning
 * (`/api/scim/v2`), over a transport.
 *
 * It is written sans-I/O: each operation is a plain description (method, path, credential, how to
 * read the answer), `buildHttpRequest` turns it into a request and `readHttpResponse` turns the
 * answer into a value or a `PlatformError`. Two thin runners execute them: `createPlatformClient`
 * over an async transport (browser, Node), `createSyncPlatformClient` over a synchronous one (Apps
 * Script's UrlFetchApp, where a server function cannot return a promise). Both share the rules:
 * HTTPS only, `Authorization: Bearer`, errors that say what to do, retries of idempotent requests.
 */
import { z } from "zod/mini";
import {
  type ErrorContext,
  errorFromStatus,
  invalidResponse,
  isPlatformError,
  PlatformError,
  redact,
} from "./errors.js";
import {
  formatCount,
  MAX_DELETE_RETRIES,
  MAX_LIST_PAGES,
  MAX_LISTED_REPORTS,
  MAX_RESPONSE_BYTES,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
import {
  type Deployment,
  DeploymentSchema,
  type DisconnectInput,
  DisconnectInputSchema,
  type Report,
  TolerantReportSchema,
} from "./schema.js";
import {
  type HttpMethod,
  type HttpRequest,
  readBodyText,
  requireSecureUrl,
  responseTooLarge,
  type SyncTransport,
  type Transport,
} from "./transport.js";

export interface PlatformClientConfig {
  /** The tenant: `https://tenant.example.com` (http only for loopback). */
  baseUrl: string;
  /** API key or OAuth access token, sent as `Authorization: Bearer` (spec 5 rules 2-3). */
  token: string;
  /** The SCIM token for `/api/scim/v2` (spec 5 rule 5); defaults to `token`. */
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

export interface PlatformClientOptions extends PlatformClientConfig {
  /** How requests reach the network; the caller's (the core does no I/O of its own). */
  transport: Transport;
  /** For tests: how to wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

export interface ListReportsOptions {
  externalWorkbookId?: string;
  search?: string;
  /** Page size asked of the service (default 100). */
  pageSize?: number;
  /** Called for each listed item that could not be read; the rest are still returned. */
  onProblem?: (problem: string) => void;
  signal?: AbortSignal;
}

export const ScimUserSchema = z.looseObject({
  id: z.string(),
  userName: z.string(),
  name: z.nullish(
    z.looseObject({
      givenName: z.nullish(z.string()),
      familyName: z.nullish(z.string()),
      formatted: z.nullish(z.string()),
    }),
  ),
  displayName: z.nullish(z.string()),
  emails: z.nullish(z.array(z.looseObject({ value: z.string(), primary: z.nullish(z.boolean()) }))),
  active: z.nullish(z.boolean()),
});
export type ScimUser = z.infer<typeof ScimUserSchema>;

export const ScimListResponseSchema = z.looseObject({
  schemas: z.array(z.string()),
  totalResults: z.int(),
  startIndex: z.optional(z.int()),
  itemsPerPage: z.optional(z.int()),
  Resources: z.optional(z.array(ScimUserSchema)),
});
export type ScimListResponse = z.infer<typeof ScimListResponseSchema>;

/** A directory user as the pane lists it: one SCIM user resource, read for display. */
export interface DirectoryUser {
  id: string;
  userName: string;
  /** displayName, else the formatted name, else given and family name, else the user name. */
  displayName: string;
  /** The primary email, else the first one; null when there is none. */
  email: string | null;
  /** SCIM `active`; a user without one counts as active. */
  active: boolean;
}

/** One page of directory users, with SCIM's paging numbers. */
export interface DirectoryUserPage {
  users: DirectoryUser[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
}

/**
 * Reads a SCIM ListResponse as a page of directory users. `startIndex` and `itemsPerPage` are
 * optional in a ListResponse: the requested start index (else 1) and the number of resources stand
 * in for them.
 */
export function toDirectoryUserPage(
  response: ScimListResponse,
  requestedStartIndex?: number,
): DirectoryUserPage {
  const resources = response.Resources ?? [];
  return {
    totalResults: response.totalResults,
    startIndex: response.startIndex ?? requestedStartIndex ?? 1,
    itemsPerPage: response.itemsPerPage ?? resources.length,
    users: resources.map((u) => {
      const email = u.emails?.find((e) => e.primary)?.value ?? u.emails?.[0]?.value ?? null;
      const name =
        u.displayName ??
        u.name?.formatted ??
        [u.name?.givenName, u.name?.familyName].filter(Boolean).join(" ");
      return {
        id: u.id,
        userName: u.userName,
        displayName: name || u.userName,
        email,
        active: u.active !== false,
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Operations, as data.

type Credential = "api-key" | "scim-token";

export interface Operation<T> {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body; for DELETE without one, an empty body is sent (Content-Length: 0). */
  body?: unknown;
  credential: Credential;
  /** Words for messages: "list reports". */
  action: string;
  deploymentId?: number;
  /** Reads the parsed JSON answer; throws `invalid-response` on a shape it cannot read. */
  read(json: unknown): T;
}

function parseWith<S extends z.ZodMiniType>(schema: S, what: string) {
  return (json: unknown): z.infer<S> => {
    const result = schema.safeParse(json);
    if (!result.success) throw invalidResponse(what, describeIssues(result.error));
    return result.data;
  };
}

/** "externalWorkbookPlacements.0.syncStatus: expected string" — the first few issues, with paths. */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

function positiveInt(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new PlatformError("bad-request", `${what} must be a whole number (got ${String(n)}).`);
  }
  return n;
}

const DeploymentList = z.array(DeploymentSchema);
const DeploymentListSchema = z.union([
  DeploymentList,
  z.pipe(
    z.looseObject({
      items: z.optional(DeploymentList),
      data: z.optional(DeploymentList),
      deployments: z.optional(DeploymentList),
    }),
    z.transform((v: { items?: Deployment[]; data?: Deployment[]; deployments?: Deployment[] }, ctx) => {
      const list = v.items ?? v.deployments ?? v.data;
      if (!list) {
        ctx.issues.push({ code: "custom", message: "expected a list of deployments", input: v });
        return z.NEVER;
      }
      return list;
    }),
  ),
]);

const ReportPageSchema = z.looseObject({
  items: z.optional(z.array(z.unknown())),
  // Deprecated name of `items` on the real service.
  data: z.optional(z.array(z.unknown())),
  pageInfo: z.nullish(
    z.looseObject({ hasNextPage: z.optional(z.boolean()), endCursor: z.nullish(z.string()) }),
  ),
});

export interface ReportPage {
  reports: Report[];
  problems: string[];
  hasNextPage: boolean;
  endCursor: string | null;
}

export const operations = {
  listDeployments(): Operation<Deployment[]> {
    return {
      method: "GET",
      path: "/api/v1/deployments",
      credential: "api-key",
      action: "list deployments",
      read: parseWith(DeploymentListSchema, "a list of deployments"),
    };
  },

  listReportsPage(
    deploymentId: number,
    opts: { externalWorkbookId?: string; search?: string; first?: number; after?: string | null },
  ): Operation<ReportPage> {
    positiveInt(deploymentId, "The deployment id");
    return {
      method: "GET",
      path: `/api/v1/deployments/${deploymentId}/reports`,
      query: {
        externalWorkbookId: opts.externalWorkbookId || undefined,
        search: opts.search || undefined,
        first: opts.first,
        after: opts.after ?? undefined,
      },
      credential: "api-key",
      action: "list reports",
      deploymentId,
      read(json) {
        const page = parseWith(ReportPageSchema, "a list of reports")(json);
        const items = page.items ?? page.data;
        if (!items) throw invalidResponse("a list of reports", "items: missing");
        const reports: Report[] = [];
        const problems: string[] = [];
        // One unreadable report must not hide the others: each item is read on its own.
        items.forEach((item, index) => {
          const r = TolerantReportSchema.safeParse(item);
          if (r.success) reports.push(r.data);
          else {
            const rec = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
            const name = typeof rec.name === "string" ? `"${rec.name}"` : `#${String(rec.id ?? index + 1)}`;
            problems.push(`Report ${name} could not be read (${describeIssues(r.error)}).`);
          }
        });
        return {
          reports,
          problems,
          hasNextPage: page.pageInfo?.hasNextPage === true,
          endCursor: page.pageInfo?.endCursor ?? null,
        };
      },
    };
  },

  getReport(deploymentId: number, reportId: number): Operation<Report> {
    positiveInt(deploymentId, "The deployment id");
    positiveInt(reportId, "The report id");
    return {
      method: "GET",
      path: `/api/v1/deployments/${deploymentId}/reports/${reportId}`,
      credential: "api-key",
      action: "read the report",
      deploymentId,
      read: parseWith(TolerantReportSchema, "a report"),
    };
  },

  disconnectReportFromWorkbook(
    deploymentId: number,
    reportId: number,
    input?: DisconnectInput | null,
  ): Operation<Report> {
    positiveInt(deploymentId, "The deployment id");
    positiveInt(reportId, "The report id");
    let body: DisconnectInput | undefined;
    if (input != null) {
      const parsed = DisconnectInputSchema.safeParse(input);
      if (!parsed.success) {
        throw new PlatformError(
          "bad-request",
          `The disconnect input is not valid: ${describeIssues(parsed.error)}.`,
        );
      }
      body = parsed.data;
    }
    return {
      method: "DELETE",
      path: `/api/v1/deployments/${deploymentId}/reports/${reportId}/connect-workbook`,
      body,
      credential: "api-key",
      action: "disconnect the report",
      deploymentId,
      read: parseWith(TolerantReportSchema, "a report"),
    };
  },

  listScimUsers(opts: { count?: number; startIndex?: number } = {}): Operation<ScimListResponse> {
    return {
      method: "GET",
      path: "/api/scim/v2/Users",
      query: { count: opts.count, startIndex: opts.startIndex },
      credential: "scim-token",
      action: "list users",
      read: parseWith(ScimListResponseSchema, "a list of users"),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Request and response, shared by both runners.

/** The tenant's origin, checked: spec 5 rule 1 (HTTPS only; http for loopback). */
export function tenantOrigin(baseUrl: string): string {
  const url = requireSecureUrl(baseUrl, "The tenant URL");
  // A base URL may carry a path prefix (a proxy); keep it, drop a trailing slash.
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function buildHttpRequest(config: PlatformClientConfig, op: Operation<unknown>): HttpRequest {
  const origin = tenantOrigin(config.baseUrl);
  const secret = op.credential === "scim-token" ? (config.scimToken ?? config.token) : config.token;
  if (!secret?.trim()) {
    const which = op.credential === "scim-token" ? "SCIM token" : "API key";
    throw new PlatformError("unauthorized", `No ${which} is set. Paste one in Settings.`);
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
export function isTransient(error: PlatformError): boolean {
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
 * retried. A GET up to `retries` times on any transient failure; a DELETE (rule 9 makes a repeat
 * harmless, but one click must not become a storm of them) at most MAX_DELETE_RETRIES times, and
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

function networkError(config: PlatformClientConfig, cause: unknown): PlatformError {
  let host = "the service";
  try {
    host = new URL(config.baseUrl).host;
  } catch {
    // The URL was checked before sending; keep the generic name.
  }
  const detail = cause instanceof Error ? redact(cause.message, [config.token, config.scimToken]) : "";
  return new PlatformError(
    "network",
    `Could not reach ${host}${detail ? ` (${detail})` : ""}. Check the tenant URL in Settings and your connection, then try again.`,
  );
}

function timeoutError(ms: number): PlatformError {
  return new PlatformError(
    "timeout",
    `The service did not answer within ${Math.round(ms / 1000)} s. Try again.`,
  );
}

// ---------------------------------------------------------------------------------------------
// The async runner.

export interface PlatformClient {
  listDeployments(options?: { signal?: AbortSignal }): Promise<Deployment[]>;
  /** Every report of the deployment matching the filters, following the cursor through every page. */
  listReports(deploymentId: number, options?: ListReportsOptions): Promise<Report[]>;
  getReport(deploymentId: number, reportId: number, options?: { signal?: AbortSignal }): Promise<Report>;
  /** Spec 4.1: removes the one placement `input` addresses; resolves to the report as it stands after. */
  disconnectReportFromWorkbook(
    deploymentId: number,
    reportId: number,
    input?: DisconnectInput | null,
    options?: { signal?: AbortSignal },
  ): Promise<Report>;
  listScimUsers(options?: {
    count?: number;
    startIndex?: number;
    signal?: AbortSignal;
  }): Promise<ScimListResponse>;
  /** Runs any operation (for requests not wrapped above). */
  execute<T>(op: Operation<T>, signal?: AbortSignal): Promise<T>;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const TOO_MANY_REPORTS = `This workbook's list stops at ${formatCount(MAX_LISTED_REPORTS)} reports, the add-in's limit: some reports placed here are not shown.`;
const TOO_MANY_PAGES = `The service kept sending more pages: the list stops after ${MAX_LIST_PAGES} pages, the add-in's limit. Some reports placed here may not be shown.`;

/**
 * Adds a page to `all`; returns the cursor of the next page, or null when this was the last, or
 * when the list reached MAX_LISTED_REPORTS (reported to `onProblem`, like an unreadable report).
 */
function collectPage(
  page: ReportPage,
  all: Report[],
  seen: Set<string>,
  onProblem?: (problem: string) => void,
): string | null {
  const room = MAX_LISTED_REPORTS - all.length;
  all.push(...page.reports.slice(0, Math.max(0, room)));
  for (const p of page.problems) onProblem?.(p);
  if (page.reports.length > room || (page.hasNextPage && all.length >= MAX_LISTED_REPORTS)) {
    onProblem?.(TOO_MANY_REPORTS);
    return null;
  }
  if (!page.hasNextPage) return null;
  // A cursor that is missing or comes back again would page forever.
  if (!page.endCursor || seen.has(page.endCursor)) {
    throw invalidResponse("a list of reports", "the next page's cursor is missing or repeats");
  }
  seen.add(page.endCursor);
  return page.endCursor;
}

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const config: PlatformClientConfig = { ...options };
  // Refuse an insecure URL at once, before any request can be made with the token.
  tenantOrigin(config.baseUrl);
  const transport = options.transport;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function attemptOnce<T>(op: Operation<T>, signal?: AbortSignal): Promise<T> {
    const request = buildHttpRequest(config, op);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onOuterAbort = () => controller.abort();
    signal?.addEventListener("abort", onOuterAbort, { once: true });
    try {
      const response = await transport({ ...request, signal: controller.signal });
      const text = await readBodyText(response.body, MAX_RESPONSE_BYTES);
      return readHttpResponse(config, op, response.status, response.headers, text);
    } catch (e) {
      if (isPlatformError(e)) throw e;
      if (signal?.aborted) throw new PlatformError("aborted", "Cancelled.");
      if (timedOut) throw timeoutError(timeoutMs);
      throw networkError(config, e);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onOuterAbort);
    }
  }

  async function execute<T>(op: Operation<T>, signal?: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await attemptOnce(op, signal);
      } catch (e) {
        const error = e as PlatformError;
        const delay = error.kind === "aborted" ? null : retryDelay(config, op.method, attempt, error, random);
        if (delay === null) throw error;
        await sleep(delay, signal).catch(() => {
          throw new PlatformError("aborted", "Cancelled.");
        });
      }
    }
  }

  return {
    execute,
    listDeployments: async (o) => execute(operations.listDeployments(), o?.signal),
    async listReports(deploymentId, o = {}) {
      const all: Report[] = [];
      const seen = new Set<string>();
      let after: string | null = null;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result: ReportPage = await execute(
          operations.listReportsPage(deploymentId, {
            externalWorkbookId: o.externalWorkbookId,
            search: o.search,
            first: o.pageSize ?? 100,
            after,
          }),
          o.signal,
        );
        after = collectPage(result, all, seen, o.onProblem);
        if (after === null) return all;
      }
      o.onProblem?.(TOO_MANY_PAGES);
      return all;
    },
    // Async so that a bad argument rejects like every other failure instead of throwing.
    getReport: async (d, r, o) => execute(operations.getReport(d, r), o?.signal),
    disconnectReportFromWorkbook: async (d, r, input, o) =>
      execute(operations.disconnectReportFromWorkbook(d, r, input), o?.signal),
    listScimUsers: async (o = {}) =>
      execute(operations.listScimUsers({ count: o.count, startIndex: o.startIndex }), o.signal),
  };
}

// ---------------------------------------------------------------------------------------------
// The synchronous runner, for Apps Script.

export interface SyncPlatformClient {
  listDeployments(): Deployment[];
  listReports(deploymentId: number, options?: Omit<ListReportsOptions, "signal">): Report[];
  getReport(deploymentId: number, reportId: number): Report;
  disconnectReportFromWorkbook(
    deploymentId: number,
    reportId: number,
    input?: DisconnectInput | null,
  ): Report;
  listScimUsers(options?: { count?: number; startIndex?: number }): ScimListResponse;
  execute<T>(op: Operation<T>): T;
}

export interface SyncPlatformClientOptions extends PlatformClientConfig {
  transport: SyncTransport;
  /** Blocking wait (Utilities.sleep in Apps Script). */
  sleep: (ms: number) => void;
  random?: () => number;
}

export function createSyncPlatformClient(options: SyncPlatformClientOptions): SyncPlatformClient {
  const config: PlatformClientConfig = { ...options };
  tenantOrigin(config.baseUrl);
  const random = options.random ?? Math.random;

  function execute<T>(op: Operation<T>): T {
    for (let attempt = 0; ; attempt++) {
      try {
        const request = buildHttpRequest(config, op);
        let response: ReturnType<SyncTransport>;
        try {
          response = options.transport(request);
        } catch (e) {
          throw isPlatformError(e) ? e : networkError(config, e);
        }
        if (response.body.length > MAX_RESPONSE_BYTES) throw responseTooLarge(MAX_RESPONSE_BYTES);
        return readHttpResponse(config, op, response.status, response.headers, response.body);
      } catch (e) {
        if (!isPlatformError(e)) throw e;
        const delay = retryDelay(config, op.method, attempt, e, random);
        if (delay === null) throw e;
        options.sleep(delay);
      }
    }
  }

  return {
    execute,
    listDeployments: () => execute(operations.listDeployments()),
    listReports(deploymentId, o = {}) {
      const all: Report[] = [];
      const seen = new Set<string>();
      let after: string | null = null;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = execute(
          operations.listReportsPage(deploymentId, {
            externalWorkbookId: o.externalWorkbookId,
            search: o.search,
            first: o.pageSize ?? 100,
            after,
          }),
        );
        after = collectPage(result, all, seen, o.onProblem);
        if (after === null) return all;
      }
      o.onProblem?.(TOO_MANY_PAGES);
      return all;
    },
    getReport: (d, r) => execute(operations.getReport(d, r)),
    disconnectReportFromWorkbook: (d, r, input) =>
      execute(operations.disconnectReportFromWorkbook(d, r, input)),
    listScimUsers: (o = {}) => execute(operations.listScimUsers(o)),
  };
}
