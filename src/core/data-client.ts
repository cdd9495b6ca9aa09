/**
 * The data client: a report's rows from the deployment's data API (platform-api.md, "The data
 * API"), with the token, "Continue wait", pages and caps.
 *
 * The flow is written once, as a generator (`loadProgram`) that yields what it needs done (read the
 * deployment's data URL, get a token, send a request, wait) and decides everything else: which page
 * comes next, when to ask again, when to renew the token, when to give up. Two thin runners execute
 * it: `createDataClient` over an async transport (the pane, the Excel command) and
 * `createSyncDataClient` over a synchronous one (Apps Script's UrlFetchApp, with Utilities.sleep and
 * the execution's remaining time), the way client.ts runs the management operations.
 */

import { abortableWait, type PlatformClient, type SyncPlatformClient } from "./client.js";
import {
  addPage,
  buildLoadRequest,
  checkAnnouncedTotal,
  type DataQuery,
  dataAnswerTooLarge,
  dataApiBase,
  isTokenRefusal,
  type LoadAnswer,
  nextPageQuery,
  type PageOutcome,
  planPages,
  readLoadAnswer,
  reportQuery,
} from "./data-api.js";
import { isPlatformError, PlatformError, redact } from "./errors.js";
import {
  DATA_POLL_FIRST_MS,
  DATA_POLL_MAX_MS,
  DATA_REQUEST_TIMEOUT_MS,
  DATA_TOKEN_LIFETIME_S,
  DATA_TOKEN_RENEW_MARGIN_S,
  DATA_WAIT_TIMEOUT_MS,
  MAX_DATA_ANSWER_BYTES,
} from "./limits.js";
import { operations } from "./operations.js";
import { runProgram, runProgramSync } from "./program.js";
import type { Report } from "./schema.js";
import {
  type HttpRequest,
  readBodyBytes,
  readBodyText,
  type SyncTransport,
  type Transport,
} from "./transport.js";

/** Where a load stands, for a progress line ("Waiting for the service…", "12,000 of 50,000 rows"). */
export interface DataLoadProgress {
  phase: "waiting" | "loading";
  /** Rows loaded so far. */
  rows: number;
  /** Rows the load will bring, once the first page said (null before, or when unknown). */
  totalRows: number | null;
  /** "Continue wait" answers so far for the current page. */
  waits: number;
}

/** What the load program asks its runner to do. */
export type DataEffect =
  | { type: "data-url"; deploymentId: number }
  | { type: "token"; deploymentId: number; renew: boolean }
  | { type: "request"; request: HttpRequest }
  | { type: "sleep"; ms: number }
  | { type: "progress"; progress: DataLoadProgress };

/** What the runner answers a "request" effect with: the whole body as text. */
export interface DataResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * A "request" effect's answer for a load run elsewhere (`runEffect` with `asBytes`): the body as
 * it came, bytes undecoded when it came as bytes, so that a worker decodes it (dataResponseOf).
 */
