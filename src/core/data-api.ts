/**
 * The deployment's data API (platform-api.md, "The data API"), sans I/O: the report's query, the
 * load request, what each answer means ("Continue wait", data, an error), the pages a query is
 * loaded in, and the caps. Both runners in data-client.ts (async for the pane and the Excel command,
 * sync for Apps Script) execute these descriptions; neither re-decides anything written here.
 *
 * The numbered "data rules" cited here and in the tests are those of docs/platform-api.md.
 */
import { errorFromStatus, invalidResponse, PlatformError } from "./errors.js";
import {
  DEFAULT_DATA_QUERY_LIMIT,
  formatBytes,
  formatCount,
  MAX_DATA_CELLS,
  MAX_DATA_PAGE_ROWS,
  MAX_DATA_ROWS,
} from "./limits.js";
import type { Report } from "./schema.js";
import { type HttpRequest, requireSecureUrl } from "./transport.js";

/** A query of the data API (Cube's REST query): `measures`, `dimensions`, `timeDimensions`, ... */
export type DataQuery = Record<string, unknown> & {
  limit?: number;
  offset?: number;
  total?: boolean;
};

/** One member's annotation: how the service names and types it. */
export interface MemberAnnotation {
  title?: string;
  shortTitle?: string;
  type?: string;
  format?: unknown;
  [extra: string]: unknown;
}

export interface DataAnnotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  segments: Record<string, MemberAnnotation>;
  timeDimensions: Record<string, MemberAnnotation>;
}

/** A data row: values by member name; the service sends numbers as strings (data rule 3). */
export type DataRow = Record<string, unknown>;

/** What a load answers, every page's rows together. */
export interface LoadAnswer {
  query: DataQuery;
  data: DataRow[];
  annotation: DataAnnotation;
  /** When the service last refreshed the data it answered from (ISO), if it said. */
  lastRefreshTime: string | null;
  /** The row count without limit and offset, when asked (`total: true`). */
  total: number | null;
}

/** The path of the load call under a deployment's data URL (data rule 2). */
export const LOAD_PATH = "/cubejs-api/v1/load";

/** The answer that means "still running: ask again" (data rule 4). */
export const CONTINUE_WAIT = "Continue wait";

/**
 * The report's query, parsed from `jsonQuery` (a JSON string of the data API's query). A report
 * without one, or with one that is not a JSON object, cannot be loaded: a clear error, nothing sent.
 */
export function reportQuery(report: Pick<Report, "name" | "jsonQuery">): DataQuery {
  const text = report.jsonQuery;
  const cannot = (why: string) =>
    new PlatformError(
      "bad-request",
      `The report "${report.name}" cannot be loaded into the sheet: ${why}. Ask its owner to save it again on the Reporting Platform.`,
    );
  if (text == null || text.trim() === "") throw cannot("it has no query");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw cannot("its query is not valid JSON");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw cannot("its query is not an object");
  const query = value as DataQuery;
  for (const name of ["limit", "offset"] as const) {
    const n = query[name];
    if (n !== undefined && n !== null && !(Number.isSafeInteger(n) && (n as number) >= 0)) {
      throw cannot(`its query's ${name} is not a whole number`);
    }
  }
  return query;
}

/**
 * The deployment's data URL, checked: HTTPS only (auth rule 1; http for loopback), no credentials
 * in it; kept with its path prefix, without a trailing slash.
 */
