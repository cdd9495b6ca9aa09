/**
 * The platform's operations, as data: each is a plain description (method, path, credential, how to
 * read the answer) that http.ts turns into a request and reads the answer of, and either runner in
 * client.ts executes. Nothing here does I/O.
 */

import { type ScimListResponse, ScimListResponseSchema } from "./directory.js";
import { invalidResponse, PlatformError } from "./errors.js";
import { isJsonObject } from "./json-object.js";
import { built } from "./lazy-schema.js";
import {
  type ConnectWorkbookInput,
  ConnectWorkbookInputSchema,
  type Deployment,
  DeploymentSchema,
  type DisconnectInput,
  DisconnectInputSchema,
  type RefreshInput,
  RefreshInputSchema,
  type Report,
  safeParseTolerantReport,
} from "./schema.js";
import type { HttpMethod } from "./transport.js";
import * as z from "./zod.js";

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

/** Reads with `schema()`, built when the first answer is read (lazy-schema.ts). */
function parseWith<S extends z.ZodMiniType>(schema: () => S, what: string) {
  return (json: unknown): z.infer<S> => {
    const result = schema().safeParse(json);
    if (!result.success) throw invalidResponse(what, describeIssues(result.error));
    return result.data;
  };
}

/** A report as the service answered it, read tolerantly (schema.ts, `safeParseTolerantReport`). */
function readReport(json: unknown): Report {
  const result = safeParseTolerantReport(json);
  if (!result.success) throw invalidResponse("a report", describeIssues(result.error));
  return result.data;
}

/** "externalWorkbookPlacements.0.syncStatus: expected string" — the first few issues, with paths. */
function describeIssues(error: z.ZodError): string {
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

/** An input checked before it is sent: a bad one is the caller's mistake, named, and nothing goes out. */
function checked<S extends z.ZodMiniType>(schema: S, input: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new PlatformError("bad-request", `${what} is not valid: ${describeIssues(parsed.error)}.`);
  }
  return parsed.data;
}

const deploymentListSchema = built(() => {
  const list = z.array(DeploymentSchema);
  return z.union([
    list,
    z.pipe(
      z.looseObject({
        items: z.optional(list),
        data: z.optional(list),
        deployments: z.optional(list),
      }),
      z.transform((v: { items?: Deployment[]; data?: Deployment[]; deployments?: Deployment[] }, ctx) => {
        const found = v.items ?? v.deployments ?? v.data;
        if (!found) {
          ctx.issues.push({ code: "custom", message: "expected a list of deployments", input: v });
          return z.NEVER;
        }
        return found;
      }),
    ),
  ]);
});

const dataTokenSchema = built(() => z.looseObject({ cubeApiToken: z.string().check(z.minLength(1)) }));

const reportPageSchema = built(() =>
  z.looseObject({
    items: z.optional(z.array(z.unknown())),
    // Deprecated name of `items` on the real service.
    data: z.optional(z.array(z.unknown())),
    pageInfo: z.nullish(
      z.looseObject({ hasNextPage: z.optional(z.boolean()), endCursor: z.nullish(z.string()) }),
    ),
  }),
);

/**
 * A page of reports of the plain shape the service sends, read by hand for what `read` uses of it
 * (the items, the deprecated `data`, and the page info), as reportPageSchema reads them; undefined
 * for anything else, which zod reads (and names what is wrong). The first list reads a page before
 * it paints, and zod's first parse on a cold page costs more than the envelope is worth
 * (test/core/report-page.read.test.ts compares both readings).
 */
