/**
 * A scripted tenant for the built Apps Script server (dist/sheets/Code.js): two reports placed in
 * one spreadsheet, the answers UrlFetchApp gets for each request, and a world with every setting
 * saved. Shared by test/hosts/sheets/server/main*.test.ts.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Report } from "../../src/core/schema.js";
import { connectPlacement } from "../../src/sandbox/placing.js";
import {
  callOk,
  DIST,
  type FetchAnswer,
  type FetchedRequest,
  loadAppsScript,
  type World,
} from "./apps-script.js";

export const SPREADSHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789sheets";
export const TENANT = "https://acme.reporting.example";
export const CHAT_URL = "https://ai.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state";
export const API_KEY = "sk-live-4f9a1c2b7e";
export const AGENT_KEY = "ak-live-88d1e0c3aa";
export const SCIM_TOKEN = "scim-live-01b2c3d4e5";
const SECRETS = [API_KEY, AGENT_KEY, SCIM_TOKEN];
/** Where the menu's "Disconnect report here" counts its changes: the user's properties, per spreadsheet. */
export const EDITS_KEY = `reportingPlatform.edits.${SPREADSHEET_ID}`;
/** Each setting is one user property: `reportingPlatform.settings.<field>`. */
export const SETTINGS = "reportingPlatform.settings.";

export const SHEETS = [
  { id: 0, name: "Summary", cell: "A1" },
  { id: 123456789, name: "Q1 Sales", cell: "C5" },
];

const owner = { id: 11, email: "ann.lee@example.com", firstName: "Ann", picture: null };

function report(id: number, name: string, placements: Record<string, unknown>[]) {
  return {
    id,
    publicId: `rep${String(id).padStart(9, "0")}`,
    deploymentId: 7,
    userId: 11,
    user: owner,
    name,
    refreshedByUser: owner,
    createdAt: "2024-09-01T10:00:00Z",
    updatedAt: "2024-10-01T10:00:00Z",
    type: "REPORT",
    externalWorkbookPlacements: placements,
  };
}

/** Placed with an id on "Q1 Sales" B2:F10; an older placement (no id) on Summary A1:C4. */
export const REVENUE = report(42, "Revenue by Region", [
  {
    id: "plc-42-a",
    workbookId: SPREADSHEET_ID,
    resultLocation: "'Q1 Sales'!B2",
    endResultCell: "F10",
    sheetId: "123456789",
    sheetName: "Q1 Sales",
    anchorCell: "B2",
    syncStatus: "UP_TO_DATE",
  },
  {
    id: "plc-42-elsewhere",
    workbookId: "another-spreadsheet",
    resultLocation: "'Q1 Sales'!B2",
    endResultCell: "F10",
    sheetId: "123456789",
    sheetName: "Q1 Sales",
    anchorCell: "B2",
  },
]);
export const PIPELINE = report(43, "Pipeline", [
  {
    workbookId: SPREADSHEET_ID,
    resultLocation: "Summary!A1",
    endResultCell: "C4",
    sheetId: "0",
    sheetName: "Summary",
    anchorCell: "A1",
    syncStatus: "CHANGED",
  },
]);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): FetchAnswer {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** A scripted tenant: lists REVENUE and PIPELINE, and answers a disconnect with the placement gone. */
export function tenant(overrides: { list?: FetchAnswer; disconnect?: FetchAnswer } = {}) {
  return (request: FetchedRequest): FetchAnswer => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7/reports") {
      return overrides.list ?? json(200, { items: [REVENUE, PIPELINE], pageInfo: { hasNextPage: false } });
    }
    const del = /^\/api\/v1\/deployments\/7\/reports\/(\d+)\/connect-workbook$/.exec(url.pathname);
    if (request.method === "DELETE" && del) {
      if (overrides.disconnect) return overrides.disconnect;
      const target = Number(del[1]) === 42 ? REVENUE : PIPELINE;
      const input = JSON.parse(request.payload ?? "{}");
      const kept = target.externalWorkbookPlacements.filter((p) =>
        input.placementId
          ? p.id !== input.placementId
          : !(p.sheetName === input.sheetName && p.anchorCell === input.anchorCell),
      );
      return json(200, { ...target, externalWorkbookPlacements: kept });
    }
    if (request.method === "GET" && url.pathname === "/api/v1/deployments") {
      return json(200, [
        { id: 7, name: "Production" },
        { id: 8, name: "Staging" },
      ]);
    }
    if (request.method === "GET" && url.pathname === "/api/scim/v2/Users") {
      return json(200, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
        totalResults: 1,
        startIndex: 1,
        itemsPerPage: 1,
        Resources: [
          {
            id: "u-1",
            userName: "ann",
            name: { givenName: "Ann", familyName: "Lee" },
            emails: [{ value: "ann.lee@example.com", primary: true }],
            active: true,
          },
        ],
      });
    }
    return json(404, { message: `no route ${request.method} ${url.pathname}` });
  };
}

