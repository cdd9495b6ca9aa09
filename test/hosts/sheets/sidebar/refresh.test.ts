/**
 * Refresh from the Sheets sidebar (src/hosts/sheets/sidebar/refresh.ts) over the built Code.js,
 * through a google.script.run that answers later and lets across only what Google's does: the
 * host's refreshPlacements drives the server's steps, asks the overwrite question, polls progress,
 * and Stop; the pane's own refresh run (taskpane/refreshRun.ts) works over it unchanged.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { placedReports, splitByWorkbook } from "../../../../src/core/placement-view.js";
import type { RefreshOutcome, RefreshProgress } from "../../../../src/core/refresh-flow.js";
import { planRefresh, type RefreshScope } from "../../../../src/core/refresh-plan.js";
import type { RefreshHandlers, SpreadsheetHost } from "../../../../src/hosts/host.js";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { createRefreshRun } from "../../../../taskpane/refreshRun.js";
import { callOk, loadAppsScript, type World } from "../../../support/apps-script.js";
import { fakeScriptRun, type ScriptHandler } from "../../../support/fake-script-run.js";
import {
  API_KEY,
  type DataTenantOptions,
  dataTenant,
  requireBuiltCodeJs,
  SHEETS,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const FIRST = "p:plc-42-a";
const SECOND = "p:plc-42-b";

/**
 * The host over the built Code.js. `delayMs`: how long (fake time) each step's answer takes to come
 * back after the execution ran, so that progress polls happen while it is "running".
 */
function setUp(o: DataTenantOptions, delayMs = 0, afterStep?: (n: number) => void) {
  let steps = 0;
  const tenant = dataTenant(o);
  const world: World = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: SHEETS.map((s) => ({ ...s })),
    activeSheet: "Q1 Sales",
    fetch: tenant.handler,
  });
  callOk(world, "saveSettings", { tenantUrl: TENANT, deploymentId: 7, apiKey: API_KEY });
  const handlers = new Proxy({} as Record<string, ScriptHandler>, {
    get: (_target, name: string) => {
      if (typeof world.global[name] !== "function") return undefined;
      return (...args: unknown[]) => {
        const answer = world.global[name](...args);
        if (name === "refreshPlacementsStep") afterStep?.(++steps);
        if (name !== "refreshPlacementsStep" || delayMs === 0) return answer;
        return new Promise((resolve) => setTimeout(() => resolve(answer), delayMs));
      };
    },
  });
  const { run, calls } = fakeScriptRun(handlers);
  const host = createSheetsHost(
    createBridge(() => run),
    { document: undefined, window: null },
  );
  return { world, tenant, host, calls };
}

async function plan(host: SpreadsheetHost, scope: RefreshScope) {
  const snapshot = await host.loadWorkbook();
  const { here } = splitByWorkbook(placedReports(snapshot.reports), snapshot.context.workbookId);
  return planRefresh(here, scope, snapshot.sheets);
}

function handlersFor(overrides: Partial<RefreshHandlers> = {}) {
  const progress: RefreshProgress[] = [];
  const outcomes: RefreshOutcome[] = [];
  const questions: string[] = [];
  const handlers: RefreshHandlers = {
    onProgress: (p) => progress.push(p),
    onOutcome: (o) => outcomes.push(o),
    confirmOverwrite: async (q) => {
      questions.push(q);
      return false;
    },
    ...overrides,
  };
  return { handlers, progress, outcomes, questions };
}

