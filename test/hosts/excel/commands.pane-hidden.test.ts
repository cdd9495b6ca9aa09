/**
 * The right-click command when the task pane cannot be shown. Since 23 February 2026 Office ignores
 * `Office.addin.showAsTaskpane()` for add-ins published in Microsoft's Marketplace
 * (learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in): it resolves and the pane stays
 * hidden. The outcome must still reach the user: in the outcome dialog (DialogApi 1.1), never only
 * in a page nobody sees. The Office stand-in (excel-mock.ts) ignores, honours or rejects
 * showAsTaskpane, reports visibility with onVisibilityModeChanged when it changes, and opens
 * dialogs one at a time.
 */
import { describe, expect, it, vi } from "vitest";
import type { Report } from "../../../src/core/schema.js";
import type { DirectGateway } from "../../../src/hosts/direct-gateway.js";
import { type CommandOutcome, createDisconnectHereCommand } from "../../../src/hosts/excel/commands.js";
import {
  createOutcomeDialog,
  outcomeDialogUrl,
  readOutcomeQuery,
} from "../../../src/hosts/excel/outcome-dialog.js";
import { createPaneShower } from "../../../src/hosts/excel/pane-visibility.js";
import { type ExcelMockOptions, mockedExcelHost } from "../../support/excel-mock.js";
import { makeReport, placement, WB } from "../../support/sandbox-fixtures.js";

const SALES_ID = "{00000000-0001-0000-0000-000000000000}";
const PAGE = "https://addin.example.com/excel/taskpane.html";
/** How long the shower waits for Office's visibility report in these tests. */
const WAIT_MS = 30;

function gatewayWith(reports: Report[]) {
  let current = reports;
  return {
    async listWorkbookReports() {
      return { reports: current, problems: [] };
    },
    async disconnect(_deploymentId: number, reportId: number) {
      const after = { ...current.find((r) => r.id === reportId)!, externalWorkbookPlacements: [] };
      current = current.map((r) => (r.id === reportId ? after : r));
      return after;
    },
  } as unknown as DirectGateway;
}

function setup(options: ExcelMockOptions & { paneListening?: boolean; pageVisible?: boolean }) {
  const reports = [makeReport(1, [placement("Sales", "B2", { endResultCell: "D5", sheetId: SALES_ID })])];
  const { mock, host } = mockedExcelHost(
    { storedWorkbookId: WB, activeAddress: "Sales!C3", ...options },
    { gateway: gatewayWith(reports) },
  );
  const inPage: CommandOutcome[] = [];
  // The mounted pane's store, when there is one: it answers on a later turn.
  const pane = async () =>
    options.paneListening
      ? () =>
          new Promise<CommandOutcome>((resolve) =>
            setTimeout(() => resolve({ ok: true, message: "Report 1 disconnected at Sales!B2." })),
          )
      : null;
  const page = { visibilityState: options.pageVisible ? "visible" : "hidden" };
  const command = createDisconnectHereCommand({
    host,
    pane,
    listenerWaitMs: options.paneListening ? 1000 : 0,
    showTaskpane: createPaneShower(mock.Office, page, WAIT_MS),
    notify: (o) => void inPage.push(o),
    showOutside: createOutcomeDialog(mock.Office, PAGE),
  });
  return { mock, command, inPage };
}

function dialogOutcome(url: string) {
  const parsed = new URL(url);
  expect(parsed.origin + parsed.pathname).toBe("https://addin.example.com/excel/outcome.html");
  return readOutcomeQuery(parsed.search);
}

