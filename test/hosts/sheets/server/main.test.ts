/**
 * The built Apps Script server (dist/sheets/Code.js), loaded as Apps Script loads it and driven
 * through its global functions, against scripted UrlFetchApp answers: its globals, the sidebar's code, the pane's calls and the errors the sidebar reads (platform-api.md: the
 * disconnect, chat and auth rules).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { callError, callOk, DIST, loadAppsScript } from "../../../support/apps-script.js";
import {
  API_KEY,
  configured,
  EDITS_KEY,
  expectNoSecret,
  json,
  PIPELINE,
  REVENUE,
  requireBuiltCodeJs,
  SCIM_TOKEN,
  SPREADSHEET_ID,
  TENANT,
  tenant,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

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
      "connectPlacement",
      "undoDisconnect",
      "listScimUsers",
      "askAgent",
      "abortChat",
      "selectRange",
      "loadSidebarChunks",
      "refreshPlacementsStep",
      "refreshStatus",
      "stopRefresh",
      "listDeploymentReports",
      "placeReportStep",
      "readCells",
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
          { caption: "Undo disconnect", functionName: "undoDisconnect" },
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
    expect(world.menus[0]?.items.map((i) => i.functionName)).toEqual([
      "showSidebar",
      "disconnectReportHere",
      "undoDisconnect",
    ]);
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

  it("answers bad-request, not a script error, for JSON-legal values no string conversion survives", () => {
    const world = loadAppsScript();
    // An object whose toString is not a function, and an array nested past the stack's depth: both
    // are plain JSON, and both made the name's String() throw inside the script.
    let deep: unknown = "SidebarChunk_x";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    for (const name of [{ toString: 1 }, { toString: "x", valueOf: 2 }, deep]) {
      const error = callError(world, "loadSidebarChunks", [settingsChunk(), name]);
      expect(error.kind).toBe("bad-request");
      expect(error.message).toMatch(/does not have .*Close and reopen the sidebar/);
    }
    expect(world.htmlFilesRead.filter((f) => f !== settingsChunk())).toEqual([]);
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