function plainReportPage(json: unknown):
  | {
      items?: unknown[];
      data?: unknown[];
      pageInfo?: { hasNextPage?: boolean; endCursor?: string | null } | null;
    }
  | undefined {
  if (!isJsonObject(json)) return undefined;
  const { items, data, pageInfo } = json;
  if (items !== undefined && !Array.isArray(items)) return undefined;
  if (data !== undefined && !Array.isArray(data)) return undefined;
  if (pageInfo === undefined || pageInfo === null) return { items, data, pageInfo };
  if (!isJsonObject(pageInfo)) return undefined;
  const { hasNextPage, endCursor } = pageInfo;
  if (hasNextPage !== undefined && typeof hasNextPage !== "boolean") return undefined;
  if (endCursor !== undefined && endCursor !== null && typeof endCursor !== "string") return undefined;
  return { items, data, pageInfo: { hasNextPage, endCursor } };
}

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
      read: parseWith(deploymentListSchema, "a list of deployments"),
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
        const page = plainReportPage(json) ?? parseWith(reportPageSchema, "a list of reports")(json);
        const items = page.items ?? page.data;
        if (!items) throw invalidResponse("a list of reports", "items: missing");
        const reports: Report[] = [];
        const problems: string[] = [];
        // One unreadable report must not hide the others: each item is read on its own.
        items.forEach((item, index) => {
          const r = safeParseTolerantReport(item);
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
      read: readReport,
    };
  },

  getDeployment(deploymentId: number): Operation<Deployment> {
    positiveInt(deploymentId, "The deployment id");
    return {
      method: "GET",
      path: `/api/v1/deployments/${deploymentId}`,
      credential: "api-key",
      action: "read the deployment",
      deploymentId,
      read: parseWith(() => DeploymentSchema, "a deployment"),
    };
  },

  /**
   * A token for the deployment's data API (data rule 1): asked with the management key, answered as
   * `{cubeApiToken}`. It carries the caller's security context, so row-level security applies to
   * what it loads. Never stored (docs/security.md).
   */
  issueDataToken(deploymentId: number, expiresInSeconds: number): Operation<string> {
    positiveInt(deploymentId, "The deployment id");
    return {
      method: "POST",
      path: `/api/v1/deployments/${deploymentId}/token`,
      body: { expiresIn: expiresInSeconds },
      credential: "api-key",
      action: "get a token for the report's data",
      deploymentId,
      read: (json) => parseWith(dataTokenSchema, "a data token")(json).cubeApiToken,
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
      read: readReport,
    };
  },

  /**
   * Records a refresh of one placement (platform-api.md, "Recording a refresh"): addressed as for a
   * disconnect, with the checksum of the cells written. Answers the Report.
   */
  recordRefresh(deploymentId: number, reportId: number, input: RefreshInput): Operation<Report> {
    positiveInt(deploymentId, "The deployment id");
    positiveInt(reportId, "The report id");
    return {
      method: "PUT",
      path: `/api/v1/deployments/${deploymentId}/reports/${reportId}/refresh`,
      body: checked(RefreshInputSchema, input, "The refresh record"),
      credential: "api-key",
      action: "record the refresh",
      deploymentId,
      read: readReport,
    };
  },

  /**
   * Places a report, or corrects where a placement is (`addressOnly`): platform-api.md, "Placing a
   * report". Answers the Report.
   */
  connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: ConnectWorkbookInput,
  ): Operation<Report> {
    positiveInt(deploymentId, "The deployment id");
    positiveInt(reportId, "The report id");
    return {
      method: "PUT",
      path: `/api/v1/deployments/${deploymentId}/reports/${reportId}/connect-workbook`,
      body: checked(ConnectWorkbookInputSchema, input, "The placement"),
      credential: "api-key",
      action: "place the report",
      deploymentId,
      read: readReport,
    };
  },

  listScimUsers(opts: { count?: number; startIndex?: number } = {}): Operation<ScimListResponse> {
    return {
      method: "GET",
      path: "/api/scim/v2/Users",
      query: { count: opts.count, startIndex: opts.startIndex },
      credential: "scim-token",
      action: "list users",
      read: parseWith(() => ScimListResponseSchema, "a list of users"),
    };
  },
};