export interface DataResponseBytes {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/** The DataResponse of a DataResponseBytes: the body decoded as UTF-8 (as readBodyText does). */
export function dataResponseOf(response: DataResponseBytes): DataResponse {
  const { status, headers, body } = response;
  return { status, headers, text: typeof body === "string" ? body : new TextDecoder().decode(body) };
}

interface ProgramOptions {
  deploymentId: number;
  query: DataQuery;
  reportName?: string;
  pageRows?: number;
  /** The clock (ms); the wait deadline is counted on it. */
  now: () => number;
  waitTimeoutMs?: number;
  /** Redacted from every message (the API key); the token is added by the program. */
  secrets: readonly (string | null | undefined)[];
  random?: () => number;
}

/** How many times one page is asked again after a transient failure (network, 408, 429, 5xx). */
const PAGE_RETRIES = 2;

function isTransient(error: PlatformError): boolean {
  return (
    error.kind === "network" ||
    error.kind === "timeout" ||
    error.kind === "rate-limited" ||
    (error.kind === "server" && (error.status ?? 0) >= 500)
  );
}

/**
 * The load of one query, as a program of effects. The data rules it follows (docs/platform-api.md):
 * the token from the management API, sent as `Authorization: <token>` (rule 1-2); "Continue wait"
 * asked again with growing pauses until DATA_WAIT_TIMEOUT_MS (rule 4); a 403 renews the token once,
 * in case it expired early (rule 1); pages of at most 50,000 rows until the query's limit or a short
 * page (rule 6); the caps on rows and cells before more is loaded.
 */
export function* loadProgram(o: ProgramOptions): Generator<DataEffect, LoadAnswer, unknown> {
  const plan = planPages(o.query, o.pageRows);
  const random = o.random ?? Math.random;
  const base = dataApiBase(
    (yield { type: "data-url", deploymentId: o.deploymentId }) as string,
    o.deploymentId,
  );
  let result: LoadAnswer | null = null;
  let loaded = 0;
  let total: number | null = null;
  let previous: PageOutcome | null = null;
  let token = (yield { type: "token", deploymentId: o.deploymentId, renew: false }) as string;
  for (;;) {
    const pageQuery = nextPageQuery(o.query, plan, loaded, previous);
    if (!pageQuery) break;
    yield { type: "progress", progress: { phase: "loading", rows: loaded, totalRows: total, waits: 0 } };
    const waitUntil = o.now() + (o.waitTimeoutMs ?? DATA_WAIT_TIMEOUT_MS);
    let pause = DATA_POLL_FIRST_MS;
    let waits = 0;
    let renewed = false;
    let failures = 0;
    let page: LoadAnswer | null = null;
    while (!page) {
      let step: ReturnType<typeof readLoadAnswer>;
      try {
        const response = (yield {
          type: "request",
          request: buildLoadRequest(base, token, pageQuery),
        }) as DataResponse;
        step = readLoadAnswer(response.status, response.headers, response.text, {
          deploymentId: o.deploymentId,
          reportName: o.reportName,
          secrets: [...o.secrets, token],
        });
      } catch (e) {
        const error = isPlatformError(e) ? e : new PlatformError("network", String(e));
        if (isTokenRefusal(error) && !renewed) {
          // The token may have expired or been revoked since it was issued: one new one, once.
          renewed = true;
          token = (yield { type: "token", deploymentId: o.deploymentId, renew: true }) as string;
          continue;
        }
        if (!isTransient(error) || failures >= PAGE_RETRIES) throw error;
        failures++;
        const backoff = 500 * 2 ** (failures - 1);
        const delay =
          error.retryAfterSeconds != null
            ? error.retryAfterSeconds * 1000
            : backoff / 2 + random() * (backoff / 2);
        if (delay > 30_000) throw error;
        yield { type: "sleep", ms: Math.round(delay) };
        continue;
      }
      if (step.kind === "page") {
        page = step.page;
        break;
      }
      waits++;
      yield { type: "progress", progress: { phase: "waiting", rows: loaded, totalRows: total, waits } };
      if (o.now() + pause > waitUntil) {
        throw new PlatformError(
          "timeout",
          `The service was still preparing the data${o.reportName ? ` of "${o.reportName}"` : ""} after ${Math.round((o.waitTimeoutMs ?? DATA_WAIT_TIMEOUT_MS) / 60_000) || 1} min. Try again later: it may be ready then.`,
        );
      }
      yield { type: "sleep", ms: pause };
      pause = Math.min(pause * 2, DATA_POLL_MAX_MS);
    }
    if (loaded === 0) {
      total = page.total === null ? null : Math.min(Math.max(0, page.total - plan.offset), plan.wanted);
      checkAnnouncedTotal(page.total, plan, o.query);
    }
    result = addPage(result, page, pageQuery);
    previous = { asked: pageQuery.limit ?? 0, got: page.data.length };
    loaded += page.data.length;
  }
  yield {
    type: "progress",
    progress: { phase: "loading", rows: loaded, totalRows: total ?? loaded, waits: 0 },
  };
  const answer: LoadAnswer = result ?? {
    query: o.query,
    data: [],
    annotation: { measures: {}, dimensions: {}, segments: {}, timeDimensions: {} },
    lastRefreshTime: null,
    total: 0,
  };
  return { ...answer, query: o.query, total };
}

/**
 * The data tokens of one client, in memory only (never stored beside the keys: docs/security.md):
 * one per deployment, asked for DATA_TOKEN_LIFETIME_S and renewed when less than
 * DATA_TOKEN_RENEW_MARGIN_S of it is left.
 */
export class DataTokens {
  readonly #tokens = new Map<number, { token: string; expiresAt: number }>();
  constructor(private readonly lifetimeSeconds = DATA_TOKEN_LIFETIME_S) {}