describe("showAsTaskpane ignored (a Marketplace add-in)", () => {
  it("the pane's outcome reaches the user in the outcome dialog", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", paneListening: true });
    const event = { completed: vi.fn() };
    await command(event);
    expect(mock.state.shownAsTaskpane).toBe(1);
    expect(mock.state.paneVisible).toBe(false);
    expect(mock.state.dialogs).toHaveLength(1);
    expect(dialogOutcome(mock.state.dialogs[0]!.url)).toEqual({
      ok: true,
      message: "Report 1 disconnected at Sales!B2.",
    });
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("with no pane listening, the command's own outcome goes to the page and to the dialog", async () => {
    const { mock, command, inPage } = setup({ showAsTaskpane: "ignored" });
    await command({ completed: vi.fn() });
    expect(inPage.map((o) => o.ok)).toEqual([true]);
    expect(mock.state.dialogs.map((d) => dialogOutcome(d.url))).toEqual(inPage);
  });

  it("a failure reaches the dialog too", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", activeAddress: "Sales!H20" });
    await command({ completed: vi.fn() });
    expect(mock.state.dialogs).toHaveLength(1);
    expect(dialogOutcome(mock.state.dialogs[0]!.url)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^No report is placed at Sales!H20/),
    });
  });

  it("a second outcome closes the first dialog before opening its own (one dialog at a time)", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", activeAddress: "Sales!H20" });
    await command({ completed: vi.fn() });
    await command({ completed: vi.fn() });
    expect(mock.state.dialogs.map((d) => d.closed)).toEqual([true, false]);
  });
});

describe("a pane closed by the user after Office reported it shown", () => {
  it("counts as hidden when the page itself is hidden: the outcome reaches the dialog", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", paneListening: true });
    // Office said "Taskpane" once (an earlier show); the user has closed the pane since, which
    // hides the page but need not be reported.
    for (const handler of mock.state.visibilityHandlers) handler({ visibilityMode: "Taskpane" });
    await command({ completed: vi.fn() });
    expect(mock.state.dialogs).toHaveLength(1);
  });
});

describe("showAsTaskpane rejected", () => {
  it("the outcome reaches the dialog", async () => {
    const { mock, command } = setup({ showAsTaskpane: "rejects", paneListening: true });
    await command({ completed: vi.fn() });
    expect(mock.state.dialogs).toHaveLength(1);
  });
});

describe("the pane shows", () => {
  it("no dialog when Office reports the pane visible", async () => {
    const { mock, command } = setup({ showAsTaskpane: "shows", paneListening: true });
    await command({ completed: vi.fn() });
    expect(mock.state.paneVisible).toBe(true);
    expect(mock.state.dialogs).toEqual([]);
  });

  it("no dialog when the pane was open already", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", paneListening: true, pageVisible: true });
    await command({ completed: vi.fn() });
    expect(mock.state.dialogs).toEqual([]);
  });
});

describe("without the dialog API", () => {
  it("the command still completes, the outcome in the page", async () => {
    const { mock, command, inPage } = setup({ showAsTaskpane: "ignored", profile: "excel2019" });
    // excel2019 has DialogApi 1.1: take it away to see the guard.
    (mock.Office.context as { ui?: unknown }).ui = undefined;
    const event = { completed: vi.fn() };
    await command(event);
    expect(inPage).toHaveLength(1);
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("asks isSetSupported('DialogApi', '1.1') before opening a dialog", async () => {
    const { mock, command } = setup({ showAsTaskpane: "ignored", paneListening: true });
    await command({ completed: vi.fn() });
    expect(mock.state.requirementChecks).toContain("DialogApi 1.1");
  });
});

describe("the dialog's address", () => {
  it("carries the outcome as text in its query, cut to a bounded length", () => {
    const message = `<img src=x onerror=alert(1)> & "quotes" ${"x".repeat(2000)}`;
    const url = outcomeDialogUrl(PAGE, { ok: false, message });
    expect(url.startsWith("https://addin.example.com/excel/outcome.html?")).toBe(true);
    const read = readOutcomeQuery(new URL(url).search)!;
    expect(read.ok).toBe(false);
    expect(message.startsWith(read.message)).toBe(true);
    expect(read.message.length).toBeLessThanOrEqual(600);
    expect(readOutcomeQuery("")).toBeNull();
  });
});
