/**
 * Placing and refreshing (platform-api.md part C, "Recording a refresh" and "Placing a report"), the
 * service's side: `PUT .../refresh` and `PUT .../connect-workbook`, which change one placement and
 * never the report's definition, and the sandbox-only `POST /sandbox/reports/{id}/change-query`,
 * which changes the definition so that placements turn CHANGED while the sandbox runs.
 *
 * A placement's `syncStatus` is always served as its checksums say (part C): UP_TO_DATE when its
 * `queryChecksum` equals the report's `currentQueryChecksum`, CHANGED when they differ, UNKNOWN when
 * either is missing.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { normalizeCell, parseLocation } from "../core/location.js";
import type { Report, ReportPlacement } from "../core/schema.js";
import { addressedIndexes, type PlacementAddress, storedPlacements } from "./placement-rules.js";
import { checkMembers, QueryError, readQuery } from "./query.js";
import { describeZodIssues, HttpError, jsonResponse, readJsonBody } from "./respond.js";
import { type ResultChecksum, ResultChecksumSchema } from "./seed.js";
import { toSql } from "./sql.js";
import type { SandboxState } from "./state.js";

/** A placement as the sandbox stores it: the Report's, plus the `resultChecksum` the service keeps. */
export type StoredPlacement = ReportPlacement & { resultChecksum?: ResultChecksum | null };

const Text = z.string().nullable().optional();

const AddressFields = {
  placementId: Text,
  externalWorkbookId: Text,
  sheetName: Text,
  anchorCell: Text,
  resultLocation: Text,
  sheetId: Text,
};

const Cell = z
  .string()
  .refine((t) => normalizeCell(t) !== null, "must be a cell such as F20")
  .nullable()
  .optional();

const RefreshInput = z.object({
  ...AddressFields,
  resultChecksum: ResultChecksumSchema.nullable().optional(),
  /** Inferred: the extent of the cells just written, recorded with the refresh. */
  endResultCell: Cell,
});

const ConnectInput = z.object({
  externalWorkbookId: z.string().min(1),
  resultLocation: z.string().min(1),
  placementId: z.string().min(1).nullable().optional(),
  sheetId: Text,
  sheetName: Text,
  anchorCell: Text,
  endResultCell: Cell,
  workbookName: Text,
  host: z.enum(["GOOGLE_SHEETS", "EXCEL"]).nullable().optional(),
  resultChecksum: ResultChecksumSchema.nullable().optional(),
  addressOnly: z.boolean().nullable().optional(),
});

/** The sync status a placement's checksums give (part C, inferred from the field pairs). */
export function derivedStatus(report: Report, p: ReportPlacement): "UP_TO_DATE" | "CHANGED" | "UNKNOWN" {
  if (!p.queryChecksum || !report.currentQueryChecksum) return "UNKNOWN";
  return p.queryChecksum === report.currentQueryChecksum ? "UP_TO_DATE" : "CHANGED";
}

/** The report as served: each stored placement's `syncStatus` as its checksums say. */
export function served(report: Report): Report {
  if (!report.externalWorkbookPlacements) return report;
  return {
    ...report,
    externalWorkbookPlacements: report.externalWorkbookPlacements.map((p) => ({
      ...p,
      syncStatus: derivedStatus(report, p),
    })),
  };
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    const message = `Invalid ${what} input: ${describeZodIssues(parsed.error.issues)}`;
    throw new HttpError(400, message, { body: { error: message } });
  }
  return parsed.data;
}

function requireReport(
  state: SandboxState,
  request: Request,
  deploymentId: number,
  reportId: number,
): Report {
  state.authorizeManagement(request, deploymentId);
  if (!state.deployments.has(deploymentId)) throw new HttpError(404, `No deployment ${deploymentId}.`);
  const report = state.reports.get(reportId);
  if (!report || report.deploymentId !== deploymentId) {
    throw new HttpError(404, `No report ${reportId} in deployment ${deploymentId}.`);
  }
  return report;
}

/** Who acts: the key's `userId`, or the report's owner when the key names none. */
function actor(state: SandboxState, request: Request, report: Report): number {
  const key = state.authorizeManagement(request);
  return state.keys.get(key)?.userId ?? report.userId;
}