  /** The lifetime to ask the service for. */
  get lifetime(): number {
    return this.lifetimeSeconds;
  }

  /** A token still good for at least the renewal margin, or null. */
  valid(deploymentId: number, now: number): string | null {
    const entry = this.#tokens.get(deploymentId);
    if (!entry) return null;
    if (entry.expiresAt - now < DATA_TOKEN_RENEW_MARGIN_S * 1000) {
      this.#tokens.delete(deploymentId);
      return null;
    }
    return entry.token;
  }

  /** Keeps a token issued at `issuedAt` (asked before the request, so it counts the round trip). */
  keep(deploymentId: number, token: string, issuedAt: number): void {
    this.#tokens.set(deploymentId, { token, expiresAt: issuedAt + this.lifetimeSeconds * 1000 });
  }

  forget(deploymentId?: number): void {
    if (deploymentId === undefined) this.#tokens.clear();
    else this.#tokens.delete(deploymentId);
  }
}

/**
 * What one client keeps between loads, in memory only: each deployment's data URL (told to
 * `onDataUrl` when first learned) and its data token. Both runners ask it first and hand it what
 * the service answered.
 */
class DataSession {
  readonly tokens: DataTokens;
  readonly #urls = new Map<number, string>();
  constructor(
    lifetimeSeconds: number | undefined,
    private readonly onDataUrl?: (deploymentId: number, base: string) => void,
  ) {
    this.tokens = new DataTokens(lifetimeSeconds);
  }

  knownUrl(deploymentId: number): string | undefined {
    return this.#urls.get(deploymentId);
  }

  /** The data URL the deployment names, checked and kept. */
  keepUrl(deploymentId: number, deployment: { deploymentUrl?: string | null }): string {
    const url = dataApiBase(deployment.deploymentUrl, deploymentId);
    this.#urls.set(deploymentId, url);
    this.onDataUrl?.(deploymentId, url);
    return url;
  }

  /** A token still good, or null (after `renew`, always null: the service is asked again). */
  knownToken(deploymentId: number, renew: boolean, now: number): string | null {
    if (renew) this.tokens.forget(deploymentId);
    return this.tokens.valid(deploymentId, now);
  }

  keepToken(deploymentId: number, token: string, issuedAt: number): string {
    this.tokens.keep(deploymentId, token, issuedAt);
    return token;
  }

  forget(): void {
    this.tokens.forget();
    this.#urls.clear();
  }
}

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DataLoadProgress) => void;
}

export interface DataClient {
  /** The report's rows, every page (its `jsonQuery`; data rules 1-6). */
  loadReport(report: Report, options?: LoadOptions): Promise<LoadAnswer>;
  /** Any query of a deployment. */
  load(
    deploymentId: number,
    query: DataQuery,
    options?: LoadOptions & { reportName?: string },
  ): Promise<LoadAnswer>;
  /** Forgets every token and data URL (the settings changed). */
  forget(): void;
  /**
   * One effect of a `loadProgram` run somewhere else (a worker, which has no transport, keys or
   * tokens of its own): done here as `load` does it, with this client's data URLs, tokens and
   * transport. Its answer is what the program expects back; a failure is a PlatformError.
   */
  runEffect(effect: DataEffect, options?: LoadOptions & { asBytes?: boolean }): Promise<unknown>;
}

