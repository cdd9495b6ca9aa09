/**
 * The management API the add-in uses: deployments, reports (list, get) and the disconnect (platform-api.md,
 * the disconnect rules). The address rules are the sandbox's own (`placement-rules.ts`), written from the
 * spec; a test runs the same addresses through the core's reading and expects the same answers.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { DisconnectInputSchema, type Report } from "../core/schema.js";
import { storedPlacements, withoutPlacement } from "./placement-rules.js";
import { served } from "./placing.js";
import { describeZodIssues, HttpError, jsonResponse, readJsonBody } from "./respond.js";
import type { SandboxState } from "./state.js";

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

/** A path segment that must be a whole number (deploymentId, reportId). */
export function pathId(text: string, name: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new HttpError(400, `${name} must be a whole number (got "${text}").`);
  return Number(text);
}

export function listDeployments(state: SandboxState, request: Request): Response {
  const token = state.authorizeManagement(request);
  return jsonResponse(200, { items: state.deploymentsFor(token) });
}

function requireDeployment(state: SandboxState, request: Request, deploymentId: number): void {
  state.authorizeManagement(request, deploymentId);
  if (!state.deployments.has(deploymentId)) throw new HttpError(404, `No deployment ${deploymentId}.`);
}

function requireReport(state: SandboxState, deploymentId: number, reportId: number): Report {
  const report = state.reports.get(reportId);
  if (!report || report.deploymentId !== deploymentId) {
    throw new HttpError(404, `No report ${reportId} in deployment ${deploymentId}.`);
  }
  return report;
}

type SortBy = "id" | "name" | "createdAt" | "updatedAt" | "lastViewedAt";
const SORTS: readonly SortBy[] = ["name", "createdAt", "updatedAt", "lastViewedAt"];

/** The value a report is sorted on; `lastViewedAt` is not tracked and sorts like `updatedAt`. */
function sortKey(report: Report, by: SortBy): string | number {
  switch (by) {
    case "id":
      return report.id;
    case "name":
      return report.name.toLowerCase();
    case "createdAt":
      return Date.parse(report.createdAt);
    default:
      return Date.parse(report.updatedAt);
  }
}

function compare(a: [string | number, number], b: [string | number, number]): number {
  if (a[0] < b[0]) return -1;
  if (a[0] > b[0]) return 1;
  return a[1] - b[1];
}

interface Cursor {
  k: string | number;
  id: number;
}

/**
 * Cursors are signed (HMAC-SHA256) with a secret made when the process starts, so the sandbox
 * refuses a cursor it did not issue (docs/sandbox.md, Paging), including a well-formed one made by
 * hand or one another run gave out.
 */
const CURSOR_SECRET = randomBytes(32);

function cursorMac(payload: string): string {
  return createHmac("sha256", CURSOR_SECRET).update(payload).digest("base64url");
}

function encodeCursor(c: Cursor): string {
  const payload = Buffer.from(JSON.stringify(c)).toString("base64url");
  return `${payload}.${cursorMac(payload)}`;
}

function decodeCursor(text: string): Cursor {
  const [payload = "", mac = "", ...rest] = text.split(".");
  const expected = Buffer.from(cursorMac(payload));
  const given = Buffer.from(mac);
  if (rest.length === 0 && given.length === expected.length && timingSafeEqual(given, expected)) {
    try {
      const c = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Cursor;
      if ((typeof c.k === "string" || typeof c.k === "number") && Number.isInteger(c.id)) return c;
    } catch {
      // Falls through to the 400.
    }
  }
  throw new HttpError(400, "after is not a cursor this service gave out.");
}

function intParam(params: URLSearchParams, name: string): number | undefined {
  const text = params.get(name);
  if (text === null || text === "") return undefined;
  if (!/^-?\d{1,15}$/.test(text)) throw new HttpError(400, `${name} must be a whole number (got "${text}").`);
  return Number(text);
}

