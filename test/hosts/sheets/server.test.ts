/**
 * The built Apps Script server (dist/sheets/Code.js), loaded as Apps Script loads it and driven
 * through its global functions, against scripted UrlFetchApp answers: the exact requests it sends
 * and what the user reads (spec 4.1, 4.2, 5).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callError,
  callOk,
  DIST,
  type FetchAnswer,
  type FetchedRequest,
  loadAppsScript,
  type World,
} from "../../support/apps-script.js";

const SPREADSHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789sheets";
const TENANT = "https://acme.reporting.example";
const CHAT_URL = "https://ai.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state";
const API_KEY = "sk-live-4f9a1c2b7e";
const AGENT_KEY = "ak-live-88d1e0c3aa";
const SCIM_TOKEN = "scim-live-01b2c3d4e5";
const SECRETS = [API_KEY, AGENT_KEY, SCIM_TOKEN];
/** Where the menu's "Disconnect report here" counts its changes: the user's properties, per spreadsheet. */
const EDITS_KEY = `reportingPlatform.edits.${SPREADSHEET_ID}`;
/** Each setting is one user property: `reportingPlatform.settings.<field>`. */
const SETTINGS = "reportingPlatform.settings.";

const SHEETS = [
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
const REVENUE = report(42, "Revenue by Region", [
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
const PIPELINE = report(43, "Pipeline", [
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

function json(status: number, body: unknown, headers: Record<string, string> = {}): FetchAnswer {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** A scripted tenant: lists REVENUE and PIPELINE, and answers a disconnect with the placement gone. */
function tenant(overrides: { list?: FetchAnswer; disconnect?: FetchAnswer } = {}) {
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

function configured(fetch = tenant()): World {
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

function expectNoSecret(value: unknown): void {
  const text = JSON.stringify(value);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

beforeAll(() => {
  if (!existsSync(join(DIST, "Code.js"))) {
    throw new Error("dist/sheets/Code.js is missing: run `npm run build:sheets` first (npm test does).");
  }
});

describe("Code.js as Apps Script loads it", () => {
  it("defines the triggers, menu items and sidebar functions as top-level functions", () => {
    const world = loadAppsScript();
    for (const name of [
      "onOpen",
      "onInstall",
      "showSidebar",
      "disconnectReportHere",
      "refreshPane",
      "getActiveContext",
      "getSettings",
      "saveSettings",
      "listDeployments",
      "disconnectPlacement",
      "listScimUsers",
      "askAgent",
      "abortChat",
      "selectRange",
      "loadSidebarChunks",
    ]) {
      expect(typeof world.global[name], name).toBe("function");
    }
  });

  it("onOpen adds the add-on menu in AuthMode.NONE without reading any property or fetching", () => {
    const world = loadAppsScript();
    world.authMode = "NONE";
    world.global.onOpen({ authMode: world.global.ScriptApp.AuthMode.NONE });
    expect(world.menus).toEqual([
      {
        name: "add-on",
        items: [
          { caption: "Open", functionName: "showSidebar" },
          { caption: "Disconnect report here", functionName: "disconnectReportHere" },
        ],
      },
    ]);
    expect(world.propertyAccess).toEqual([]);
    expect(world.requests).toEqual([]);
  });

  it("onInstall adds the same menu", () => {
    const world = loadAppsScript();
    world.authMode = "NONE";
    world.global.onInstall({ authMode: "NONE" });
    expect(world.menus[0]?.items.map((i) => i.functionName)).toEqual(["showSidebar", "disconnectReportHere"]);
  });

  it("Open shows Sidebar.html as a 300 px sidebar, its viewport set through addMetaTag (meta tags in the file are ignored)", () => {
    const world = loadAppsScript();
    world.global.showSidebar();
    expect(world.sidebars).toEqual([
      {
        file: "Sidebar",
        title: "Reporting Platform",
        width: 300,
        metaTags: [{ name: "viewport", content: "width=device-width, initial-scale=1" }],
      },
    ]);
  });
});

describe("loadSidebarChunks (the sidebar's lazily loaded code)", () => {
  const chunkNames = () =>
    readdirSync(DIST)
      .filter((f) => /^SidebarChunk_\w+\.html$/.test(f))
      .map((f) => f.slice(0, -".html".length));
  const settingsChunk = () => chunkNames().find((n) => n.startsWith("SidebarChunk_SettingsPanel_"))!;

  it("answers each chunk's code, in the order asked, read from its HTML file; no settings, no request", () => {
    const world = loadAppsScript();
    const names = [settingsChunk(), chunkNames().find((n) => n.startsWith("SidebarChunk_AgentChat_"))!];
    const codes = callOk<string[]>(world, "loadSidebarChunks", names);
    expect(codes).toHaveLength(2);
    for (const [i, name] of names.entries()) {
      const file = readFileSync(join(DIST, `${name}.html`), "utf8");
      // The file's script, without the <script> element around it.
      expect(file).toBe(`<script>${codes[i]}</script>\n`);
      expect(codes[i]).toMatch(new RegExp(`^\\s*__sidebarChunks\\.define\\("${name}",`));
    }
    expect(codes[0]).toContain("leave empty to keep it");
    expect(world.htmlFilesRead).toEqual(names);
    expect(world.requests).toEqual([]);
    expect(world.propertyAccess).toEqual([]);
  });

  it("serves every built chunk file", () => {
    const world = loadAppsScript();
    expect(callOk<string[]>(world, "loadSidebarChunks", chunkNames())).toHaveLength(chunkNames().length);
  });

  it("refuses a name that is not one of the built chunk files, and reads no file", () => {
    const world = loadAppsScript();
    for (const name of ["Sidebar", "Code", "appsscript", "SidebarChunk_nope", "../Sidebar", "", 42, null]) {
      const error = callError(world, "loadSidebarChunks", [settingsChunk(), name]);
      expect(error.kind, String(name)).toBe("bad-request");
      expect(error.message).toMatch(/does not have .*Close and reopen the sidebar/);
    }
    for (const names of [[], "SidebarChunk_x", null, Array(100).fill(settingsChunk())]) {
      expect(callError(world, "loadSidebarChunks", names).kind).toBe("bad-request");
    }
    expect(world.htmlFilesRead.filter((f) => f !== settingsChunk())).toEqual([]);
  });
});

describe("settings", () => {
  it("are stored in the user's properties only, and the sidebar never gets a secret back", () => {
    const world = loadAppsScript({ spreadsheetId: SPREADSHEET_ID, sheets: SHEETS });
    const saved = callOk(world, "saveSettings", {
      tenantUrl: `${TENANT}/`,
      deploymentId: 7,
      apiKey: API_KEY,
      chatUrl: CHAT_URL,
      agentApiKey: AGENT_KEY,
      scimToken: SCIM_TOKEN,
      externalId: "  Ann.Lee ",
    });
    expect(saved).toEqual({
      tenantUrl: TENANT,
      deploymentId: 7,
      chatUrl: CHAT_URL,
      externalId: "ann.lee",
      email: "",
      userAttributes: [],
      apiKeySet: true,
      agentApiKeySet: true,
      scimTokenSet: true,
      chatUrlConfirmed: false,
    });
    expect(callOk(world, "getSettings")).toEqual(saved);
    expectNoSecret(saved);
    expect(world.propertyAccess.every((a) => a.store === "user")).toBe(true);
    expect(world.properties.document.size).toBe(0);
    expect(world.properties.script.size).toBe(0);
    // The secrets are in the user's store (that is where they belong), each under its own key.
    expect(world.properties.user.get(`${SETTINGS}apiKey`)).toBe(JSON.stringify(API_KEY));
    expect(world.properties.user.get(`${SETTINGS}agentApiKey`)).toBe(JSON.stringify(AGENT_KEY));
  });

  it("a secret left out of a patch is kept; an empty one clears it", () => {
    const world = configured();
    expect(callOk(world, "saveSettings", { deploymentId: 8 })).toMatchObject({
      deploymentId: 8,
      apiKeySet: true,
    });
    expect(callOk(world, "saveSettings", { scimToken: "" })).toMatchObject({
      scimTokenSet: false,
      apiKeySet: true,
    });
  });

  it("refuses a tenant URL that is not HTTPS, and stores nothing", () => {
    const world = configured();
    const error = callError(world, "saveSettings", { tenantUrl: "http://acme.reporting.example" });
    expect(error.kind).toBe("insecure-url");
    expect(error.message).toMatch(/must use https:\/\//);
    expect(callOk(world, "getSettings")).toMatchObject({ tenantUrl: TENANT });
    expect(world.propertyAccess.filter((a) => a.op === "set")).toEqual([]);
  });

  it("refuses a chat URL outside the configured tenant", () => {
    const world = configured();
    const error = callError(world, "saveSettings", {
      chatUrl: "https://collector.evil.example/api/v1/public/x/agents/y/chat/stream-chat-state",
    });
    expect(error.kind).toBe("insecure-url");
    expect(error.message).toMatch(/not part of the tenant acme\.reporting\.example/);
    expect(callOk(world, "getSettings")).toMatchObject({ chatUrl: CHAT_URL });
  });

  it("a stored chat URL outside the tenant (saved before the check existed) is refused before anything is sent", () => {
    const world = configured();
    const outside = "https://collector.evil.example/api/v1/public/x/agents/y/chat/stream-chat-state";
    world.properties.user.set(`${SETTINGS}chatUrl`, JSON.stringify(outside));
    for (const call of [
      () => world.global.askAgent({ input: "Revenue?" }),
      () => world.global.abortChat("c-1"),
    ]) {
      const answer = call() as { ok: boolean; error?: { kind: string; message: string } };
      expect(answer.ok).toBe(false);
      expect(answer.error?.kind).toBe("insecure-url");
      expect(answer.error?.message).toMatch(
        /agent chat URL \(https:\/\/collector\.evil\.example\) is not on the tenant's domain and was not confirmed/,
      );
      expectNoSecret(answer);
    }
    expect(world.requests).toEqual([]);
  });

  it("ids from the sidebar cannot steer a request off the tenant", () => {
    const world = configured();
    const steer = [
      ["7/../../../x", 42],
      ["@evil.example", 42],
      [7, "42?next=https://evil.example/"],
      [7, "../../../../evil.example"],
    ] as const;
    for (const [deploymentId, reportId] of steer) {
      const answer = world.global.disconnectPlacement(deploymentId, reportId, {
        placementId: "plc-42-a",
      }) as {
        ok: boolean;
        error?: { kind: string };
      };
      expect(answer.ok, `${deploymentId} ${reportId}`).toBe(false);
      expect(answer.error?.kind).toBe("bad-request");
    }
    expect(world.requests).toEqual([]);
  });

  it("a stored tenant URL that is not HTTPS is refused before anything is sent", () => {
    const world = configured();
    world.properties.user.set(`${SETTINGS}tenantUrl`, JSON.stringify("http://acme.reporting.example"));
    expect(callError(world, "listDeployments")).toMatchObject({
      kind: "insecure-url",
      message: expect.stringMatching(/^The tenant URL must use https:\/\//),
    });
    world.global.disconnectReportHere();
    expect(world.toasts[0]?.message).toMatch(/^The tenant URL must use https:\/\//);
    expect(world.requests).toEqual([]);
  });

  it("a sidebar call before any settings says what to do", () => {
    const world = loadAppsScript({ spreadsheetId: SPREADSHEET_ID, sheets: SHEETS });
    expect(callError(world, "refreshPane")).toMatchObject({
      kind: "bad-request",
      message: expect.stringMatching(/No tenant URL/),
    });
    expect(world.requests).toEqual([]);
  });
});

describe("the pane's calls", () => {
  it("refreshPane answers context, sheets and this spreadsheet's reports in one call", () => {
    const world = configured();
    const snapshot = callOk<{
      context: unknown;
      sheets: unknown;
      reports: { id: number }[];
      problems: string[];
    }>(world, "refreshPane");
    expect(snapshot.context).toEqual({
      workbookId: SPREADSHEET_ID,
      workbookName: "Budget 2025",
      sheetId: "123456789",
      sheetName: "Q1 Sales",
      cell: "C5",
    });
    expect(snapshot.sheets).toEqual([
      { id: "0", name: "Summary" },
      { id: "123456789", name: "Q1 Sales" },
    ]);
    expect(snapshot.reports.map((r) => r.id)).toEqual([42, 43]);
    expect(snapshot.problems).toEqual([]);
    expect(world.requests).toHaveLength(1);
    const [request] = world.requests;
    expect(request).toMatchObject({
      method: "GET",
      url: `${TENANT}/api/v1/deployments/7/reports?externalWorkbookId=${SPREADSHEET_ID}&first=100`,
      muteHttpExceptions: true,
      followRedirects: false,
      payload: null,
    });
    expect(request?.headers.Authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("an unreadable report is listed as a problem, the others still shown", () => {
    const broken = { ...PIPELINE, name: "Broken", publicId: "short" };
    const world = configured(tenant({ list: json(200, { items: [REVENUE, broken] }) }));
    const snapshot = callOk<{ reports: { id: number }[]; problems: string[] }>(world, "refreshPane");
    expect(snapshot.reports.map((r) => r.id)).toEqual([42]);
    expect(snapshot.problems).toEqual([expect.stringMatching(/^Report "Broken" could not be read/)]);
  });

  it("getActiveContext follows the selection, with the workbook's revision, reading no settings", () => {
    const world = configured();
    world.select("Summary", "B3");
    expect(callOk(world, "getActiveContext")).toEqual({
      context: {
        workbookId: SPREADSHEET_ID,
        workbookName: "Budget 2025",
        sheetId: "0",
        sheetName: "Summary",
        cell: "B3",
      },
      revision: expect.stringMatching(/^\d+\.[0-9a-f]{8}$/),
    });
    expect(world.requests).toEqual([]);
    // One small property read (the menu's edit counter for this spreadsheet), never the settings.
    expect(world.propertyAccess).toEqual([{ store: "user", op: "get", key: EDITS_KEY }]);
  });

  it("disconnectPlacement sends one DELETE with the input, and answers the report as it stands", () => {
    const world = configured();
    const returned = callOk<{ id: number; externalWorkbookPlacements: { id: string }[] }>(
      world,
      "disconnectPlacement",
      7,
      42,
      { placementId: "plc-42-a" },
    );
    expect(returned.externalWorkbookPlacements.map((p) => p.id)).toEqual(["plc-42-elsewhere"]);
    expect(world.requests).toHaveLength(1);
    expect(world.requests[0]).toMatchObject({
      method: "DELETE",
      url: `${TENANT}/api/v1/deployments/7/reports/42/connect-workbook`,
      contentType: "application/json",
      payload: JSON.stringify({ placementId: "plc-42-a" }),
    });
    expect(world.requests[0]?.headers.Authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("selectRange activates the sheet by its id and selects the range; by name when the id is unknown", () => {
    const world = configured();
    callOk(world, "selectRange", { sheetId: "0", sheetName: "Old name", range: "A1:C4" });
    callOk(world, "selectRange", { sheetId: "999", sheetName: "Q1 Sales", range: "B2:F10" });
    expect(world.selections).toEqual([
      { sheet: "Summary", range: "A1:C4" },
      { sheet: "Q1 Sales", range: "B2:F10" },
    ]);
    expect(callError(world, "selectRange", { sheetId: null, sheetName: "Gone", range: "A1" }).kind).toBe(
      "not-found",
    );
  });

  it("listDeployments and listScimUsers (SCIM token as Bearer)", () => {
    const world = configured();
    expect(callOk(world, "listDeployments")).toEqual([
      { id: 7, name: "Production" },
      { id: 8, name: "Staging" },
    ]);
    expect(callOk(world, "listScimUsers", { count: 10, startIndex: 1 })).toEqual({
      totalResults: 1,
      startIndex: 1,
      itemsPerPage: 1,
      users: [
        { id: "u-1", userName: "ann", displayName: "Ann Lee", email: "ann.lee@example.com", active: true },
      ],
    });
    expect(world.requests[1]).toMatchObject({ url: `${TENANT}/api/scim/v2/Users?count=10&startIndex=1` });
    expect(world.requests[1]?.headers.Authorization).toBe(`Bearer ${SCIM_TOKEN}`);
  });
});

describe("Disconnect report here (add-on menu)", () => {
  it("on a placed cell: lists this spreadsheet's reports, sends the DELETE for that placement, and toasts the outcome", () => {
    const world = configured();
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    expect(world.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${TENANT}/api/v1/deployments/7/reports?externalWorkbookId=${SPREADSHEET_ID}&first=100`,
      `DELETE ${TENANT}/api/v1/deployments/7/reports/42/connect-workbook`,
    ]);
    const del = world.requests[1]!;
    expect(del.headers.Authorization).toBe(`Bearer ${API_KEY}`);
    expect(del.contentType).toBe("application/json");
    // Spec 4.1 rule 1: a placement with an id is addressed by it alone.
    expect(JSON.parse(del.payload!)).toEqual({ placementId: "plc-42-a" });
    expect(world.toasts).toEqual([
      {
        title: "Reporting Platform",
        message: expect.stringMatching(
          /^Disconnected Revenue by Region from .*Q1 Sales.*B2.*; the cells keep their values\.$/,
        ),
      },
    ]);
  });

  it("an older placement without an id is addressed by spreadsheet, sheet name and anchor, narrowed by the sheet id", () => {
    const world = configured();
    world.select("Summary", "C4");
    world.global.disconnectReportHere();
    const del = world.requests[1]!;
    expect(del.url).toBe(`${TENANT}/api/v1/deployments/7/reports/43/connect-workbook`);
    expect(JSON.parse(del.payload!)).toEqual({
      externalWorkbookId: SPREADSHEET_ID,
      sheetName: "Summary",
      anchorCell: "A1",
      sheetId: "0",
    });
    expect(world.toasts[0]?.message).toMatch(/^Disconnected Pipeline from/);
  });

  it("on a cell without a placement: says so and sends no DELETE", () => {
    const world = configured();
    world.select("Q1 Sales", "H20");
    world.global.disconnectReportHere();
    expect(world.requests.map((r) => r.method)).toEqual(["GET"]);
    expect(world.toasts).toEqual([
      {
        title: "Reporting Platform",
        message: "No report is placed at Q1 Sales!H20. Select a cell inside a placed report, then try again.",
      },
    ]);
  });

  it("a 401 says the API key was refused and what to do, without the key", () => {
    const world = configured(tenant({ list: json(401, { message: `invalid token ${API_KEY}` }) }));
    world.global.disconnectReportHere();
    const message = world.toasts[0]?.message ?? "";
    expect(message).toMatch(/^The API key was refused \(401\).*Paste a new one in Settings\./);
    expect(message).not.toContain(API_KEY);
    expect(world.requests).toHaveLength(1);
  });

  it("a 403 on the DELETE says the key may be scoped to other deployments, naming the deployment", () => {
    const world = configured(tenant({ disconnect: json(403, { message: "Forbidden" }) }));
    world.select("Q1 Sales", "B2");
    world.global.disconnectReportHere();
    expect(world.toasts[0]?.message).toMatch(
      /^The API key is valid but not allowed to disconnect the report \(403\)\. This key may be scoped to other deployments: deployment 7 is not among them\./,
    );
  });
});

describe("the workbook's revision (what the sidebar's poll compares)", () => {
  const revision = (world: World) => callOk<{ revision: string }>(world, "getActiveContext").revision;

  it("stays the same while only the selection moves, and refreshPane answers the same one", () => {
    const world = configured();
    const first = revision(world);
    world.select("Summary", "B3");
    world.select("Q1 Sales", "Z99");
    expect(revision(world)).toBe(first);
    expect(callOk<{ revision: string }>(world, "refreshPane").revision).toBe(first);
  });

  it("changes when a sheet is added, renamed, moved or removed", () => {
    const world = configured();
    const seen = [revision(world)];
    world.sheets.push({ id: 555, name: "Q2 Sales" });
    seen.push(revision(world));
    world.sheets[2]!.name = "Q2 Sales (draft)";
    seen.push(revision(world));
    world.sheets.unshift(world.sheets.pop()!);
    seen.push(revision(world));
    world.sheets.shift();
    seen.push(revision(world));
    // Each step changed it; back to the same tabs in the same order, the same revision.
    for (let i = 1; i < seen.length; i++) expect(seen[i]).not.toBe(seen[i - 1]);
    expect(new Set(seen.slice(0, 4)).size).toBe(4);
    expect(seen[4]).toBe(seen[0]);
  });

  it("the menu's disconnect bumps it (per user and spreadsheet); a cell without a placement does not", () => {
    const world = configured();
    const before = revision(world);
    world.select("Q1 Sales", "H20");
    world.global.disconnectReportHere();
    expect(revision(world)).toBe(before);

    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    const after = revision(world);
    expect(after).not.toBe(before);
    expect(world.properties.user.get(EDITS_KEY)).toBe("1");
    expect(world.properties.document.size).toBe(0);
    expect(world.properties.script.size).toBe(0);

    world.select("Summary", "C4");
    world.global.disconnectReportHere();
    expect(revision(world)).not.toBe(after);
    expect(world.properties.user.get(EDITS_KEY)).toBe("2");
  });

  it("a DELETE that failed still bumps it (the list may have changed); a list that failed does not", () => {
    const refused = configured(tenant({ disconnect: json(403, { message: "Forbidden" }) }));
    const before = revision(refused);
    refused.select("Q1 Sales", "B2");
    refused.global.disconnectReportHere();
    expect(revision(refused)).not.toBe(before);

    const unauthorized = configured(tenant({ list: json(401, { message: "invalid token" }) }));
    const unchanged = revision(unauthorized);
    unauthorized.global.disconnectReportHere();
    expect(revision(unauthorized)).toBe(unchanged);
  });

  it("the sidebar's own disconnect leaves it alone (the pane updates its list from the answer)", () => {
    const world = configured();
    const before = revision(world);
    callOk(world, "disconnectPlacement", 7, 42, { placementId: "plc-42-a" });
    expect(revision(world)).toBe(before);
  });
});

describe("errors the sidebar reads", () => {
  it("401 and 403 arrive as PlatformErrors with kind, status and message", () => {
    const w401 = configured(tenant({ list: json(401, { message: "expired" }) }));
    expect(callError(w401, "refreshPane")).toMatchObject({
      kind: "unauthorized",
      status: 401,
      message: expect.stringMatching(/^The API key was refused \(401\)/),
    });
    const w403 = configured(tenant({ list: json(403, {}) }));
    expect(callError(w403, "refreshPane")).toMatchObject({
      kind: "forbidden",
      status: 403,
      message: expect.stringMatching(/deployment 7 is not among them/),
    });
  });

  it("a network failure is retried for a GET, then reported as a network error without the key", () => {
    const world = configured(() => {
      throw new Error(`DNS error: acme.reporting.example (key ${API_KEY})`);
    });
    const error = callError(world, "listDeployments");
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/^Could not reach acme\.reporting\.example/);
    expect(error.message).not.toContain(API_KEY);
    expect(world.requests).toHaveLength(4);
    expect(world.sleeps).toHaveLength(3);
  });

  it("a redirect is not followed (it could carry the key elsewhere)", () => {
    const world = configured(() => ({
      status: 302,
      headers: { Location: "https://elsewhere.example/" },
      body: "",
    }));
    expect(callError(world, "listDeployments").kind).toBe("bad-request");
    expect(world.requests.every((r) => r.followRedirects === false)).toBe(true);
    expect(world.requests.map((r) => r.url)).toEqual([`${TENANT}/api/v1/deployments`]);
  });

  it("no answer to the sidebar ever carries a secret", () => {
    const world = configured(tenant({ list: json(401, { message: `bad ${API_KEY} ${SCIM_TOKEN}` }) }));
    const answers = [
      world.global.getSettings(),
      world.global.getActiveContext(),
      world.global.refreshPane(),
      world.global.listScimUsers({ count: 5, startIndex: 1 }),
      world.global.saveSettings({ email: "ann@example.com" }),
    ];
    expectNoSecret(answers);
  });
});

describe("askAgent", () => {
  const lines = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
  const answerBody = lines(
    { id: "__cutoff__", state: { chatId: "chat-77" } },
    { id: "m1", role: "assistant", content: "Looking", graphPath: ["tools"], isDelta: true },
    { id: "m2", role: "assistant", content: "Revenue ", graphPath: ["final"], isDelta: true },
    { id: "m2", role: "assistant", content: "grew 12%.", graphPath: ["final"], isDelta: true },
  );

  function chatWorld(answers: FetchAnswer[]) {
    return configured((request) => {
      if (request.url !== CHAT_URL) return json(404, {});
      return answers.shift() ?? { status: 500, body: "no more answers" };
    });
  }

  it("posts the chat request with Api-Key and a <ms>-message id, and returns the whole answer", () => {
    const world = chatWorld([
      { status: 200, headers: { "Content-Type": "application/x-ndjson" }, body: answerBody },
    ]);
    const answer = callOk<{ answer: string; chatId: string; messageId: string; messages: { id: string }[] }>(
      world,
      "askAgent",
      { input: "How did revenue do?", sessionSettings: { externalId: " Ann.Lee " } },
    );
    expect(answer.answer).toBe("Revenue grew 12%.");
    expect(answer.chatId).toBe("chat-77");
    expect(answer.messages.map((m) => m.id)).toEqual(["__cutoff__", "m1", "m2"]);
    expect(world.requests).toHaveLength(1);
    const request = world.requests[0]!;
    expect(request).toMatchObject({ method: "POST", url: CHAT_URL, contentType: "application/json" });
    expect(request.headers.Authorization).toBe(`Api-Key ${AGENT_KEY}`);
    const body = JSON.parse(request.payload!);
    expect(body).toEqual({
      input: "How did revenue do?",
      messageId: expect.stringMatching(/^\d{13,}-message$/),
      sessionSettings: { externalId: "ann.lee" },
    });
    expect(body.messageId).toBe(answer.messageId);
  });

  it("__suspended__ resends the same request once (same messageId, the chat id known so far)", () => {
    const world = chatWorld([
      {
        status: 200,
        body: lines(
          { id: "__cutoff__", state: { chatId: "chat-9" } },
          { id: "m1", role: "assistant", content: "Part", graphPath: ["final"] },
          { id: "__suspended__", error: "restarting" },
        ),
      },
      { status: 200, body: answerBody.replace("chat-77", "chat-9") },
    ]);
    const answer = callOk<{ answer: string; chatId: string }>(world, "askAgent", {
      input: "Again?",
      sessionSettings: {},
    });
    expect(answer).toMatchObject({ answer: "Revenue grew 12%.", chatId: "chat-9" });
    const [first, second] = world.requests.map((r) => JSON.parse(r.payload!));
    expect(second.messageId).toBe(first.messageId);
    expect(second.chatId).toBe("chat-9");
    expect(first.chatId).toBeUndefined();
  });

  it('an {"error": ...} line ends the answer with a stream error', () => {
    const world = chatWorld([
      {
        status: 200,
        body: lines({ id: "m1", role: "assistant", content: "Hm" }, { error: "model overloaded" }),
      },
    ]);
    expect(callError(world, "askAgent", { input: "Q", sessionSettings: {} })).toMatchObject({
      kind: "stream",
      message: expect.stringMatching(/The agent stopped with an error: "model overloaded"/),
    });
  });

  it("a 403 from the agent names the agent key", () => {
    const world = chatWorld([json(403, { error: "no access to agent" })]);
    expect(callError(world, "askAgent", { input: "Q", sessionSettings: {} })).toMatchObject({
      kind: "forbidden",
      message: expect.stringMatching(/^The agent API key is valid but not allowed to ask the agent \(403\)/),
    });
  });

  it("abortChat posts to the agent's /chat/abort", () => {
    const world = configured(() => ({ status: 204, body: "" }));
    callOk(world, "abortChat", "chat-77");
    expect(world.requests[0]).toMatchObject({
      method: "POST",
      url: CHAT_URL.replace("/chat/stream-chat-state", "/chat/abort"),
      payload: JSON.stringify({ chatId: "chat-77", sessionSettings: { externalId: "ann.lee" } }),
    });
    expect(world.requests[0]?.headers.Authorization).toBe(`Api-Key ${AGENT_KEY}`);
  });
});
