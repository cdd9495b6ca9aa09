/**
 * The built-in demo data: what `npm run sandbox` (without `--seed`) and `npm start` serve. Built from
 * `DEMO_WORKBOOK` so the preview workbook and the service agree on every sheet and placement.
 *
 * What it shows (README: "Demo data"):
 * - two deployments; twelve reports in deployment 1, two in deployment 2;
 * - placements on four sheets of the demo workbook, none overlapping within a sheet;
 * - "Revenue by Region" placed twice in the demo workbook and once in OTHER_WORKBOOK;
 * - older placements: without a placement id, without a sheet id (sheet name only, or only a
 *   `resultLocation`), and one report with only the older top-level fields;
 * - every sync status, consistent with the checksums: UP_TO_DATE when the placement's
 *   `queryChecksum` equals the report's `currentQueryChecksum`, CHANGED when it differs, UNKNOWN
 *   when the placement has none;
 * - placements on a sheet renamed since (they store the old name with the sheet's id) and on a
 *   sheet deleted and recreated under the same name (they store the old sheet id);
 * - `refreshedAt` from minutes to months before `DEMO_REFERENCE_DATE`.
 */
import { quoteSheetName } from "../core/location.js";
import type { PlacementSyncStatus, Report, ReportPlacement, ResourceOwner } from "../core/schema.js";
import {
  DEMO_REFERENCE_DATE,
  DEMO_WORKBOOK,
  type DemoSheet,
  type DemoWorkbook,
  OTHER_WORKBOOK,
} from "./demo-workbook.js";
import { parseSeed, type Seed, type SeedInput } from "./seed.js";

/** Unscoped API key: every deployment (Bearer on the management API). */
export const DEMO_API_KEY = "sk-demo-all-7f3a9c2e";
/** API key scoped to deployment 1 ("Production") only: deployment 2 answers 403. */
export const DEMO_SCOPED_KEY = "sk-demo-prod-2b81d4f0";
/** SCIM token for `/api/scim/v2` (Bearer or Api-Key). */
export const DEMO_SCIM_TOKEN = "scim-demo-5d0e61aa";
/** API key both demo agents list (Api-Key on the chat URL). */
export const DEMO_AGENT_KEY = "ak-demo-agents-91c4b7";

export const DEMO_DEPLOYMENTS = [
  { id: 1, name: "Production" },
  { id: 2, name: "Staging" },
] as const;

export const DEMO_AGENTS = [
  {
    id: "sales-agent",
    deploymentId: 1,
    name: "Sales analyst",
    apiKeys: [DEMO_AGENT_KEY, DEMO_API_KEY, DEMO_SCOPED_KEY],
  },
  { id: "ops-agent", deploymentId: 2, name: "Operations analyst", apiKeys: [DEMO_AGENT_KEY, DEMO_API_KEY] },
] as const;

const USERS = [
  { id: 11, email: "ann.lee@example.com", firstName: "Ann", lastName: "Lee", picture: null },
  { id: 12, email: "bo.martins@example.com", firstName: "Bo", lastName: "Martins", picture: null },
  { id: 13, email: "chen.wu@example.com", firstName: "Chen", lastName: "Wu", picture: null },
  { id: 14, email: "dana.okafor@example.com", firstName: "Dana", lastName: "Okafor", picture: null },
  {
    id: 15,
    email: "eli.novak@example.com",
    firstName: "Eli",
    lastName: "Novak",
    picture: null,
    active: false,
  },
  { id: 16, email: "fatima.zahra@example.com", firstName: "Fatima", lastName: "Zahra", picture: null },
  { id: 17, email: "gus.berg@example.com", firstName: null, lastName: null, picture: null },
];

function owner(id: number): ResourceOwner {
  const u = USERS.find((x) => x.id === id)!;
  return { id: u.id, email: u.email, firstName: u.firstName, picture: u.picture };
}

const MINUTE = 60_000;
/** The moment the demo's timestamps count back from; set by `demoSeed`. */
let referenceMs = Date.parse(DEMO_REFERENCE_DATE);
/** An ISO timestamp `minutes` before the demo's reference date. */
function ago(minutes: number): string {
  return new Date(referenceMs - minutes * MINUTE).toISOString();
}
const HOUR = 60;
const DAY = 24 * HOUR;

function sheet(workbook: DemoWorkbook, name: string): DemoSheet {
  const found = workbook.sheets.find((s) => s.name === name);
  if (!found) throw new Error(`demo: no sheet "${name}" in ${workbook.name}`);
  return found;
}

