/**
 * "Disconnect report here" (the cell's right-click command): against the real sandbox when it does
 * the work itself, handed to the pane when the pane listens, and `event.completed()` on every path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { placementsOf } from "../../../src/core/placements.js";
import type { Report } from "../../../src/core/schema.js";
import { fetchTransport, type HttpRequest, type Transport } from "../../../src/core/transport.js";
import type { DirectGateway } from "../../../src/hosts/direct-gateway.js";
import {
  type CommandOutcome,
  createDisconnectHereCommand,
  DISCONNECT_HERE_ACTION,
} from "../../../src/hosts/excel/commands.js";
import type { ActiveContext } from "../../../src/hosts/host.js";
import { type ExcelMockOptions, mockedExcelHost } from "../../support/excel-mock.js";
import { KEY, makeReport, placement, seedWith, WB } from "../../support/sandbox-fixtures.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

const SALES_ID = "{00000000-0001-0000-0000-000000000000}";

function completionEvent() {
  return { completed: vi.fn() };
}

/** The sandbox seed: report 1 on Sales!B2:D5 (with the sheet's id), report 2 on 'Q1 Sales'!F10. */
function seed() {
  return seedWith([
    makeReport(1, [placement("Sales", "B2", { endResultCell: "D5", sheetId: SALES_ID })]),
    makeReport(2, [placement("Q1 Sales", "F10", { endResultCell: "G12" })]),
  ]);
}

describe("against the sandbox, with no pane listening", () => {
  let sandbox: SpawnedSandbox;
  beforeAll(async () => {
    sandbox = await spawnSandbox(seed());
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  async function setup(options: ExcelMockOptions) {
    const requests: HttpRequest[] = [];
    const inner = fetchTransport(fetch);
    const transport: Transport = (request) => {
      requests.push(request);
      return inner(request);
    };
    const { mock, host } = mockedExcelHost({ storedWorkbookId: WB, ...options }, { transport });
    await host.platform.saveSettings({ tenantUrl: sandbox.url, apiKey: KEY, deploymentId: 1 });
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host,
      notify: (o) => {
        notified.push(o);
      },
      showTaskpane: () => mock.Office.addin!.showAsTaskpane!().then(() => true),
      listenerWaitMs: 0,
    });
    return { mock, host, command, notified, requests };
  }

  it("on an empty cell says nothing is placed there and sends no disconnect", async () => {
    const { command, notified, requests } = await setup({ activeAddress: "Sales!H20" });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([
      {
        ok: false,
        message: "No report is placed at Sales!H20. Select a cell inside a placed report, then try again.",
      },
    ]);
    expect(requests.map((r) => r.method)).not.toContain("DELETE");
    expect(requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("on a placed cell disconnects exactly that placement and reports it", async () => {
    const { host, command, notified, requests } = await setup({ activeAddress: "Sales!C3" });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([
      { ok: true, message: "Disconnected Report 1 from Sales!B2:D5; the cells keep their values." },
    ]);
    expect(requests.filter((r) => r.method === "DELETE")).toHaveLength(1);

    const { reports } = await host.platform.listWorkbookReports(WB);
    const placed = (id: number) => placementsOf(reports.find((r) => r.id === id) as Report);
    expect(reports.find((r) => r.id === 1)).toBeUndefined(); // no placement left in this workbook
    expect(placed(2)).toHaveLength(1);
  });

  it("reports a failure the user can act on, and still completes", async () => {
    const { host } = mockedExcelHost({ storedWorkbookId: WB, activeAddress: "Sales!C3" });
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host,
      notify: (o) => void notified.push(o),
      listenerWaitMs: 0,
    });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([{ ok: false, message: "No tenant URL is set. Open Settings and enter it." }]);
  });
});

/** A gateway with this workbook's reports in memory; `disconnect` waits for `release()`. */
function memoryGateway(reports: Report[]) {
  let current = reports;
  const disconnects: number[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const gateway = {
    async listWorkbookReports() {
      return { reports: current, problems: [] };
    },
    async disconnect(_deploymentId: number, reportId: number) {
      disconnects.push(reportId);
      await gate;
      const before = current.find((r) => r.id === reportId)!;
      const after = { ...before, externalWorkbookPlacements: [] };
      current = current.map((r) => (r.id === reportId ? after : r));
      return after;
    },
  } as unknown as DirectGateway;
  return { gateway, disconnects, release };
}

function hostWith(options: ExcelMockOptions, gateway: DirectGateway) {
  return mockedExcelHost({ storedWorkbookId: WB, ...options }, { gateway });
}

describe("one disconnect in flight per placement", () => {
  it("a second right-click on the same cell while the first runs sends no second request", async () => {
    const reports = [makeReport(1, [placement("Sales", "B2", { endResultCell: "D5", sheetId: SALES_ID })])];
    const { gateway, disconnects, release } = memoryGateway(reports);
    const { host } = hostWith({ activeAddress: "Sales!C3" }, gateway);
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host,
      notify: (o) => void notified.push(o),
      listenerWaitMs: 0,
    });
    const first = completionEvent();
    const second = completionEvent();
    const runs = [command(first), command(second)];
    await vi.waitFor(() => expect(disconnects).toEqual([1]));
    release();
    await Promise.all(runs);
    expect(disconnects).toEqual([1]);
    expect(first.completed).toHaveBeenCalledTimes(1);
    expect(second.completed).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([
      { ok: true, message: "Disconnected Report 1 from Sales!B2:D5; the cells keep their values." },
    ]);
  });

  it("a second right-click elsewhere in the same placement waits, then finds nothing left to disconnect", async () => {
    const reports = [makeReport(1, [placement("Sales", "B2", { endResultCell: "D5", sheetId: SALES_ID })])];
    const { gateway, disconnects, release } = memoryGateway(reports);
    const { host, mock } = hostWith({ activeAddress: "Sales!C3" }, gateway);
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host,
      notify: (o) => void notified.push(o),
      listenerWaitMs: 0,
    });
    // On a fake clock each command runs as far as it can before the first's DELETE answers: no
    // guess at how long a second command would take to send its own.
    vi.useFakeTimers();
    try {
      const first = command(completionEvent());
      await vi.runAllTimersAsync();
      expect(disconnects).toEqual([1]);
      mock.moveTo("Sales!D5");
      const second = command(completionEvent());
      await vi.runAllTimersAsync();
      expect(disconnects).toEqual([1]);
      release();
      await vi.runAllTimersAsync();
      await Promise.all([first, second]);
    } finally {
      vi.useRealTimers();
    }
    expect(disconnects).toEqual([1]);
    expect(notified.map((o) => o.ok)).toEqual([true, false]);
    expect(notified[1]!.message).toMatch(/^No report is placed at Sales!D5/);
  });
});

