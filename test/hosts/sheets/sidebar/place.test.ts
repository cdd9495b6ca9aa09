/**
 * "Place a report here" and hand edits from the Sheets sidebar (src/hosts/sheets/sidebar/place.ts)
 * over the built Code.js, through a google.script.run that answers later and lets across only what
 * Google's does (no Date, among others): the host's placeReport drives the server's steps and asks
 * the overwrite question; its readCells reads in slices; the pane's own hand-edit watch
 * (taskpane/editWatch.ts) works over it unchanged: a placement just placed is not Edited, a hand
 * edit is.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type PlaceHost, planPlace } from "../../../../src/core/place-flow.js";
import { placedReports, splitByWorkbook } from "../../../../src/core/placement-view.js";
import type { PlaceHandlers, SpreadsheetHost } from "../../../../src/hosts/host.js";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { createEditWatch } from "../../../../taskpane/editWatch.js";
import { callOk, loadAppsScript, type World } from "../../../support/apps-script.js";
import { fakeScriptRun, type ScriptHandler } from "../../../support/fake-script-run.js";
import {
  API_KEY,
  placingTenant,
  requireBuiltCodeJs,
  SHEETS,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function setUp(rows: number, options: { spreadsheetTimeZone?: string } = {}) {
  const tenant = placingTenant(rows);
  const world: World = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: SHEETS.map((s) => ({ ...s })),
    activeSheet: "Q1 Sales",
    fetch: tenant.handler,
    ...options,
  });
  callOk(world, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: API_KEY });
  world.select("Q1 Sales", "H2");
  const handlers = new Proxy({} as Record<string, ScriptHandler>, {
    get: (_target, name: string) =>
      typeof world.global[name] === "function"
        ? (...args: unknown[]) => world.global[name](...args)
        : undefined,
  });
  const { run, calls } = fakeScriptRun(handlers);
  const host = createSheetsHost(
    createBridge(() => run),
    { document: undefined, window: null },
  );
  return { world, tenant, host, calls };
}

/** What the pane's picker does: the report chosen, planned at the active cell (PlacePicker.tsx). */
async function planAtActiveCell(host: SpreadsheetHost) {
  const snapshot = await host.loadWorkbook();
  const reports = await host.listDeploymentReports!();
  const { here } = splitByWorkbook(placedReports(snapshot.reports), snapshot.context.workbookId);
  const c = snapshot.context;
  const plan = planPlace(
    reports[0]!,
    {
      workbookId: c.workbookId,
      workbookName: c.workbookName,
      sheetId: c.sheetId,
      sheetName: c.sheetName,
      cell: c.cell,
      host: "GOOGLE_SHEETS" as PlaceHost,
    },
    here,
  );
  if (plan.kind !== "ready") throw new Error(plan.message);
  return plan.item;
}

function handlersFor(answer: boolean, overrides: Partial<PlaceHandlers> = {}) {
  const questions: string[] = [];
  const handlers: PlaceHandlers = {
    confirmOverwrite: async (q) => {
      questions.push(q);
      return answer;
    },
    ...overrides,
  };
  return { handlers, questions };
}