interface PlaceOptions {
  workbook: DemoWorkbook;
  sheet: string;
  /** "B2:F8": the anchor and the last cell written. */
  range: string;
  status: PlacementSyncStatus;
  /** The report's current query checksum, to derive the placement's from `status`. */
  current: string;
  id?: string;
  refreshedMinutesAgo: number;
  by: number;
  /** Older forms: "no-sheet-id" stores only the sheet name; "location-only" only `resultLocation`. */
  form?: "full" | "no-sheet-id" | "location-only";
}

/**
 * One placement as the service stores it. The sheet name is the one the sheet had when placed
 * (`placedAs`), the sheet id the one it had then (`recreated.previousId`).
 */
function place(o: PlaceOptions): ReportPlacement {
  const s = sheet(o.workbook, o.sheet);
  const storedName = s.placedAs ?? s.name;
  const storedId = s.recreated?.previousId ?? s.id;
  const [anchor, end] = o.range.split(":") as [string, string];
  const queryChecksum =
    o.status === "UP_TO_DATE" ? o.current : o.status === "CHANGED" ? `${o.current}-previous` : null;
  const form = o.form ?? "full";
  const p: ReportPlacement = {
    workbookId: o.workbook.id,
    resultLocation: `${quoteSheetName(storedName)}!${anchor}`,
    endResultCell: end,
    host: o.workbook.host,
    workbookName: o.workbook.name,
    placedAt: ago(o.refreshedMinutesAgo + 30 * DAY),
    placedByUserId: o.by,
    refreshedAt: ago(o.refreshedMinutesAgo),
    refreshedByUserId: o.by,
    syncStatus: o.status,
    queryChecksum,
  };
  if (o.id) p.id = o.id;
  if (form !== "location-only") {
    p.sheetName = storedName;
    p.anchorCell = anchor;
  }
  if (form === "full") p.sheetId = storedId;
  return p;
}

interface ReportOptions {
  id: number;
  deploymentId: number;
  name: string;
  by: number;
  description?: string;
  placements?: (current: string) => ReportPlacement[];
  extra?: Partial<Report>;
}

function report(o: ReportOptions): Report {
  const current = `q${o.id}-v3`;
  const r: Report = {
    id: o.id,
    publicId: `DemoRpt${String(o.id).padStart(5, "0")}`,
    deploymentId: o.deploymentId,
    userId: o.by,
    user: owner(o.by),
    name: o.name,
    title: o.name,
    description: o.description ?? null,
    refreshedByUser: owner(o.by),
    refreshedBy: o.by,
    createdBy: o.by,
    createdAt: ago(120 * DAY + o.id),
    updatedAt: ago(10 * DAY + o.id),
    type: "REPORT",
    source: "EXCEL",
    canEdit: true,
    canManage: o.by === 11,
    currentQueryChecksum: current,
    jsonQuery: JSON.stringify({ measures: ["orders.revenue"], dimensions: ["orders.region"] }),
    sqlQuery: null,
    folderId: o.deploymentId === 1 ? 5 : 9,
    folderPath: o.deploymentId === 1 ? [{ id: 5, name: "Finance" }] : [{ id: 9, name: "Operations" }],
    version: 3,
    workbookId: null,
    meta: null,
    ...o.extra,
  };
  if (o.placements) r.externalWorkbookPlacements = o.placements(current);
  return r;
}

const WB = DEMO_WORKBOOK;

