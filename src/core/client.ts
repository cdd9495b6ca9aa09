/**
 * The platform client: management API (`/api/v1`), build API (`/build/api/v1`) and provisioning
 * (`/api/scim/v2`), over a transport.
 *
 * It is written sans-I/O: each operation is a plain description (method, path, credential, how to
 * read the answer: operations.ts), `buildHttpRequest` turns it into a request and `readHttpResponse`
 * turns the answer into a value or a `PlatformError` (http.ts). Here, two thin runners execute them: `createPlatformClient`
 * over an async transport (browser, Node), `createSyncPlatformClient` over a synchronous one (Apps
 * Script's UrlFetchApp, where a server function cannot return a promise). Both share the rules:
 * HTTPS only, `Authorization: Bearer`, errors that say what to do, retries of idempotent requests.
 */
import type { ScimListResponse } from "./directory.js";
import { invalidResponse, isPlatformError, PlatformError, redact } from "./errors.js";
import {
  buildHttpRequest,
  type PlatformClientConfig,
  readHttpResponse,
  retryDelay,
  tenantOrigin,
} from "./http.js";
import {
  formatCount,
  MAX_LIST_PAGES,
  MAX_LISTED_REPORTS,
  MAX_RESPONSE_BYTES,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
import { type Operation, operations, type ReportPage } from "./operations.js";
import type { ConnectWorkbookInput, Deployment, DisconnectInput, RefreshInput, Report } from "./schema.js";
import { readBodyText, responseTooLarge, type SyncTransport, type Transport } from "./transport.js";

export interface PlatformClientOptions extends PlatformClientConfig {
  /** How requests reach the network; the caller's (the core does no I/O of its own). */
  transport: Transport;
  /** For tests: how to wait between retries. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

interface ListReportsOptions {
  externalWorkbookId?: string;
  search?: string;
  /** Page size asked of the service (default 100). */
  pageSize?: number;
  /** Called for each listed item that could not be read; the rest are still returned. */
  onProblem?: (problem: string) => void;
  signal?: AbortSignal;
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
  /** Disconnect: removes the one placement `input` addresses; resolves to the report as it stands after. */
  disconnectReportFromWorkbook(
    deploymentId: number,
    reportId: number,
    input?: DisconnectInput | null,
    options?: { signal?: AbortSignal },
  ): Promise<Report>;
  /** Records a refresh of the one placement `input` addresses, with its checksum; the report after. */
  recordRefresh(
    deploymentId: number,
    reportId: number,
    input: RefreshInput,
    options?: { signal?: AbortSignal },
  ): Promise<Report>;
  /** Places the report, or updates one placement (`placementId`; `addressOnly` keeps its checksum). */
  connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: ConnectWorkbookInput,
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

/** Waits `ms`, or rejects with the signal's reason when it aborts first (both runners' waits). */
export function abortableWait(ms: number, signal?: AbortSignal): Promise<void> {
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
  const sleep = options.sleep ?? abortableWait;
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
    recordRefresh: async (d, r, input, o) => execute(operations.recordRefresh(d, r, input), o?.signal),
    connectReportToWorkbook: async (d, r, input, o) =>
      execute(operations.connectReportToWorkbook(d, r, input), o?.signal),
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
  recordRefresh(deploymentId: number, reportId: number, input: RefreshInput): Report;
  connectReportToWorkbook(deploymentId: number, reportId: number, input: ConnectWorkbookInput): Report;
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
    recordRefresh: (d, r, input) => execute(operations.recordRefresh(d, r, input)),
    connectReportToWorkbook: (d, r, input) => execute(operations.connectReportToWorkbook(d, r, input)),
    listScimUsers: (o = {}) => execute(operations.listScimUsers(o)),
  };
}