describe("with the pane listening", () => {
  it("calls the pane's store with the cell, shows the pane, and completes with the pane's outcome", async () => {
    const { gateway, disconnects } = memoryGateway([]);
    const { host, mock } = hostWith({ activeAddress: "Sales!C3" }, gateway);
    const received: ActiveContext[] = [];
    const pane = async () => async (context: ActiveContext) => {
      received.push(context);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { ok: true, message: "Disconnected in the pane" };
    };
    const notify = vi.fn();
    const command = createDisconnectHereCommand({
      host,
      pane,
      notify,
      showTaskpane: () => mock.Office.addin!.showAsTaskpane!().then(() => true),
    });
    const event = completionEvent();
    await command(event);
    expect(received).toEqual([
      { workbookId: WB, workbookName: expect.any(String), sheetId: SALES_ID, sheetName: "Sales", cell: "C3" },
    ]);
    expect(mock.state.shownAsTaskpane).toBe(1);
    expect(notify).not.toHaveBeenCalled(); // the pane showed the outcome itself
    expect(disconnects).toEqual([]); // the pane does the work, not the command
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("waits for a pane that is still starting", async () => {
    const { host } = hostWith({ activeAddress: "Sales!C3" }, memoryGateway([]).gateway);
    const notify = vi.fn();
    const waited: number[] = [];
    // The pane mounts 30 ms after the command asks for it (mountedPane resolves then).
    const pane = (timeoutMs: number) => {
      waited.push(timeoutMs);
      return new Promise<(c: ActiveContext) => Promise<CommandOutcome>>((resolve) =>
        setTimeout(
          () => resolve(async () => ({ ok: false, message: "No report is placed at Sales!C3." })),
          30,
        ),
      );
    };
    const command = createDisconnectHereCommand({ host, pane, notify, listenerWaitMs: 2000 });
    const event = completionEvent();
    await command(event);
    expect(waited).toEqual([2000]);
    expect(notify).not.toHaveBeenCalled();
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("completes even when the pane never answers", async () => {
    const { host } = hostWith({ activeAddress: "Sales!C3" }, memoryGateway([]).gateway);
    const pane = async () => () => new Promise<CommandOutcome>(() => {});
    const notify = vi.fn();
    const command = createDisconnectHereCommand({ host, pane, notify, paneTimeoutMs: 20 });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("completes when the pane's store throws", async () => {
    const { host } = hostWith({ activeAddress: "Sales!C3" }, memoryGateway([]).gateway);
    const pane = async () => () => {
      throw new Error("store broke");
    };
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({ host, pane, notify: (o) => void notified.push(o) });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified).toHaveLength(1);
    expect(notified[0]!.ok).toBe(false);
  });
});

describe("event.completed() on every path", () => {
  it("when Excel cannot be read", async () => {
    const { host } = hostWith({}, memoryGateway([]).gateway);
    const broken = {
      ...host,
      activeContext: () => Promise.reject(new Error("RichApi.Error: GeneralException")),
    };
    const notified: CommandOutcome[] = [];
    const command = createDisconnectHereCommand({
      host: broken,
      notify: (o) => void notified.push(o),
      listenerWaitMs: 0,
    });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
    expect(notified[0]!.message).toBe(
      "Disconnect report here did not finish (RichApi.Error: GeneralException). Open the Reports pane and try again.",
    );
  });

  it("when reporting the outcome fails too", async () => {
    const { host } = hostWith({ activeAddress: "Sales!H20" }, memoryGateway([]).gateway);
    const command = createDisconnectHereCommand({
      host,
      notify: () => {
        throw new Error("no way to tell the user");
      },
      listenerWaitMs: 0,
    });
    const event = completionEvent();
    await command(event);
    expect(event.completed).toHaveBeenCalledTimes(1);
  });

  it("is registered under the manifest's FunctionName", () => {
    expect(DISCONNECT_HERE_ACTION).toBe("disconnectReportHere");
  });
});
