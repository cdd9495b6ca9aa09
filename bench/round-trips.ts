/**
 * Host round trips per user action, counted through the mocks the host tests use (budget,
 * design.md: one):
 * - Excel: `context.sync()` calls per selection change (createExcelHost over the fake
 *   workbook of test/support/excel-mock.ts, real timers, the host's own settle delay);
 * - Google Sheets: `google.script.run` calls per refresh, per disconnect and per "select it"
 *   (createSheetsHost over the real bridge and a counting google.script.run).
 * The pane adds no host call of its own on a selection change, a refresh or a disconnect (it calls
 * `loadWorkbook`, `platform.disconnect` or nothing), so the host's count is the action's count.
 */

import type { DirectGateway } from "../src/hosts/direct-gateway.js";
import type { ActiveContext, WorkbookSnapshot } from "../src/hosts/host.js";
import { createBridge } from "../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../src/hosts/sheets/sidebar/host.js";
import { mockedExcelHost } from "../test/support/excel-mock.js";
import { fakeScriptRun } from "../test/support/fake-script-run.js";

const STORED_ID = "6f1c1d7e-3a59-4c5e-9d1b-2f8f0f0b7a11";
const SALES_ID = "{00000000-0001-0000-0000-000000000000}";
const Q1 = { id: "{00000000-0001-0000-0100-000000000000}", name: "Q1 Sales" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const verdict = (n: number, budget = 1) => (n <= budget ? "meets" : "misses");

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function excel(): Promise<void> {
  let listCalls = 0;
  const gateway = {
    async listWorkbookReports() {
      listCalls++;
      return { reports: [], problems: [] };
    },
  } as unknown as DirectGateway;
  const { mock, host } = mockedExcelHost(
    { storedWorkbookId: STORED_ID },
    { gateway, onBackgroundError: () => {} },
  );
  const seen: ActiveContext[] = [];
  host.onContextChanged((c) => seen.push(c));
  await until(() => (mock.state.handlers.onSelectionChanged?.length ?? 0) > 0, "the selection handler");

  /** Runs one user action and returns the syncs and notifications it caused once settled. */
  async function measure(action: () => Promise<void>, notifications: number) {
    const syncs = mock.state.syncs;
    const before = seen.length;
    await action();
    await until(() => seen.length >= before + notifications, "the context notification");
    await sleep(200); // anything late would be counted too
    return { syncs: mock.state.syncs - syncs, notified: seen.length - before };
  }

  const click = await measure(async () => {
    mock.moveTo("Sales!C3");
    await mock.fire("onSelectionChanged", { address: "C3", worksheetId: SALES_ID });
  }, 1);
  console.log(
    `excel: one selection change (a click on a cell): ${click.syncs} context.sync(), ${click.notified} notification · goal: 1 · ${verdict(click.syncs)}`,
  );

  const drag = await measure(async () => {
    for (const cell of ["C4", "C5", "D5", "E5", "E6", "E7", "F7", "F8", "G9", "H9"]) {
      mock.moveTo(`Sales!${cell}`);
      await mock.fire("onSelectionChanged", { address: cell, worksheetId: SALES_ID });
      await sleep(20);
    }
  }, 1);
  console.log(
    `excel: a drag over 10 cells (10 selection events 20 ms apart): ${drag.syncs} context.sync(), ${drag.notified} notification (last cell ${seen.at(-1)?.cell}) · goal: 1 · ${verdict(drag.syncs)}`,
  );

  const sheet = await measure(async () => {
    mock.moveTo("'Q1 Sales'!A1", Q1);
    await mock.fire("onActivated", { worksheetId: Q1.id });
    await mock.fire("onSelectionChanged", { address: "A1", worksheetId: Q1.id });
  }, 1);
  console.log(
    `excel: a switch to another sheet (activated + selection events): ${sheet.syncs} context.sync(), ${sheet.notified} notification · goal: 1 · ${verdict(sheet.syncs)}`,
  );

  const syncs = mock.state.syncs;
  const snapshot: WorkbookSnapshot = await host.loadWorkbook();
  console.log(
    `excel: a refresh (loadWorkbook): ${mock.state.syncs - syncs} context.sync() and ${listCalls} service request (${snapshot.sheets.length} sheets read)`,
  );
}

/** The host tests' fake google.script.run, with each handler's value wrapped in the server's envelope. */
function countingScriptRun(handlers: Record<string, (...args: unknown[]) => unknown>) {
  const wrapped = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (...args: unknown[]) => ({ ok: true, value: handler(...args) ?? null }),
    ]),
  );
  return fakeScriptRun(wrapped);
}

async function sheets(): Promise<void> {
  const context: ActiveContext = {
    workbookId: "sheet-1",
    workbookName: "Budget",
    sheetId: "0",
    sheetName: "Sheet1",
    cell: "B3",
  };
  const report = { id: 42, deploymentId: 1, name: "Revenue", externalWorkbookPlacements: [] };
  const { run, calls } = countingScriptRun({
    refreshPane: () => ({
      context,
      sheets: [{ id: "0", name: "Sheet1" }],
      reports: [],
      problems: [],
      revision: "0.00000000",
    }),
    getActiveContext: () => ({ context, revision: "0.00000000" }),
    disconnectPlacement: () => report,
    selectRange: () => null,
  });
  const visibleDocument = {
    visibilityState: "visible",
    addEventListener() {},
    removeEventListener() {},
  } as unknown as Document;
  const host = createSheetsHost(
    createBridge(() => run),
    { document: visibleDocument, window: null },
  );
  async function count(action: () => Promise<unknown>): Promise<number> {
    const before = calls.length;
    await action();
    await sleep(50);
    return calls.length - before;
  }
  const refresh = await count(() => host.loadWorkbook());
  console.log(
    `sheets: a refresh (context, sheets and reports): ${refresh} google.script.run call (${calls.at(-1)?.name}) · goal: 1 · ${verdict(refresh)}`,
  );
  const disconnect = await count(() => host.platform.disconnect(1, 42, { placementId: "p-1" }));
  console.log(
    `sheets: a disconnect: ${disconnect} google.script.run call (${calls.at(-1)?.name}) · goal: 1 · ${verdict(disconnect)}`,
  );
  const select = await count(() => host.selectRange({ sheetId: "0", sheetName: "Sheet1", range: "B2:F9" }));
  console.log(
    `sheets: "select it in the workbook": ${select} google.script.run call (${calls.at(-1)?.name}) · goal: 1 · ${verdict(select)}`,
  );
  console.log(
    "sheets: a selection change is not an event in Sheets: the host polls getActiveContext while the sidebar is visible and listened to, every 1.5 s after an action, backing off to 10 s when idle (1 call per poll, none while hidden; calls per hour under 'Sheets sidebar polling')",
  );
}

export async function run(): Promise<void> {
  await excel();
  await sheets();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
