/** Small seeds and raw HTTP helpers shared by the sandbox's tests. */
import type { Report, ReportPlacement } from "../../src/core/schema.js";
import type { SeedInput } from "../../src/sandbox/seed.js";

export const KEY = "sk-test-all-0001";
export const SCOPED_KEY = "sk-test-dep1-0002";
export const SCIM_TOKEN = "scim-test-0003";
export const AGENT_KEY = "ak-test-agent-0004";
export const WB = "wb-test-A";
export const OTHER_WB = "wb-test-B";

const owner = { id: 7, email: "ann@example.com", firstName: "Ann", picture: null };

export function makeReport(
  id: number,
  placements: ReportPlacement[] | null | undefined,
  extra: Partial<Report> = {},
): Report {
  const report: Report = {
    id,
    publicId: `Rep${String(id).padStart(9, "0")}`,
    deploymentId: 1,
    userId: 7,
    user: owner,
    name: `Report ${id}`,
    refreshedByUser: owner,
    createdAt: "2024-05-01",
    updatedAt: "2024-06-01T10:00:00Z",
    type: "REPORT",
    currentQueryChecksum: `q${id}`,
    jsonQuery: '{"measures":["orders.count"]}',
    version: 4,
    ...extra,
  };
  if (placements !== undefined) report.externalWorkbookPlacements = placements;
  return report;
}

/** A placement on `sheetName` at `anchor`; options override any field (null removes it). */
export function placement(
  sheetName: string,
  anchor: string,
  fields: Partial<Record<keyof ReportPlacement, unknown>> = {},
): ReportPlacement {
  const p: Record<string, unknown> = {
    workbookId: WB,
    resultLocation: `'${sheetName}'!${anchor}`,
    sheetName,
    anchorCell: anchor,
    ...fields,
  };
  for (const [k, v] of Object.entries(p)) if (v === undefined) delete p[k];
  return p as ReportPlacement;
}

export function seedWith(reports: Report[], extra: Partial<SeedInput> = {}): SeedInput {
  return {
    deployments: [
      { id: 1, name: "Production" },
      { id: 2, name: "Staging" },
    ],
    users: [{ id: 7, email: "ann@example.com", firstName: "Ann", picture: null }],
    apiKeys: [
      { key: KEY, deployments: "all" },
      { key: SCOPED_KEY, deployments: [1] },
    ],
    scimTokens: [SCIM_TOKEN],
    reports,
    agents: [
      { id: "sales-agent", deploymentId: 1, name: "Sales", apiKeys: [AGENT_KEY, KEY] },
      { id: "ops-agent", deploymentId: 2, name: "Ops", apiKeys: [AGENT_KEY, SCOPED_KEY] },
    ],
    ...extra,
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
  json: any;
}

/** A raw HTTP request with global fetch; `auth` is the whole Authorization value (default Bearer KEY). */
export async function call(
  base: string,
  path: string,
  init: {
    method?: string;
    body?: string | object;
    auth?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  const auth = init.auth === undefined ? `Bearer ${KEY}` : init.auth;
  if (auth !== null) headers.Authorization = auth;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === "string" ? init.body : JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(`${base}${path}`, { method: init.method ?? "GET", headers, body });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export function disconnectPath(reportId: number, deploymentId = 1): string {
  return `/api/v1/deployments/${deploymentId}/reports/${reportId}/connect-workbook`;
}

export function reportPath(reportId: number, deploymentId = 1): string {
  return `/api/v1/deployments/${deploymentId}/reports/${reportId}`;
}