/** The demo reports (a fresh copy each call). */
function demoReports(): Report[] {
  return [
    report({
      id: 101,
      deploymentId: 1,
      name: "Revenue by Region",
      by: 11,
      description: "Revenue per sales region and quarter.",
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "B2:F8",
          status: "UP_TO_DATE",
          current,
          id: "plc-101-summary",
          refreshedMinutesAgo: 12,
          by: 11,
        }),
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "B18:F24",
          status: "CHANGED",
          current,
          id: "plc-101-q1",
          refreshedMinutesAgo: 9 * DAY,
          by: 12,
        }),
        place({
          workbook: OTHER_WORKBOOK,
          sheet: "KPIs",
          range: "A1:E7",
          status: "UP_TO_DATE",
          current,
          id: "plc-101-board",
          refreshedMinutesAgo: 3 * HOUR,
          by: 11,
        }),
      ],
    }),
    report({
      id: 102,
      deploymentId: 1,
      name: "Monthly Active Customers",
      by: 12,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "B12:D25",
          status: "UP_TO_DATE",
          current,
          id: "plc-102",
          refreshedMinutesAgo: 2 * HOUR,
          by: 12,
        }),
      ],
    }),
    report({
      id: 103,
      deploymentId: 1,
      name: "Top 10 Products",
      by: 13,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "H2:J12",
          status: "CHANGED",
          current,
          id: "plc-103",
          refreshedMinutesAgo: 4 * DAY,
          by: 13,
        }),
      ],
    }),
    // Placed before placement ids and sheet ids existed: sheet name and anchor only.
    report({
      id: 104,
      deploymentId: 1,
      name: "Q1 Sales by Rep",
      by: 12,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "B2:E14",
          status: "UNKNOWN",
          current,
          refreshedMinutesAgo: 190 * DAY,
          by: 12,
          form: "no-sheet-id",
        }),
      ],
    }),
    // The oldest form: only `resultLocation` ("'Q1 Sales'!G2") and the end cell.
    report({
      id: 105,
      deploymentId: 1,
      name: "Q1 Sales by Channel",
      by: 14,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Q1 Sales",
          range: "G2:J9",
          status: "CHANGED",
          current,
          refreshedMinutesAgo: 200 * DAY,
          by: 14,
          form: "location-only",
        }),
      ],
    }),
    // On the sheet renamed "Regional" -> "Regions" after placing: stored under the old name, with the sheet's id.
    report({
      id: 106,
      deploymentId: 1,
      name: "Revenue by Country",
      by: 11,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Regions",
          range: "B2:G30",
          status: "UP_TO_DATE",
          current,
          id: "plc-106",
          refreshedMinutesAgo: 45,
          by: 11,
        }),
      ],
    }),
    report({
      id: 107,
      deploymentId: 1,
      name: "Regional Margin",
      by: 13,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Regions",
          range: "I2:M15",
          status: "CHANGED",
          current,
          refreshedMinutesAgo: 21 * DAY,
          by: 13,
        }),
      ],
    }),
    // On the sheet deleted and recreated under the same name: the stored sheet id is the old one.
    report({
      id: 108,
      deploymentId: 1,
      name: "Open Pipeline",
      by: 16,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Pipeline",
          range: "A1:F20",
          status: "UNKNOWN",
          current,
          refreshedMinutesAgo: 60 * DAY,
          by: 16,
        }),
      ],
    }),
    report({
      id: 109,
      deploymentId: 1,
      name: "Win Rate by Stage",
      by: 16,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Pipeline",
          range: "H1:K8",
          status: "UP_TO_DATE",
          current,
          id: "plc-109",
          refreshedMinutesAgo: 5,
          by: 16,
        }),
      ],
    }),
    // Only the older top-level fields: no `externalWorkbookPlacements` at all.
    report({
      id: 110,
      deploymentId: 1,
      name: "Churn Watchlist",
      by: 14,
      extra: { externalWorkbookId: WB.id, resultLocation: "Summary!B28", endResultCell: "E40" },
    }),
    // Not placed anywhere.
    report({ id: 111, deploymentId: 1, name: "Forecast vs Actual", by: 11 }),
    report({
      id: 112,
      deploymentId: 1,
      name: "Refund Requests",
      by: 12,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Summary",
          range: "H14:K20",
          status: "UNKNOWN",
          current,
          id: "plc-112",
          refreshedMinutesAgo: 33 * DAY,
          by: 12,
        }),
      ],
    }),
    // Deployment 2.
    report({
      id: 201,
      deploymentId: 2,
      name: "Warehouse Stock",
      by: 13,
      placements: (current) => [
        place({
          workbook: WB,
          sheet: "Notes",
          range: "B2:D9",
          status: "UP_TO_DATE",
          current,
          id: "plc-201",
          refreshedMinutesAgo: 90,
          by: 13,
        }),
      ],
    }),
    report({
      id: 202,
      deploymentId: 2,
      name: "Support Tickets by Priority",
      by: 17,
      extra: { source: "GOOGLE_SHEETS" },
      placements: (current) => [
        place({
          workbook: OTHER_WORKBOOK,
          sheet: "Sheet1",
          range: "A1:C6",
          status: "CHANGED",
          current,
          id: "plc-202",
          refreshedMinutesAgo: 14 * DAY,
          by: 17,
        }),
      ],
    }),
  ];
}

/**
 * The built-in demo seed (a fresh copy each call: the sandbox mutates its state). Timestamps count
 * back from `reference`: the fixed `DEMO_REFERENCE_DATE` for tests, "now" for `npm start` so the
 * pane says "3 hours ago" rather than a date years back.
 */
export function demoSeed(reference: string | Date = DEMO_REFERENCE_DATE): Seed {
  referenceMs = new Date(reference).getTime();
  const input: SeedInput = {
    deployments: DEMO_DEPLOYMENTS.map((d) => ({ ...d })),
    users: USERS.map((u) => ({ ...u })),
    apiKeys: [
      { key: DEMO_API_KEY, deployments: "all" },
      { key: DEMO_SCOPED_KEY, deployments: [1] },
    ],
    scimTokens: [DEMO_SCIM_TOKEN],
    reports: demoReports(),
    agents: DEMO_AGENTS.map((a) => ({ ...a, apiKeys: [...a.apiKeys] })),
  };
  return parseSeed(input);
}