/**
 * GET /deployments/{id}/reports: filters `externalWorkbookId` (a report is listed when any of its
 * placements is in that workbook), `search` (case-insensitive, part of the name), `folderId`,
 * `workbookId`; order `sortBy` + `sortDirection` (default: by id, ascending); cursor paging
 * `first` (default 50, at most 100: larger values read as 100) and `after`. The cursor holds the
 * sort value and id of the last item, so paging stays exact when reports leave the filter.
 */
export function listReports(
  state: SandboxState,
  request: Request,
  deploymentId: number,
  params: URLSearchParams,
): Response {
  requireDeployment(state, request, deploymentId);
  const first = intParam(params, "first") ?? DEFAULT_PAGE_SIZE;
  if (first < 1) throw new HttpError(400, `first must be at least 1 (got ${first}).`);
  const pageSize = Math.min(first, MAX_PAGE_SIZE);
  const sortParam = params.get("sortBy");
  if (sortParam && !SORTS.includes(sortParam as SortBy)) {
    throw new HttpError(400, `sortBy must be one of ${SORTS.join(", ")} (got "${sortParam}").`);
  }
  const sortBy: SortBy = (sortParam as SortBy | null) || "id";
  const direction = (params.get("sortDirection") || "ASC").toUpperCase();
  if (direction !== "ASC" && direction !== "DESC") {
    throw new HttpError(400, `sortDirection must be ASC or DESC (got "${params.get("sortDirection")}").`);
  }
  const sign = direction === "ASC" ? 1 : -1;
  const after = params.get("after");
  const cursor = after ? decodeCursor(after) : null;
  const workbook = params.get("externalWorkbookId");
  const search = params.get("search")?.trim().toLowerCase();
  const folderId = intParam(params, "folderId");
  const workbookId = intParam(params, "workbookId");

  const matching = [...state.reports.values()]
    .filter((r) => r.deploymentId === deploymentId)
    .filter((r) => !workbook || storedPlacements(r).some((p) => p.workbookId === workbook))
    .filter((r) => !search || r.name.toLowerCase().includes(search))
    .filter((r) => folderId === undefined || r.folderId === folderId)
    .filter((r) => workbookId === undefined || r.workbookId === workbookId)
    .map((r) => ({ report: r, key: [sortKey(r, sortBy), r.id] as [string | number, number] }))
    .sort((a, b) => sign * compare(a.key, b.key))
    .filter((e) => !cursor || sign * compare(e.key, [cursor.k, cursor.id]) > 0);

  const page = matching.slice(0, pageSize);
  const last = page.at(-1);
  return jsonResponse(200, {
    items: page.map((e) => served(e.report)),
    pageInfo: {
      hasNextPage: matching.length > page.length,
      endCursor: last ? encodeCursor({ k: last.key[0], id: last.report.id }) : null,
    },
  });
}

export function getReport(
  state: SandboxState,
  request: Request,
  deploymentId: number,
  reportId: number,
): Response {
  requireDeployment(state, request, deploymentId);
  return jsonResponse(200, served(requireReport(state, deploymentId, reportId)));
}

/**
 * DELETE connect-workbook (the disconnect rules). The body is optional: empty means `{}`, which addresses
 * nothing (200, unchanged). Fields of the wrong type answer 400; unknown fields are ignored.
 * Everything is checked before the one synchronous change, so an error changes nothing.
 */
export async function disconnect(
  state: SandboxState,
  request: Request,
  deploymentId: number,
  reportId: number,
): Promise<Response> {
  requireDeployment(state, request, deploymentId);
  requireReport(state, deploymentId, reportId);
  const body = await readJsonBody(request);
  const parsed = DisconnectInputSchema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new HttpError(400, `Invalid disconnect input: ${describeZodIssues(parsed.error.issues)}`);
  }
  // Read again after the body arrived: other requests may have changed the report meanwhile.
  const current = requireReport(state, deploymentId, reportId);
  const after = withoutPlacement(current, parsed.data);
  if (after !== current) state.reports.set(reportId, after);
  return jsonResponse(200, served(after));
}
