/**
 * The Sheets host over the built Code.js (dist/sheets/Code.js, loaded as Apps Script loads it): what
 * the sidebar's poll sees after the add-on menu's disconnect or a new sheet.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActiveContext } from "../../../../src/hosts/host.js";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { callOk, type FetchedRequest, loadAppsScript, type World } from "../../../support/apps-script.js";
import { fakeScriptRun, type ScriptHandler as Handler } from "../../../support/fake-script-run.js";

const _context: ActiveContext = {
  workbookId: "sheet-1",
  workbookName: "Budget",
  sheetId: "0",
  sheetName: "Sheet1",
  cell: "A1",
};

const ok = (value: unknown) => ({ ok: true, value });
/** What getActiveContext answers: the context and the workbook's revision. */
const _polled = (c: ActiveContext, revision = "0.00000001") => ok({ context: c, revision });

describe("the Sheets host over the built Code.js (a menu disconnect, a new sheet)", () => {
  const SPREADSHEET_ID = "1RevisionTestSpreadsheet0123456789abcdefgh";
  const TENANT = "https://acme.reporting.example";
  const API_KEY = "sk-live-revision-test";
  const owner = { id: 11, email: "ann.lee@example.com", firstName: "Ann", picture: null };
  const placement = {
    id: "plc-42",
    workbookId: SPREADSHEET_ID,
    resultLocation: "'Q1 Sales'!B2",
    endResultCell: "F10",
    sheetId: "7",
    sheetName: "Q1 Sales",
    anchorCell: "B2",
  };
  const revenue = {
    id: 42,
    publicId: "rep000000042",
    deploymentId: 7,
    userId: 11,
    user: owner,
    name: "Revenue by Region",
    refreshedByUser: owner,
    createdAt: "2024-09-01T10:00:00Z",
    updatedAt: "2024-10-01T10:00:00Z",
    type: "REPORT",
    externalWorkbookPlacements: [placement],
  };

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setUp() {
    let placed = true;
    const world: World = loadAppsScript({
      spreadsheetId: SPREADSHEET_ID,
      sheets: [
        { id: 0, name: "Summary", cell: "A1" },
        { id: 7, name: "Q1 Sales", cell: "C5" },
      ],
      activeSheet: "Q1 Sales",
      fetch: (request: FetchedRequest) => {
        const body = (value: unknown) => ({
          status: 200,
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(value),
        });
        const report = { ...revenue, externalWorkbookPlacements: placed ? [placement] : [] };
        if (request.method === "DELETE") {
          placed = false;
          return body({ ...report, externalWorkbookPlacements: [] });
        }
        return body({ items: [report], pageInfo: { hasNextPage: false } });
      },
    });
    callOk(world, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: API_KEY });
    // google.script.run over the script's globals, answering later as the real one does.
    const handlers = new Proxy({} as Record<string, Handler>, {
      get: (_target, name: string) =>
        typeof world.global[name] === "function"
          ? (...args: unknown[]) => world.global[name](...args)
          : undefined,
    });
    const { run, calls } = fakeScriptRun(handlers);
    const visibleDoc = {
      visibilityState: "visible",
      addEventListener() {},
      removeEventListener() {},
    } as unknown as Document;
    const host = createSheetsHost(
      createBridge(() => run),
      { document: visibleDoc, window: null, pollMs: 1500, idlePollMs: 1500 },
    );
    return { world, host, calls };
  }

  it("the next poll after the menu's disconnect tells the pane; a quiet poll tells nothing; nothing secret is polled", async () => {
    const { world, host, calls } = setUp();
    const snapshot = await host.loadWorkbook();
    expect(snapshot.reports[0]?.externalWorkbookPlacements).toHaveLength(1);
    let changes = 0;
    const contexts: ActiveContext[] = [];
    host.onWorkbookChanged?.(() => changes++);
    host.onContextChanged((c) => contexts.push(c));
    // What each poll carried across google.script.run.
    const answers: unknown[] = [];
    const original = world.global.getActiveContext;
    world.global.getActiveContext = () => {
      const answer = original();
      answers.push(answer);
      return answer;
    };

    await vi.advanceTimersByTimeAsync(1500 * 2);
    expect([changes, contexts]).toEqual([0, []]);

    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    expect(world.toasts[0]?.message).toMatch(/^Disconnected Revenue by Region/);
    await vi.advanceTimersByTimeAsync(1500);
    expect(changes).toBe(1);
    expect(contexts.map((c) => c.cell)).toEqual(["D7"]);

    // The pane reloads (one refreshPane), and the list no longer shows the placement.
    const after = await host.loadWorkbook();
    expect(after.reports[0]?.externalWorkbookPlacements).toEqual([]);
    await vi.advanceTimersByTimeAsync(1500 * 2);
    expect(changes).toBe(1);

    // A sheet added elsewhere (the selection stays where it was).
    world.sheets.push({ id: 99, name: "Q2 Sales" });
    await vi.advanceTimersByTimeAsync(1500);
    expect(changes).toBe(2);
    expect(contexts).toHaveLength(1);

    const names = calls.map((c) => c.name);
    expect(names.filter((n) => n !== "getActiveContext")).toEqual(["refreshPane", "refreshPane"]);
    expect(names.filter((n) => n === "getActiveContext")).toHaveLength(answers.length);
    const text = JSON.stringify(answers);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(TENANT);
    for (const answer of answers) {
      expect(Object.keys((answer as { value: object }).value).sort()).toEqual(["context", "revision"]);
    }
  });
});