export function dataApiBase(deploymentUrl: string | null | undefined, deploymentId: number): string {
  if (!deploymentUrl) {
    throw new PlatformError(
      "invalid-response",
      `The service did not say where deployment ${deploymentId}'s data is (no deploymentUrl). Ask an admin to check the deployment.`,
    );
  }
  const url = requireSecureUrl(deploymentUrl, `Deployment ${deploymentId}'s data URL`);
  if (url.search || url.hash) {
    throw new PlatformError(
      "invalid-response",
      `Deployment ${deploymentId}'s data URL carries a query or fragment (${url.origin}…): the add-in does not send data requests there.`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * One page of a load: the request (data rule 2: `Authorization: <token>`, no "Bearer"; the body
 * `{"query": ...}`).
 */
export function buildLoadRequest(base: string, token: string, query: DataQuery): HttpRequest {
  return {
    method: "POST",
    url: `${base}${LOAD_PATH}`,
    headers: {
      Accept: "application/json",
      "Content-Type": "application/json",
      Authorization: token,
    },
    body: JSON.stringify({ query }),
    target: "data-api",
  };
}

/** The pages a query is loaded in (data rule 6): offsets and limits, as the runner asks them. */
export interface PagePlan {
  /** The rows the report's query asks for (its `limit`, else the service's default of 10,000). */
  wanted: number;
  /** Where the query starts (its `offset`, else 0). */
  offset: number;
  /** Rows asked per request: at most MAX_DATA_PAGE_ROWS (the service refuses more). */
  pageRows: number;
}

export function planPages(query: DataQuery, pageRows = MAX_DATA_PAGE_ROWS): PagePlan {
  const wanted = typeof query.limit === "number" ? query.limit : DEFAULT_DATA_QUERY_LIMIT;
  const offset = typeof query.offset === "number" ? query.offset : 0;
  return { wanted, offset, pageRows: Math.max(1, Math.min(pageRows, MAX_DATA_PAGE_ROWS)) };
}

/** How much the previous page asked for and got. */
export interface PageOutcome {
  asked: number;
  got: number;
}

/**
 * The query of the next page, or null when the load is complete: after `loaded` rows, or when the
 * previous page came back short (the data ran out). The first page asks for `total` so progress
 * can say "N of M rows".
 */
export function nextPageQuery(
  query: DataQuery,
  plan: PagePlan,
  loaded: number,
  previous: PageOutcome | null,
): DataQuery | null {
  if (loaded >= plan.wanted) return null;
  if (previous && previous.got < previous.asked) return null;
  const { total: _total, ...rest } = query;
  const page: DataQuery = {
    ...rest,
    limit: Math.min(plan.pageRows, plan.wanted - loaded),
    offset: plan.offset + loaded,
  };
  if (loaded === 0) page.total = true;
  return page;
}

/** What one answer of the load call means. */
export type LoadStep = { kind: "continue-wait" } | { kind: "page"; page: LoadAnswer };

export interface DataErrorContext {
  deploymentId: number;
  reportName?: string;
  /** Redacted from every message. */
  secrets: readonly (string | null | undefined)[];
}

/** A 403 of the data API: the token is missing, invalid or expired, or the caller may not read. */
export function isTokenRefusal(error: unknown): boolean {
  return error instanceof PlatformError && error.kind === "forbidden" && error.status === 403;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readAnnotationGroup(value: unknown, name: string): Record<string, MemberAnnotation> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalidResponse("report data", `annotation.${name}: expected an object`);
  for (const [member, a] of Object.entries(value)) {
    if (!isRecord(a))
      throw invalidResponse("report data", `annotation.${name}.${member}: expected an object`);
  }
  return value as Record<string, MemberAnnotation>;
}

/**
 * Reads one answer of the load call (data rules 3-5): "Continue wait" (200 with that error), a
 * page of data, or the PlatformError for the status. The rows are checked to be objects once, here;
 * their values are the grid's to read.
 */
export function readLoadAnswer(
  status: number,
  headers: Record<string, string>,
  text: string,
  ctx: DataErrorContext,
): LoadStep {
  if (status < 200 || status > 299) {
    const base = errorFromStatus(status, text, headers, {
      action: ctx.reportName ? `load the data of "${ctx.reportName}"` : "load the report's data",
      deploymentId: ctx.deploymentId,
      secrets: ctx.secrets,
    });
    if (status === 403) {
      return throwError(
        new PlatformError(
          "forbidden",
          `The data API refused access${ctx.reportName ? ` to "${ctx.reportName}"` : ""} (403): your key may not read this report's data in deployment ${ctx.deploymentId}.${base.serviceMessage ? ` The service said: "${base.serviceMessage}".` : ""} Ask an admin for access.`,
          { status, serviceMessage: base.serviceMessage },
        ),
      );
    }
    if (status === 400) {
      return throwError(
        new PlatformError(
          "bad-request",
          `The service refused the report's query (400)${base.serviceMessage ? `: "${base.serviceMessage}"` : ""}. Ask the report's owner to check it on the Reporting Platform.`,
          { status, serviceMessage: base.serviceMessage },
        ),
      );
    }
    throw base;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidResponse("report data", "not JSON");
  }
  if (!isRecord(json)) throw invalidResponse("report data", "expected an object");
  if (json.error !== undefined) {
    if (json.error === CONTINUE_WAIT) return { kind: "continue-wait" };
    // A 200 that carries an error is still an error (the data API's own shape).
    const message = typeof json.error === "string" ? json.error.slice(0, 500) : "an error without text";
    throw new PlatformError("server", `The data API could not run the report's query: "${message}".`, {
      serviceMessage: message,
    });
  }
  const data = json.data;
  if (!Array.isArray(data)) throw invalidResponse("report data", "data: expected a list of rows");
  for (let i = 0; i < data.length; i++) {
    if (!isRecord(data[i])) throw invalidResponse("report data", `data.${i}: expected an object`);
  }
  if (!isRecord(json.annotation)) throw invalidResponse("report data", "annotation: missing");
  const a = json.annotation;
  const annotation: DataAnnotation = {
    measures: readAnnotationGroup(a.measures, "measures"),
    dimensions: readAnnotationGroup(a.dimensions, "dimensions"),
    segments: readAnnotationGroup(a.segments, "segments"),
    timeDimensions: readAnnotationGroup(a.timeDimensions, "timeDimensions"),
  };
  const total = typeof json.total === "number" && Number.isFinite(json.total) ? json.total : null;
  return {
    kind: "page",
    page: {
      query: isRecord(json.query) ? (json.query as DataQuery) : {},
      data: data as DataRow[],
      annotation,
      lastRefreshTime: typeof json.lastRefreshTime === "string" ? json.lastRefreshTime : null,
      total,
    },
  };
}

function throwError(error: PlatformError): never {
  throw error;
}

/** The number of members a row of this query has (columns of its flat grid), at least 1. */
function membersOf(query: DataQuery): number {
  const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  return Math.max(1, count(query.dimensions) + count(query.measures) + count(query.timeDimensions));
}

/**
 * Adds a page to what was loaded, with the caps (rows, cells): a page larger than asked is the
 * service's mistake; a result past a cap is refused with a message that names it.
 */
export function addPage(into: LoadAnswer | null, page: LoadAnswer, asked: DataQuery): LoadAnswer {
  const limit = typeof asked.limit === "number" ? asked.limit : Number.POSITIVE_INFINITY;
  if (page.data.length > limit) {
    throw invalidResponse(
      "report data",
      `${formatCount(page.data.length)} rows where at most ${formatCount(limit)} were asked`,
    );
  }
  const rows = (into?.data.length ?? 0) + page.data.length;
  checkDataSize(rows, asked);
  if (!into) return { ...page, data: page.data.slice() };
  // Push in slices: spreading 50,000 arguments at once can overflow the stack.
  for (let i = 0; i < page.data.length; i += 10_000) into.data.push(...page.data.slice(i, i + 10_000));
  return into;
}

/** Refuses a result past MAX_DATA_ROWS or MAX_DATA_CELLS, before more of it is loaded. */
export function checkDataSize(rows: number, query: DataQuery): void {
  if (rows > MAX_DATA_ROWS) {
    throw new PlatformError(
      "bad-request",
      `This report has more than ${formatCount(MAX_DATA_ROWS)} rows, the most a sheet can take: it was not loaded. Ask its owner to narrow it with a filter or a limit.`,
    );
  }
  const cells = rows * membersOf(query);
  if (cells > MAX_DATA_CELLS) {
    throw new PlatformError(
      "bad-request",
      `This report has more than ${formatCount(MAX_DATA_CELLS)} cells, the add-in's limit for one placement: it was not loaded. Ask its owner to narrow it with a filter or a limit.`,
    );
  }
}

/** The size a total announced by the first page would reach, checked before the other pages. */
export function checkAnnouncedTotal(total: number | null, plan: PagePlan, query: DataQuery): void {
  if (total === null) return;
  checkDataSize(Math.min(Math.max(0, total - plan.offset), plan.wanted), query);
}

/** An answer past the byte cap of one page. */
export function dataAnswerTooLarge(maxBytes: number): PlatformError {
  return new PlatformError(
    "invalid-response",
    `One page of the report's data is larger than ${formatBytes(maxBytes)}, the add-in's limit: it was not read. Ask the report's owner to narrow it.`,
  );
}