export function configured(fetch = tenant()): World {
  const world = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: SHEETS,
    activeSheet: "Q1 Sales",
    fetch,
  });
  callOk(world, "saveSettings", {
    tenantUrl: TENANT,
    deploymentId: 7,
    apiKey: API_KEY,
    chatUrl: CHAT_URL,
    agentApiKey: AGENT_KEY,
    scimToken: SCIM_TOKEN,
    externalId: "Ann.Lee",
  });
  world.requests.length = 0;
  world.propertyAccess.length = 0;
  return world;
}

export function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** For a beforeAll: these tests load the built Code.js, so say how to build it when it is missing. */
export function requireBuiltCodeJs(): void {
  if (!existsSync(join(DIST, "Code.js"))) {
    throw new Error("dist/sheets/Code.js is missing: run `npm run build:sheets` first (npm test does).");
  }
}

// ---------------------------------------------------------------------------------------------
// Refresh: a tenant whose report has data (the data API of its deployment) and records refreshes.

export const DATA_BASE = "https://data.reporting.example/cube/7";

const DATA_ANNOTATION = {
  measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
  dimensions: {
    "orders.status": { title: "Orders Status", shortTitle: "Status", type: "string" },
  },
  segments: {},
  timeDimensions: {
    "orders.createdAt.day": { title: "Orders Created at", shortTitle: "Created at", type: "time" },
  },
};