describe("the Sheets host's placeReport, over the built Code.js", () => {
  it("offers Place a report here and Edited: the three optional methods are there", () => {
    const { host } = setUp(5);
    expect(typeof host.listDeploymentReports).toBe("function");
    expect(typeof host.placeReport).toBe("function");
    expect(typeof host.readCells).toBe("function");
  });

  it("places the report at the active cell: the server writes and records; the pane gets the outcome with its own item", async () => {
    const { world, tenant, host, calls } = setUp(20);
    const item = await planAtActiveCell(host);
    const outcome = await host.placeReport!(item, handlersFor(true).handlers);
    expect(outcome).toMatchObject({
      status: "placed",
      message: "Placed Revenue by Region at 'Q1 Sales'!H2:J22.",
      placement: { anchorCell: "H2", endResultCell: "J22", syncStatus: "UP_TO_DATE" },
    });
    expect(outcome.item).toBe(item);
    expect(world.valuesOf("Q1 Sales", "H2:H3")).toEqual([["Orders Status"], ["00123"]]);
    expect(tenant.connected).toHaveLength(1);
    // The sidebar sends the report's ids and the cell; the server reads the report itself.
    expect(calls.find((c) => c.name === "placeReportStep")?.args[0]).toEqual({
      runId: expect.stringMatching(/^place-[0-9a-f]{32}$/),
      deploymentId: 7,
      reportId: 42,
      target: { sheetId: "123456789", sheetName: "Q1 Sales", cell: "H2" },
    });
  });

  it("asks the overwrite question first; Cancel writes and records nothing", async () => {
    const { world, tenant, host } = setUp(20);
    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("Q1 Sales")
      .getRange("I5")
      .setValues([["mine"]]);
    const writes = world.writes.length;
    const item = await planAtActiveCell(host);
    const h = handlersFor(false);
    const outcome = await host.placeReport!(item, h.handlers);
    expect(h.questions).toHaveLength(1);
    expect(h.questions[0]).toMatch(/I5/);
    expect(outcome).toMatchObject({ status: "not-placed", reason: "would-overwrite" });
    expect(world.writes).toHaveLength(writes);
    expect(world.valuesOf("Q1 Sales", "I5")).toEqual([["mine"]]);
    expect(tenant.connected).toEqual([]);
  });

  it("Cancel while the question is open: nothing is written, and the server is told", async () => {
    const { world, tenant, host, calls } = setUp(20);
    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("Q1 Sales")
      .getRange("I5")
      .setValues([["mine"]]);
    const item = await planAtActiveCell(host);
    const controller = new AbortController();
    const outcome = await host.placeReport!(item, {
      signal: controller.signal,
      confirmOverwrite: async () => {
        controller.abort();
        return true;
      },
    });
    expect(outcome).toMatchObject({
      status: "not-placed",
      reason: "stopped",
      message: "Not placed: cancelled before Revenue by Region was written.",
    });
    expect(calls.some((c) => c.name === "stopRefresh")).toBe(true);
    expect(world.valuesOf("Q1 Sales", "I5")).toEqual([["mine"]]);
    expect(tenant.connected).toEqual([]);
  });

  it("a place that needs two executions: two steps, one record, the whole result written", async () => {
    const { world, tenant, host, calls } = setUp(40_000);
    world.writeMsPerCell = 3;
    const item = await planAtActiveCell(host);
    const outcome = await host.placeReport!(item, handlersFor(true).handlers);
    expect(outcome).toMatchObject({ status: "placed", written: { bottom: 40_002 } });
    expect(calls.filter((c) => c.name === "placeReportStep").length).toBeGreaterThanOrEqual(2);
    expect(tenant.connected).toHaveLength(1);
    expect(world.clock.timeouts).toEqual([]);
  });
});

describe("the Sheets host's readCells and the pane's hand-edit watch over it", () => {
  it("a range past one call's 50,000 cells is read in slices of rows, and comes back whole", async () => {
    const { host, calls } = setUp(20_000);
    const item = await planAtActiveCell(host);
    expect((await host.placeReport!(item, handlersFor(true).handlers)).status).toBe("placed");
    const before = calls.length;
    const values = await host.readCells!({
      sheet: { id: "123456789", name: "Q1 Sales" },
      range: "H2:J20002",
    });
    expect(values).toHaveLength(20_001);
    const reads = calls.slice(before).filter((c) => c.name === "readCells");
    expect(reads.map((c) => (c.args[0] as { range: string }).range)).toEqual(["H2:J16667", "H16668:J20002"]);
  });

  it("a placement just placed is not Edited (in a spreadsheet whose time zone is not the script's); a hand edit is, with its rows", async () => {
    const { world, host } = setUp(20, { spreadsheetTimeZone: "America/New_York" });
    const item = await planAtActiveCell(host);
    expect((await host.placeReport!(item, handlersFor(true).handlers)).status).toBe("placed");
    const snapshot = await host.loadWorkbook();
    const { here } = splitByWorkbook(placedReports(snapshot.reports), snapshot.context.workbookId);
    const placed = here.filter((p) => p.anchorCell === "H2");
    expect(placed).toHaveLength(1);
    const watch = createEditWatch(host);
    await watch.checkAll(placed, snapshot.sheets);
    expect(watch.getSnapshot().size).toBe(0);

    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("Q1 Sales")
      .getRange("J6:J7")
      .setValues([[999], [998]]);
    await watch.checkAll(placed, snapshot.sheets);
    expect(watch.getSnapshot().get(placed[0]!.key)).toMatchObject({
      kind: "edited",
      text: "rows 6-7 edited",
      locate: { sheetName: "Q1 Sales", range: "H6:J7" },
    });
  });
});