interface CommonOptions {
  /** Redacted from every message: the API key. */
  secrets?: readonly (string | null | undefined)[];
  now?: () => number;
  random?: () => number;
  /** Rows asked per page (default and most: 50,000). */
  pageRows?: number;
  /** How long "Continue wait" is asked again (default DATA_WAIT_TIMEOUT_MS). */
  waitTimeoutMs?: number;
  /** Token lifetime asked for, in seconds (default DATA_TOKEN_LIFETIME_S). */
  tokenLifetimeSeconds?: number;
  /**
   * Told each deployment's data URL when the client first reads it, before any request goes there:
   * a host whose transport sends only to known destinations (Apps Script) adds it to them.
   */
  onDataUrl?: (deploymentId: number, base: string) => void;
}

export interface DataClientOptions extends CommonOptions {
  /** Runs the management operations (deployment, token): the platform client of the same settings. */
  platform: Pick<PlatformClient, "execute">;
  /** How data requests reach the data API (the pane's relay-aware transport in Excel). */
  transport: Transport;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Per-request time limit (default DATA_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "the data API";
  }
}

function aborted(): PlatformError {
  return new PlatformError("aborted", "Stopped.");
}

export function createDataClient(options: DataClientOptions): DataClient {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableWait;
  const session = new DataSession(options.tokenLifetimeSeconds, options.onDataUrl);
  const secrets = options.secrets ?? [];
  const timeoutMs = options.requestTimeoutMs ?? DATA_REQUEST_TIMEOUT_MS;

  async function request(
    request: HttpRequest,
    signal?: AbortSignal,
    asBytes = false,
  ): Promise<DataResponse | DataResponseBytes> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await options.transport({ ...request, signal: controller.signal });
      try {
        if (asBytes) {
          const body = await readBodyBytes(response.body, MAX_DATA_ANSWER_BYTES);
          return { status: response.status, headers: response.headers, body };
        }
        const text = await readBodyText(response.body, MAX_DATA_ANSWER_BYTES);
        return { status: response.status, headers: response.headers, text };
      } catch (e) {
        if (isPlatformError(e) && e.kind === "invalid-response")
          throw dataAnswerTooLarge(MAX_DATA_ANSWER_BYTES);
        throw e;
      }
    } catch (e) {
      if (signal?.aborted) throw aborted();
      if (isPlatformError(e)) throw e;
      if (timedOut) {
        throw new PlatformError(
          "timeout",
          `The data API did not answer within ${Math.round(timeoutMs / 1000)} s.`,
        );
      }
      const detail = e instanceof Error ? redact(e.message, [...secrets]) : "";
      throw new PlatformError(
        "network",
        `Could not reach ${hostOf(request.url)}, where the report's data is${detail ? ` (${detail})` : ""}. Check your connection and try again.`,
      );
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  async function load(
    deploymentId: number,
    query: DataQuery,
    o: LoadOptions & { reportName?: string } = {},
  ): Promise<LoadAnswer> {
    const program = loadProgram({
      deploymentId,
      query,
      reportName: o.reportName,
      pageRows: options.pageRows,
      now,
      waitTimeoutMs: options.waitTimeoutMs,
      secrets,
      random: options.random,
    });
    return runProgram(program, (effect) => runEffect(effect, o));
  }

  async function runEffect(
    effect: DataEffect,
    o: LoadOptions & { asBytes?: boolean } = {},
  ): Promise<unknown> {
    if (o.signal?.aborted) throw aborted();
    switch (effect.type) {
      case "data-url":
        return (
          session.knownUrl(effect.deploymentId) ??
          session.keepUrl(
            effect.deploymentId,
            await options.platform.execute(operations.getDeployment(effect.deploymentId), o.signal),
          )
        );
      case "token": {
        const kept = session.knownToken(effect.deploymentId, effect.renew, now());
        if (kept) return kept;
        const issuedAt = now();
        const token = await options.platform.execute(
          operations.issueDataToken(effect.deploymentId, session.tokens.lifetime),
          o.signal,
        );
        return session.keepToken(effect.deploymentId, token, issuedAt);
      }
      case "request":
        return request(effect.request, o.signal, o.asBytes);
      case "sleep":
        return sleep(effect.ms, o.signal).catch(() => {
          throw aborted();
        });
      case "progress":
        o.onProgress?.(effect.progress);
        return undefined;
    }
  }

  return {
    load,
    runEffect,
    // Async so that a report without a query rejects like every other failure.
    loadReport: async (report, o) =>
      load(report.deploymentId, reportQuery(report), { ...o, reportName: report.name }),
    forget: () => session.forget(),
  };
}