/**
 * The report with `placements` as its list. A report that kept its one placement in the older
 * top-level fields gets the list (the top-level fields stay as they were): the refresh or placing
 * needs somewhere to be recorded.
 */
function withPlacements(report: Report, placements: StoredPlacement[]): Report {
  return { ...report, externalWorkbookPlacements: placements };
}

/** Marks a placement as just written: refreshed now by `userId`, at the current query, with `checksum`. */
function markWritten(
  report: Report,
  p: StoredPlacement,
  now: string,
  userId: number,
  checksum: ResultChecksum | null | undefined,
): StoredPlacement {
  return {
    ...p,
    refreshedAt: now,
    refreshedByUserId: userId,
    queryChecksum: report.currentQueryChecksum ?? null,
    syncStatus: report.currentQueryChecksum ? "UP_TO_DATE" : "UNKNOWN",
    // A refresh without a checksum rewrote the cells: the old fingerprint no longer describes them.
    resultChecksum: checksum ?? null,
  };
}

export class Placing {
  private changes = 0;

  constructor(
    private readonly state: SandboxState,
    private readonly now: () => number,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  /**
   * PUT .../refresh: records that the add-in wrote the cells of the placement the body addresses (as
   * for disconnect). No match, or an address naming two placements: 200 with the report unchanged.
   */
  async refresh(request: Request, deploymentId: number, reportId: number): Promise<Response> {
    requireReport(this.state, request, deploymentId, reportId);
    const input = parseBody(RefreshInput, await readJsonBody(request), "refresh");
    // Read again after the body arrived: other requests may have changed the report meanwhile.
    const report = requireReport(this.state, request, deploymentId, reportId);
    const placements = storedPlacements(report) as StoredPlacement[];
    const found = addressedIndexes(placements, input as PlacementAddress);
    if (found.length !== 1) return jsonResponse(200, served(report));
    const index = found[0]!;
    const userId = actor(this.state, request, report);
    const updated = placements.map((p, i) => {
      if (i !== index) return p;
      const written = markWritten(report, p, this.iso(), userId, input.resultChecksum);
      return input.endResultCell
        ? { ...written, endResultCell: normalizeCell(input.endResultCell) }
        : written;
    });
    const after = withPlacements(report, updated);
    this.state.reports.set(reportId, after);
    return jsonResponse(200, served(after));
  }

  /**
   * PUT .../connect-workbook: places the report (a new placement) or updates the placement named by
   * `placementId` or found at the same workbook + sheet + anchor (`connectPlacement`).
   */
  async connect(request: Request, deploymentId: number, reportId: number): Promise<Response> {
    requireReport(this.state, request, deploymentId, reportId);
    const body = await readJsonBody(request);
    const report = requireReport(this.state, request, deploymentId, reportId);
    const after = connectPlacement(report, body, {
      now: this.iso(),
      userId: actor(this.state, request, report),
    });
    this.state.reports.set(reportId, after);
    return jsonResponse(200, served(after));
  }

  /**
   * POST /sandbox/reports/{id}/change-query `{jsonQuery?}` (sandbox only): a new `currentQueryChecksum`
   * (and the new query, checked against the deployment's cubes, with its SQL), so every placement
   * written at another checksum is CHANGED from now on. Needs a management key with access to the
   * report's deployment.
   */
  async changeQuery(request: Request, reportId: number): Promise<Response> {
    this.state.authorizeManagement(request);
    const known = this.state.reports.get(reportId);
    if (!known) throw new HttpError(404, `No report ${reportId}.`);
    this.state.authorizeManagement(request, known.deploymentId);
    const body = await readJsonBody(request);
    if (body !== undefined && body !== null && (typeof body !== "object" || Array.isArray(body))) {
      throw new HttpError(400, "Send a JSON object {jsonQuery?} or no body.");
    }
    const raw = (body as { jsonQuery?: unknown } | undefined)?.jsonQuery;
    const report = this.state.reports.get(reportId)!;
    let definition: Partial<Report> = {};
    if (raw !== undefined && raw !== null) {
      try {
        const query = readQuery(raw);
        checkMembers(this.state.cubes.get(report.deploymentId) ?? [], query);
        definition = {
          jsonQuery: typeof raw === "string" ? raw : JSON.stringify(raw),
          sqlQuery: toSql(query),
        };
      } catch (e) {
        if (e instanceof QueryError)
          throw new HttpError(400, `jsonQuery: ${e.message}`, { body: { error: e.message } });
        throw e;
      }
    }
    this.changes += 1;
    const after: Report = {
      ...report,
      ...definition,
      currentQueryChecksum: `q${reportId}-changed-${this.changes}-${randomBytes(3).toString("hex")}`,
      version: (report.version ?? 0) + 1,
      updatedAt: this.iso(),
    };
    const stored = served(after);
    this.state.reports.set(reportId, stored);
    return jsonResponse(200, stored);
  }
}

/**
 * The service's side of `PUT .../connect-workbook` on one report, without HTTP (the pane's test
 * service applies it too): a body without `placementId` creates a placement, unless one is stored
 * at the same workbook + sheet + anchor, which is updated; `placementId` updates that placement (404
 * when there is none); `addressOnly` (with `placementId`) corrects the address and keeps the
 * fingerprint and refresh fields. Anything else records the placement as written now. Throws
 * HttpError (400, 404, 409) for what the service refuses. `newId`: the id a new placement gets.
 */
export function connectPlacement(
  report: Report,
  body: unknown,
  at: { now: string; userId: number; newId?: () => string },
): Report {
  const input = parseBody(ConnectInput, body, "connect-workbook");
  const location = parseLocation(input.resultLocation);
  const sheetName = input.sheetName || location?.sheetName;
  const anchorCell = input.anchorCell ? normalizeCell(input.anchorCell) : location?.start;
  if (!sheetName || !anchorCell) {
    const message =
      "Invalid connect-workbook input: resultLocation must name the sheet and the anchor ('Sheet 1'!B2), or send sheetName and anchorCell.";
    throw new HttpError(400, message, { body: { error: message } });
  }
  if (input.addressOnly && !input.placementId) {
    const message =
      "Invalid connect-workbook input: addressOnly needs placementId (the placement whose address changes).";
    throw new HttpError(400, message, { body: { error: message } });
  }
  const placements = [...(storedPlacements(report) as StoredPlacement[])];
  let index: number;
  if (input.placementId) {
    index = placements.findIndex((p) => p.id === input.placementId);
    if (index < 0) throw new HttpError(404, `No placement "${input.placementId}" in report ${report.id}.`);
  } else {
    const found = addressedIndexes(placements, {
      externalWorkbookId: input.externalWorkbookId,
      sheetName,
      anchorCell,
      sheetId: input.sheetId,
    });
    if (found.length > 1) {
      throw new HttpError(
        409,
        "This address names more than one placement of the report (same sheet name and anchor under different sheet ids): send placementId or sheetId.",
      );
    }
    index = found[0] ?? -1;
  }
  const { now, userId } = at;
  const address = {
    resultLocation: input.resultLocation,
    sheetName,
    anchorCell,
    ...(input.sheetId !== undefined ? { sheetId: input.sheetId } : {}),
    ...(input.endResultCell ? { endResultCell: normalizeCell(input.endResultCell) } : {}),
    ...(input.workbookName !== undefined ? { workbookName: input.workbookName } : {}),
  };
  let placement: StoredPlacement;
  if (index < 0) {
    placement = {
      id: at.newId?.() ?? `plc-${randomBytes(6).toString("hex")}`,
      workbookId: input.externalWorkbookId,
      ...address,
      host: input.host ?? null,
      placedAt: now,
      placedByUserId: userId,
    };
  } else {
    placement = { ...placements[index]!, ...address };
    if (!input.addressOnly) {
      placement.workbookId = input.externalWorkbookId;
      if (input.host !== undefined) placement.host = input.host;
    }
  }
  if (!input.addressOnly) placement = markWritten(report, placement, now, userId, input.resultChecksum);
  if (index < 0) placements.push(placement);
  else placements[index] = placement;
  return withPlacements(report, placements);
}
