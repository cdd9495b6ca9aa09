/**
 * The built-in demo data: what `npm run sandbox` (without `--seed`) and `npm start` serve. Built from
 * `DEMO_WORKBOOK` so the preview workbook and the service agree on every sheet and placement.
 *
 * What it shows (docs/sandbox.md, "The demo data"):
 * - two deployments; thirteen reports in deployment 1, two in deployment 2, each with a query over
 *   the demo cubes (`demo-cubes.ts`) whose answer fits its placement's range exactly;
 * - report 111 is slow ("Continue wait" twice), report 113 answers 50,000 rows;
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
import { demoCubes } from "./demo-cubes.js";
import { demoReportBuilder } from "./demo-report-builder.js";
import { demoReports } from "./demo-reports.js";
import { DEMO_REFERENCE_DATE } from "./demo-workbook.js";
import { parseSeed, type Seed, type SeedInput } from "./seed.js";

/** Unscoped API key: every deployment (Bearer on the management API). */
export const DEMO_API_KEY = "sk-demo-all-7f3a9c2e";
/** API key scoped to deployment 1 ("Production") only: deployment 2 answers 403. */
export const DEMO_SCOPED_KEY = "sk-demo-prod-2b81d4f0";
/**
 * API key scoped to deployment 1 for Dana Okafor (user 14), whose security context limits the data
 * API to the Europe region (row-level security on the orders and customers cubes).
 */
export const DEMO_EUROPE_KEY = "sk-demo-europe-6c5e2a19";
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

/**
 * The built-in demo seed (a fresh copy each call: the sandbox mutates its state). Timestamps count
 * back from `reference`: the fixed `DEMO_REFERENCE_DATE` for tests, "now" for `npm start` so the
 * pane says "3 hours ago" rather than a date years back.
 */
export function demoSeed(reference: string | Date = DEMO_REFERENCE_DATE): Seed {
  const input: SeedInput = {
    deployments: DEMO_DEPLOYMENTS.map((d) => ({ ...d })),
    users: USERS.map((u) => ({ ...u })),
    apiKeys: [
      { key: DEMO_API_KEY, deployments: "all" },
      { key: DEMO_SCOPED_KEY, deployments: [1] },
      { key: DEMO_EUROPE_KEY, deployments: [1], userId: 14, securityContext: { region: ["Europe"] } },
    ],
    scimTokens: [DEMO_SCIM_TOKEN],
    reports: demoReports(demoReportBuilder(new Date(reference), USERS)),
    agents: DEMO_AGENTS.map((a) => ({ ...a, apiKeys: [...a.apiKeys] })),
    cubes: demoCubes(),
  };
  return parseSeed(input);
}