/** Row `i` of the report's data: a status (text that looks like a number or a formula now and then), a count, a day. */
export function dataRow(i: number): Record<string, string> {
  const status = i === 0 ? "00123" : i === 1 ? "=1+1" : i === 2 ? "TRUE" : `status ${i}`;
  const day = new Date(Date.UTC(2024, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
  return {
    "orders.status": status,
    "orders.count": String(i * 3),
    "orders.createdAt.day": `${day}T00:00:00.000`,
  };
}

/** The grid a refresh or a place writes of `rows` rows: a header row, then each data row (the day as its serial number). */
export function expectedCells(rows: number): unknown[][] {
  const out: unknown[][] = [["Orders Status", "Orders Created at", "Orders Count"]];
  for (let i = 0; i < rows; i++) {
    const r = dataRow(i);
    const serial =
      (Date.parse(r["orders.createdAt.day"]!.slice(0, 10)) - Date.UTC(1899, 11, 30)) / 86_400_000;
    out.push([r["orders.status"], serial, Number(r["orders.count"])]);
  }
  return out;
}

/** A second placement of the same report, on Summary A1:C4. */
export const SECOND_PLACEMENT = {
  id: "plc-42-b",
  workbookId: SPREADSHEET_ID,
  resultLocation: "Summary!A1",
  endResultCell: "C4",
  sheetId: "0",
  sheetName: "Summary",
  anchorCell: "A1",
  syncStatus: "CHANGED",
};

/**
 * REVENUE with a query, placed with an id on "Q1 Sales" B2:F10 (the old extent: 9 rows by 5
 * columns), and on Summary A1:C4 when `second`.
 */
export function refreshableReport(rows: number, second = false) {
  return {
    ...REVENUE,
    jsonQuery: JSON.stringify({
      measures: ["orders.count"],
      dimensions: ["orders.status"],
      timeDimensions: [{ dimension: "orders.createdAt", granularity: "day" }],
      limit: rows,
    }),
    externalWorkbookPlacements: [
      REVENUE.externalWorkbookPlacements[0]!,
      ...(second ? [SECOND_PLACEMENT] : []),
    ],
  };
}

export interface DataTenantOptions {
  rows: number;
  /** Milliseconds each load request takes on the fake clock. */
  loadMs?: number;
  /** The answer to the record (PUT .../refresh), instead of the report recorded. */
  record?: () => FetchAnswer;
  /** More reports listed beside the refreshable one. */
  others?: Record<string, unknown>[];
  /** Load requests after the first answered "Continue wait" (the service still preparing), before data. */
  waitsAfterFirst?: number;
  /** The report is placed a second time, on Summary A1:C4 (SECOND_PLACEMENT). */
  second?: boolean;
}

/**
 * The tenant and the deployment's data API for a refresh: the report's rows (dataRow), the token,
 * and the record, which answers the report with the placement's new last cell and "UP_TO_DATE".
 * `recorded` holds each record's input, in order.
 */
export function dataTenant(o: DataTenantOptions) {
  const recorded: Record<string, unknown>[] = [];
  let loadRequests = 0;
  let report = refreshableReport(o.rows, o.second);
  const base = tenant({ list: undefined });
  const handler = (request: FetchedRequest): FetchAnswer => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7/reports") {
      return json(200, { items: [report, ...(o.others ?? [])], pageInfo: { hasNextPage: false } });
    }
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7") {
      return json(200, { id: 7, name: "Production", deploymentUrl: DATA_BASE });
    }
    if (request.method === "POST" && url.pathname === "/api/v1/deployments/7/token") {
      return json(200, { cubeApiToken: "tok-data-7" });
    }
    if (request.method === "POST" && request.url === `${DATA_BASE}/cubejs-api/v1/load`) {
      const n = loadRequests++;
      if (n >= 1 && n <= (o.waitsAfterFirst ?? 0)) {
        return { ...json(200, { error: "Continue wait" }), durationMs: o.loadMs ?? 100 };
      }
      const query = (JSON.parse(request.payload ?? "{}") as { query: { limit?: number; offset?: number } })
        .query;
      const from = query.offset ?? 0;
      const to = Math.min(o.rows, from + (query.limit ?? o.rows));
      const data = [];
      for (let i = from; i < to; i++) data.push(dataRow(i));
      return { ...json(200, { query, data, annotation: DATA_ANNOTATION }), durationMs: o.loadMs ?? 100 };
    }
    const put = /^\/api\/v1\/deployments\/7\/reports\/42\/refresh$/.exec(url.pathname);
    if (request.method === "PUT" && put) {
      const input = JSON.parse(request.payload ?? "{}") as Record<string, unknown>;
      recorded.push(input);
      if (o.record) return o.record();
      report = {
        ...report,
        externalWorkbookPlacements: report.externalWorkbookPlacements.map((p) =>
          p.id === input.placementId
            ? { ...p, endResultCell: String(input.endResultCell), syncStatus: "UP_TO_DATE" }
            : p,
        ),
      };
      return json(200, report);
    }
    return base(request);
  };
  return { handler, recorded, report: () => report };
}

/**
 * The data tenant (sheets-tenant.ts) with a service that keeps the report: GET the report, and
 * connect-workbook applied by the sandbox's rules (the placement Up to date: the report has a
 * current query checksum).
 */
export function placingTenant(rows: number) {
  const data = dataTenant({ rows });
  let report = { ...data.report(), currentQueryChecksum: "qc-1" } as unknown as Report;
  const connected: Record<string, unknown>[] = [];
  let n = 0;
  const handler = (request: FetchedRequest) => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7/reports") {
      return json(200, { items: [report], pageInfo: { hasNextPage: false } });
    }
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7/reports/42") {
      return json(200, report);
    }
    if (
      request.method === "PUT" &&
      request.url === `${TENANT}/api/v1/deployments/7/reports/42/connect-workbook`
    ) {
      const body = JSON.parse(request.payload ?? "{}");
      connected.push(body);
      report = connectPlacement(report, body, {
        now: "2026-11-27T10:00:00.000Z",
        userId: 11,
        newId: () => `plc-new-${++n}`,
      });
      return json(200, report);
    }
    return data.handler(request);
  };
  return { handler, connected, recorded: data.recorded, report: () => report };
}