// ---------------------------------------------------------------------------------------------
// The synchronous runner, for Apps Script.

export interface SyncDataClient {
  loadReport(report: Report, options?: { onProgress?: (progress: DataLoadProgress) => void }): LoadAnswer;
  load(
    deploymentId: number,
    query: DataQuery,
    options?: { reportName?: string; onProgress?: (progress: DataLoadProgress) => void },
  ): LoadAnswer;
  forget(): void;
}

export interface SyncDataClientOptions extends CommonOptions {
  platform: Pick<SyncPlatformClient, "execute">;
  transport: SyncTransport;
  /** Blocking wait (Utilities.sleep). */
  sleep: (ms: number) => void;
  /**
   * Milliseconds left in this execution (Apps Script stops one at 6 minutes). A request is not
   * started with less than DATA_REQUEST_TIMEOUT_MS left, nor a pause that would leave less: the
   * load stops with a `timeout` error while there is still time to say so.
   */
  remainingMs?: () => number;
}

export function createSyncDataClient(options: SyncDataClientOptions): SyncDataClient {
  const now = options.now ?? Date.now;
  const session = new DataSession(options.tokenLifetimeSeconds, options.onDataUrl);
  const secrets = options.secrets ?? [];

  function outOfTime(): PlatformError {
    return new PlatformError(
      "timeout",
      "Google Sheets stops an add-on's run after 6 minutes, and the report's data had not all arrived: try again; if it persists, ask the report's owner to narrow it.",
    );
  }

  function needTime(ms: number): void {
    if (options.remainingMs && options.remainingMs() < ms) throw outOfTime();
  }

  function load(
    deploymentId: number,
    query: DataQuery,
    o: { reportName?: string; onProgress?: (progress: DataLoadProgress) => void } = {},
  ): LoadAnswer {
    const program = loadProgram({
      deploymentId,
      query,
      reportName: o.reportName,
      pageRows: options.pageRows,
      now,
      waitTimeoutMs: options.waitTimeoutMs,
      secrets,
      random: options.random,
    });
    return runProgramSync(program, (effect) => {
      switch (effect.type) {
        case "data-url":
          return (
            session.knownUrl(effect.deploymentId) ??
            session.keepUrl(
              effect.deploymentId,
              options.platform.execute(operations.getDeployment(effect.deploymentId)),
            )
          );
        case "token": {
          const kept = session.knownToken(effect.deploymentId, effect.renew, now());
          if (kept) return kept;
          const issuedAt = now();
          const token = options.platform.execute(
            operations.issueDataToken(effect.deploymentId, session.tokens.lifetime),
          );
          return session.keepToken(effect.deploymentId, token, issuedAt);
        }
        case "request": {
          needTime(DATA_REQUEST_TIMEOUT_MS);
          let response: ReturnType<SyncTransport>;
          try {
            response = options.transport(effect.request);
          } catch (e) {
            if (isPlatformError(e)) throw e;
            const detail = e instanceof Error ? redact(e.message, [...secrets]) : "";
            throw new PlatformError(
              "network",
              `Could not reach ${hostOf(effect.request.url)}, where the report's data is${detail ? ` (${detail})` : ""}. Try again.`,
            );
          }
          if (response.body.length > MAX_DATA_ANSWER_BYTES) throw dataAnswerTooLarge(MAX_DATA_ANSWER_BYTES);
          return { status: response.status, headers: response.headers, text: response.body };
        }
        case "sleep":
          needTime(effect.ms + DATA_REQUEST_TIMEOUT_MS);
          options.sleep(effect.ms);
          return undefined;
        case "progress":
          o.onProgress?.(effect.progress);
          return undefined;
      }
    });
  }

  return {
    load,
    loadReport: (report, o) =>
      load(report.deploymentId, reportQuery(report), { ...o, reportName: report.name }),
    forget: () => session.forget(),
  };
}