describe("the Sheets host's refreshPlacements, over the built Code.js", () => {
  it("refreshes one placement: the server writes the cells and records; the pane gets the outcome with its own item", async () => {
    const { world, tenant, host, calls } = setUp({ rows: 20 });
    const { items } = await plan(host, { kind: "placement", key: FIRST });
    const h = handlersFor();
    const outcomes = await host.refreshPlacements!(items, h.handlers);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({
      status: "refreshed",
      message: "Refreshed Revenue by Region at 'Q1 Sales'!B2:D22.",
    });
    expect(outcomes[0]!.item).toBe(items[0]);
    expect(h.outcomes).toEqual(outcomes);
    expect(world.valuesOf("Q1 Sales", "B2:B3")).toEqual([["Orders Status"], ["00123"]]);
    expect(tenant.recorded).toHaveLength(1);
    expect(calls.filter((c) => c.name === "refreshPlacementsStep")).toHaveLength(1);
    // The sidebar sends keys only; the server reads the placements from the service.
    expect(calls.find((c) => c.name === "refreshPlacementsStep")?.args[0]).toEqual({
      runId: expect.stringMatching(/^run-[0-9a-f]{32}$/),
      keys: [FIRST],
    });
  });

  it("a refresh that needs two executions: two steps, progress polled while each runs, the same cells as one run", async () => {
    const slow = setUp({ rows: 40_000 }, 2_500);
    slow.world.writeMsPerCell = 3;
    const { items } = await plan(slow.host, { kind: "placement", key: FIRST });
    const h = handlersFor();
    const done = slow.host.refreshPlacements!(items, h.handlers);
    await vi.advanceTimersByTimeAsync(10_000);
    const outcomes = await done;
    expect(outcomes.map((o) => o.status)).toEqual(["refreshed"]);
    expect(slow.calls.filter((c) => c.name === "refreshPlacementsStep")).toHaveLength(2);
    expect(h.progress).toContainEqual(
      expect.objectContaining({ item: items[0], phase: "writing", totalRows: 40_001 }),
    );
    // Polling stops with the run.
    const polls = slow.calls.filter((c) => c.name === "refreshStatus").length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(slow.calls.filter((c) => c.name === "refreshStatus")).toHaveLength(polls);

    const fast = setUp({ rows: 40_000 });
    const once = await fast.host.refreshPlacements!(
      (await plan(fast.host, { kind: "placement", key: FIRST })).items,
      handlersFor().handlers,
    );
    expect(once.map((o) => o.status)).toEqual(["refreshed"]);
    expect(slow.world.valuesOf("Q1 Sales", "B2:D40002")).toEqual(
      fast.world.valuesOf("Q1 Sales", "B2:D40002"),
    );
    expect(slow.tenant.recorded).toEqual(fast.tenant.recorded);
  });

  it("overwrite asked and cancelled: the pane's question, nothing written, nothing recorded", async () => {
    const { world, tenant, host } = setUp({ rows: 20 });
    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("Q1 Sales")
      .getRange("C20")
      .setValues([[7]]);
    world.writes.length = 0;
    const { items } = await plan(host, { kind: "placement", key: FIRST });
    const h = handlersFor();
    const outcomes = await host.refreshPlacements!(items, h.handlers);
    expect(h.questions).toEqual([
      "Revenue by Region has grown: its new result also covers 'Q1 Sales'!B11:D22, and C20 is not empty. Overwrite those cells?",
    ]);
    expect(outcomes).toEqual([
      expect.objectContaining({ status: "not-refreshed", reason: "would-overwrite" }),
    ]);
    expect(world.writes).toEqual([]);
    expect(world.valuesOf("Q1 Sales", "C20")).toEqual([[7]]);
    expect(tenant.recorded).toEqual([]);
  });

  it("Stop while the first placement is being written: it is finished and recorded, the second is not started", async () => {
    const controller = new AbortController();
    // The first execution stops half way through the first placement's cells: Stop then.
    const { world, tenant, host, calls } = setUp({ rows: 40_000, second: true }, 0, (n) => {
      if (n === 1) controller.abort();
    });
    world.writeMsPerCell = 3;
    const { items } = await plan(host, { kind: "report", reportKey: "7:42" });
    // Summary (the second placement's sheet) comes first in the workbook.
    expect(items.map((i) => i.placement.key)).toEqual([SECOND, FIRST]);
    const h = handlersFor({ signal: controller.signal });
    const outcomes = await host.refreshPlacements!(items, h.handlers);
    expect(outcomes.map((o) => (o.status === "refreshed" ? o.status : o.reason))).toEqual([
      "refreshed",
      "stopped",
    ]);
    expect(calls.map((c) => c.name)).toContain("stopRefresh");
    expect(tenant.recorded.map((r) => r.placementId)).toEqual(["plc-42-b"]);
    expect(world.valuesOf("Q1 Sales", "B12")).toEqual([[""]]);
  });

  it("Stop while the overwrite question is open: nothing is written, the placement is Not refreshed (stopped)", async () => {
    const { world, tenant, host, calls } = setUp({ rows: 20 });
    world.global.SpreadsheetApp.getActiveSpreadsheet()
      .getSheetByName("Q1 Sales")
      .getRange("C20")
      .setValues([[7]]);
    world.writes.length = 0;
    const { items } = await plan(host, { kind: "placement", key: FIRST });
    const controller = new AbortController();
    const h = handlersFor({
      signal: controller.signal,
      // The pane answers an open question "no" on Stop.
      confirmOverwrite: async () => {
        controller.abort();
        return false;
      },
    });
    const outcomes = await host.refreshPlacements!(items, h.handlers);
    expect(outcomes).toEqual([expect.objectContaining({ status: "not-refreshed", reason: "stopped" })]);
    const steps = calls.filter((c) => c.name === "refreshPlacementsStep");
    expect(steps.at(-1)?.args[0]).toMatchObject({ overwrite: false, stop: true });
    expect(world.writes).toEqual([]);
    expect(tenant.recorded).toEqual([]);
  });

  it("a step Apps Script ends (its 6 minutes) rejects the run with Google's reason; what finished before stays reported; polling stops", async () => {
    const { world, host, calls } = setUp({ rows: 5, second: true });
    const original = world.global.refreshPlacementsStep;
    let n = 0;
    world.global.refreshPlacementsStep = (request: { runId: string; keys: string[] }) => {
      if (++n === 1) {
        // The first execution refreshes one placement and goes on with the other in a second one.
        const answer = original({ ...request, keys: request.keys.slice(0, 1) });
        return {
          ...answer,
          value: { ...answer.value, next: { runId: request.runId, keys: request.keys.slice(1) } },
        };
      }
      throw new Error("Exceeded maximum execution time");
    };
    const { items } = await plan(host, { kind: "all" });
    const h = handlersFor();
    await expect(host.refreshPlacements!(items, h.handlers)).rejects.toMatchObject({
      kind: "server",
      message: expect.stringMatching(/could not run refreshPlacementsStep: Exceeded maximum execution time/),
    });
    expect(h.outcomes.map((o) => o.status)).toEqual(["refreshed"]);
    const polls = calls.filter((c) => c.name === "refreshStatus").length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.filter((c) => c.name === "refreshStatus")).toHaveLength(polls);
  });

  it("the pane's Refresh all runs over it: N of M refreshed, the rows and the summary", async () => {
    const { host } = setUp({ rows: 10, second: true });
    const snapshot = await host.loadWorkbook();
    const { here } = splitByWorkbook(placedReports(snapshot.reports), snapshot.context.workbookId);
    const notices: { intent: string; message: string }[] = [];
    const reports: number[] = [];
    const refreshRun = createRefreshRun({
      host,
      workbook: () => ({ here, sheets: snapshot.sheets, epoch: 1 }),
      onReport: (r) => reports.push(r.id),
      notify: (n) => notices.push(n),
    });
    await refreshRun.start({ kind: "all" });
    expect(refreshRun.getSnapshot()).toMatchObject({ running: false, total: 2, refreshed: 2, finished: 2 });
    expect(reports).toEqual([42, 42]);
    expect(notices).toEqual([{ intent: "success", message: "Refreshed 2 of 2 placements." }]);
  });
});
