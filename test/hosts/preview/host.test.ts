/**
 * The preview's SpreadsheetHost over the simulated workbook, with a fake gateway: the context it
 * reports, selection bursts coalesced into one notification, selectRange by sheet id else name, the
 * cell menu's command round trip, and loadWorkbook combining context, sheets and the gateway's reports.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LoadAnswer } from "../../../src/core/data-api.js";
import type { Report } from "../../../src/core/schema.js";
import type { ActiveContext, HostCommand } from "../../../src/hosts/host.js";
import {
  CONTEXT_COALESCE_MS,
  createPreviewHost,
  type PreviewGateway,
} from "../../../src/hosts/preview/host.js";
import { PreviewWorkbook, shadedRanges } from "../../../src/hosts/preview/workbook.js";
import { demoSeed } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";

const SUMMARY = DEMO_WORKBOOK.sheets[0];
const Q1 = DEMO_WORKBOOK.sheets[1];
const REGIONS = DEMO_WORKBOOK.sheets[2];
const PIPELINE = DEMO_WORKBOOK.sheets[3];
const NOTES = DEMO_WORKBOOK.sheets[4];

function fakeGateway(reports: Report[] = [], problems: string[] = []) {
  return {
    getSettings: vi.fn(async () => ({}) as never),
    saveSettings: vi.fn(async () => ({}) as never),
    listDeployments: vi.fn(async () => []),
    listScimUsers: vi.fn(async () => ({}) as never),
    ask: vi.fn(async () => ({}) as never),
    abortChat: vi.fn(async () => {}),
    disconnect: vi.fn(async (_d: number, _r: number, _i: unknown): Promise<Report> => {
      throw new Error("not set up");
    }),
    listWorkbookReports: vi.fn(async (_workbookId: string) => ({
      reports: structuredClone(reports),
      problems: [...problems],
    })),
    loadReportData: vi.fn(async (): Promise<LoadAnswer> => {
      throw new Error("not set up");
    }),
    recordRefresh: vi.fn(async (_d: number, _r: number, _i: unknown): Promise<Report> => {
      throw new Error("not set up");
    }),
    connectReportToWorkbook: vi.fn(async (_d: number, _r: number, _i: unknown): Promise<Report> => {
      throw new Error("not set up");
    }),
  } satisfies PreviewGateway;
}

function setup(gatewayReports: Report[] = [], problems: string[] = []) {
  const seed = demoSeed();
  const workbook = new PreviewWorkbook(DEMO_WORKBOOK, seed.reports);
  const gateway = fakeGateway(gatewayReports, problems);
  const host = createPreviewHost(workbook, gateway);
  const contexts: ActiveContext[] = [];
  host.onContextChanged((c) => contexts.push(c));
  return { workbook, gateway, host, contexts, seed };
}

function contextAt(sheet: { id: string; name: string }, cell: string): ActiveContext {
  return {
    workbookId: DEMO_WORKBOOK.id,
    workbookName: DEMO_WORKBOOK.name,
    sheetId: sheet.id,
    sheetName: sheet.name,
    cell,
  };
}

describe("createPreviewHost", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is the preview host", () => {
    const { host } = setup();
    expect(host.kind).toBe("preview");
    expect(host.label).toBe("Preview");
  });

  describe("activeContext", () => {
    it("returns the workbook id and name, the active sheet's id and name, and the active cell", async () => {
      const { host, workbook } = setup();
      expect(await host.activeContext()).toEqual(contextAt(SUMMARY, "A1"));

      workbook.selectRange({ sheetId: REGIONS.id, sheetName: "Regions", range: "C5:D9" });
      expect(await host.activeContext()).toEqual(contextAt(REGIONS, "C5"));
    });

    it("after a rename: the same sheet id with the new name; after recreate: the new id", async () => {
      const { host, workbook } = setup();
      workbook.activateSheet(REGIONS.id);
      workbook.renameSheet(REGIONS.id, "Territories");
      expect(await host.activeContext()).toEqual(contextAt({ id: REGIONS.id, name: "Territories" }, "A1"));

      const fresh = workbook.recreateSheet(REGIONS.id)!;
      const context = await host.activeContext();
      expect(context.sheetId).toBe(fresh.id);
      expect(context.sheetId).not.toBe(REGIONS.id);
      expect(context.sheetName).toBe("Territories");
    });
  });

  describe("onContextChanged", () => {
    it("coalesces a burst of selection changes into one notification with the latest context", () => {
      const { workbook, contexts } = setup();
      workbook.selectCell({ col: 2, row: 2 });
      workbook.moveBy(1, 0);
      workbook.moveBy(1, 0);
      workbook.moveBy(0, 1, true);
      expect(contexts).toEqual([]);

      vi.advanceTimersByTime(CONTEXT_COALESCE_MS - 1);
      expect(contexts).toEqual([]);
      vi.advanceTimersByTime(1);
      // Shift-Arrow grew the range; the active cell (what the context reports) stayed at B4.
      expect(contexts).toEqual([contextAt(SUMMARY, "B4")]);

      vi.advanceTimersByTime(10 * CONTEXT_COALESCE_MS);
      expect(contexts).toHaveLength(1);
    });

    it("waits for the selection to settle: a held arrow key is reported once, where it stops", () => {
      const { workbook, contexts } = setup();
      workbook.selectCell({ col: 2, row: 2 });
      for (let i = 0; i < 10; i++) {
        vi.advanceTimersByTime(CONTEXT_COALESCE_MS / 2);
        workbook.moveBy(1, 0);
      }
      expect(contexts).toEqual([]);
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toEqual([contextAt(SUMMARY, "B12")]);
    });

    it("notifies again for a later change, and not at all when a burst ends where it started", () => {
      const { workbook, contexts } = setup();
      workbook.selectCell({ col: 2, row: 2 });
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      workbook.activateSheet(Q1.id);
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toEqual([contextAt(SUMMARY, "B2"), contextAt(Q1, "A1")]);

      workbook.selectCell({ col: 5, row: 5 });
      workbook.selectCell({ col: 1, row: 1 });
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toHaveLength(2);
    });

    it("notifies when another sheet is renamed or recreated (the sheet list changed), not for status or theme", () => {
      const { workbook, contexts } = setup();
      workbook.setStatus({ tone: "info", text: "hello" });
      workbook.setTheme("dark");
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toEqual([]);

      workbook.renameSheet(NOTES.id, "Memo");
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toEqual([contextAt(SUMMARY, "A1")]);

      workbook.recreateSheet(PIPELINE.id);
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toHaveLength(2);
    });

    it("reports the recreated active sheet's new id", () => {
      const { workbook, contexts } = setup();
      const fresh = workbook.recreateSheet(SUMMARY.id)!;
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(contexts).toEqual([contextAt(fresh, "A1")]);
    });

    it("stops after unsubscribing", () => {
      const { workbook, host } = setup();
      const seen: ActiveContext[] = [];
      const off = host.onContextChanged((c) => seen.push(c));
      off();
      workbook.selectCell({ col: 3, row: 3 });
      vi.advanceTimersByTime(CONTEXT_COALESCE_MS);
      expect(seen).toEqual([]);
    });
  });

  describe("selectRange", () => {
    it("activates the sheet by id (even under a stale name) and selects the range", async () => {
      const { host, workbook } = setup();
      await host.selectRange({ sheetId: REGIONS.id, sheetName: "Regional", range: "B2:G30" });
      const s = workbook.getSnapshot();
      expect(s.activeSheetId).toBe(REGIONS.id);
      expect(s.selection).toEqual({ top: 2, bottom: 30, left: 2, right: 7 });
      expect(await host.activeContext()).toEqual(contextAt(REGIONS, "B2"));
    });

    it("prefers the id when another sheet has since taken the stored name", async () => {
      const { host, workbook } = setup();
      workbook.renameSheet(REGIONS.id, "Territories");
      workbook.renameSheet(NOTES.id, "Regions");
      await host.selectRange({ sheetId: REGIONS.id, sheetName: "Regions", range: "B2" });
      expect(await host.activeContext()).toEqual(contextAt({ id: REGIONS.id, name: "Territories" }, "B2"));
    });

    it("falls back to the sheet name when the id is stale or null", async () => {
      const { host } = setup();
      await host.selectRange({
        sheetId: PIPELINE.recreated.previousId,
        sheetName: "Pipeline",
        range: "H1:K8",
      });
      expect(await host.activeContext()).toEqual(contextAt(PIPELINE, "H1"));
      await host.selectRange({ sheetId: null, sheetName: "Notes", range: "B2" });
      expect(await host.activeContext()).toEqual(contextAt(NOTES, "B2"));
    });

    it("rejects when neither the id nor the name is a sheet of this workbook", async () => {
      const { host } = setup();
      await expect(host.selectRange({ sheetId: "gone", sheetName: "Gone", range: "A1" })).rejects.toThrow(
        /Gone/,
      );
    });
  });

  describe("the cell menu's Disconnect report here", () => {
    it("fires a disconnect-here command with the cell's context and resolves with what the pane passes to done", async () => {
      const { host, workbook } = setup();
      const commands: HostCommand[] = [];
      host.onCommand((c) => commands.push(c));

      // Right-clicking a cell selects it; the menu item then sends the command.
      workbook.selectRange({ sheetId: Q1.id, sheetName: "Q1 Sales", range: "C5" });
      const outcome = host.disconnectHere();

      expect(commands).toHaveLength(1);
      expect(commands[0]!.type).toBe("disconnect-here");
      expect(commands[0]!.context).toEqual(contextAt(Q1, "C5"));

      commands[0]!.done({ ok: true, message: "Disconnected Q1 Sales by Rep." });
      // A second answer is ignored.
      commands[0]!.done({ ok: false, message: "late" });
      await expect(outcome).resolves.toEqual({ ok: true, message: "Disconnected Q1 Sales by Rep." });
    });

    it("passes a failure through", async () => {
      const { host } = setup();
      host.onCommand((c) => c.done({ ok: false, message: "No report is placed at Summary!A1." }));
      await expect(host.disconnectHere()).resolves.toEqual({
        ok: false,
        message: "No report is placed at Summary!A1.",
      });
    });

    it("says the add-in is still loading when no pane listens (before it subscribes or after it unsubscribes)", async () => {
      const { host } = setup();
      await expect(host.disconnectHere()).resolves.toMatchObject({ ok: false, message: /still loading/ });
      const off = host.onCommand(() => {});
      off();
      await expect(host.disconnectHere()).resolves.toMatchObject({ ok: false, message: /still loading/ });
    });
  });

  describe("loadWorkbook", () => {
    it("combines the context, the sheets as they are now, and the gateway's reports and problems for this workbook", async () => {
      const { seed } = setup();
      const mine = seed.reports.filter((r) => r.deploymentId === 1);
      const { host, workbook, gateway } = setup(mine, ["Report 999 could not be read."]);
      workbook.renameSheet(NOTES.id, "Memo");
      workbook.selectRange({ sheetId: Q1.id, sheetName: "Q1 Sales", range: "D4" });

      const snapshot = await host.loadWorkbook();

      expect(gateway.listWorkbookReports).toHaveBeenCalledWith(DEMO_WORKBOOK.id);
      expect(snapshot.context).toEqual(contextAt(Q1, "D4"));
      expect(snapshot.sheets).toEqual(
        DEMO_WORKBOOK.sheets.map((s) => ({ id: s.id, name: s.id === NOTES.id ? "Memo" : s.name })),
      );
      expect(snapshot.reports).toEqual(mine);
      expect(snapshot.problems).toEqual(["Report 999 could not be read."]);
    });

    it("shades what the gateway returned instead of the demo data", async () => {
      const { seed } = setup();
      const onlyPipeline = seed.reports.filter((r) => r.name === "Open Pipeline");
      const { host, workbook } = setup(onlyPipeline);
      expect(shadedRanges(workbook.getSnapshot(), SUMMARY.id).length).toBeGreaterThan(0);

      await host.loadWorkbook();

      expect(workbook.getSnapshot().reports).toEqual(onlyPipeline);
      expect(shadedRanges(workbook.getSnapshot(), SUMMARY.id)).toEqual([]);
      expect(shadedRanges(workbook.getSnapshot(), PIPELINE.id).map((r) => r.reportName)).toEqual([
        "Open Pipeline",
      ]);
    });

    it("rejects with the gateway's error and leaves the shading as it was", async () => {
      const { host, workbook, gateway } = setup();
      const before = workbook.getSnapshot().reports;
      gateway.listWorkbookReports.mockRejectedValueOnce(new Error("The service did not answer."));
      await expect(host.loadWorkbook()).rejects.toThrow("The service did not answer.");
      expect(workbook.getSnapshot().reports).toBe(before);
    });
  });

  describe("platform", () => {
    it("forwards a disconnect to the gateway and shades the report it returns", async () => {
      const { host, workbook, gateway, seed } = setup();
      const revenue = seed.reports.find((r) => r.name === "Revenue by Region")!;
      const input = { externalWorkbookId: DEMO_WORKBOOK.id, placementId: "plc-101-summary" };
      const after: Report = {
        ...revenue,
        externalWorkbookPlacements: revenue.externalWorkbookPlacements!.filter(
          (p) => p.id !== "plc-101-summary",
        ),
      };
      gateway.disconnect.mockResolvedValueOnce(after);

      const shadedOnSummary = () => shadedRanges(workbook.getSnapshot(), SUMMARY.id).map((r) => r.reportName);
      expect(shadedOnSummary()).toContain("Revenue by Region");

      await expect(host.platform.disconnect(1, 101, input)).resolves.toBe(after);
      expect(gateway.disconnect).toHaveBeenCalledWith(1, 101, input);
      expect(shadedOnSummary()).not.toContain("Revenue by Region");
      // Its other placement, on Q1 Sales, is still drawn.
      expect(shadedRanges(workbook.getSnapshot(), Q1.id).map((r) => r.reportName)).toContain(
        "Revenue by Region",
      );
    });

    it("leaves the shading alone when the disconnect fails", async () => {
      const { host, workbook, gateway } = setup();
      const before = workbook.getSnapshot().reports;
      gateway.disconnect.mockRejectedValueOnce(new Error("Forbidden"));
      await expect(
        host.platform.disconnect(1, 101, { externalWorkbookId: DEMO_WORKBOOK.id }),
      ).rejects.toThrow("Forbidden");
      expect(workbook.getSnapshot().reports).toBe(before);
    });

    it("forwards the other calls unchanged", async () => {
      const { host, gateway } = setup();
      await host.platform.listDeployments();
      await host.platform.listScimUsers({ count: 10, startIndex: 1 });
      await host.platform.abortChat("chat-1");
      await host.platform.saveSettings({ tenantUrl: "http://x" });
      expect(gateway.listDeployments).toHaveBeenCalledTimes(1);
      expect(gateway.listScimUsers).toHaveBeenCalledWith({ count: 10, startIndex: 1 });
      expect(gateway.abortChat).toHaveBeenCalledWith("chat-1");
      expect(gateway.saveSettings).toHaveBeenCalledWith({ tenantUrl: "http://x" });
    });
  });

  describe("hand edits", () => {
    it("a value typed into a cell, or Delete, tells the pane the workbook changed; a selection or a refresh does not", async () => {
      const { host, workbook } = setup();
      let changes = 0;
      const off = host.onWorkbookChanged!(() => changes++);
      workbook.editCell("C4", "2,500");
      expect(changes).toBe(1);
      workbook.selectRange({ sheetId: SUMMARY.id, sheetName: SUMMARY.name, range: "C4" });
      workbook.clearSelection();
      expect(changes).toBe(2);
      // A move of the selection or a refresh's write is not a change of this kind.
      workbook.selectCell({ col: 2, row: 2 });
      workbook.writeCells({
        sheetId: SUMMARY.id,
        sheetName: SUMMARY.name,
        topLeft: "C4",
        values: [[1]],
        dateFormats: [],
        clear: [],
      });
      expect(changes).toBe(2);
      off();
      workbook.editCell("C5", "x");
      expect(changes).toBe(2);
    });

    it("readRange reads the cells as typed: numbers as numbers, text as text, empty as ''", async () => {
      const { host, workbook } = setup();
      workbook.selectRange({ sheetId: NOTES.id, sheetName: NOTES.name, range: "F30" });
      workbook.editCell("F30", "1,234.5");
      workbook.editCell("G30", "Lyon");
      await expect(host.readRange({ sheetId: null, sheetName: "Notes", range: "F30:H30" })).resolves.toEqual([
        [1234.5, "Lyon", ""],
      ]);
      await expect(host.readRange({ sheetId: null, sheetName: "Gone", range: "A1" })).rejects.toThrow(/Gone/);
    });
  });

  describe("theme", () => {
    it("reports the workbook's theme and each change of it, at once", () => {
      const { host, workbook } = setup();
      const themes: string[] = [];
      const off = host.onThemeChanged((t) => themes.push(t));
      expect(host.theme()).toBe("light");
      workbook.setTheme("dark");
      workbook.setTheme("dark");
      expect(themes).toEqual(["dark"]);
      expect(host.theme()).toBe("dark");
      off();
      workbook.setTheme("light");
      expect(themes).toEqual(["dark"]);
    });
  });
});

describe("the preview host's cells and Place a report here", () => {
  it("reads a range back as written; offers placing only with a gateway that can list, place and reread", async () => {
    const { host, workbook } = setup();
    workbook.writeCells({
      sheetId: NOTES.id,
      sheetName: NOTES.name,
      topLeft: "H30",
      values: [
        ["Region", "Count"],
        ["North", 1],
      ],
      dateFormats: [],
      clear: [],
    });
    expect(await host.readCells!({ sheet: { id: NOTES.id, name: NOTES.name }, range: "H30:J31" })).toEqual([
      ["Region", "Count", ""],
      ["North", 1, ""],
    ]);
    expect(host.placeReport).toBeUndefined();
    expect(host.listDeploymentReports).toBeUndefined();

    const seed = demoSeed();
    const placing = createPreviewHost(new PreviewWorkbook(DEMO_WORKBOOK, seed.reports), {
      ...fakeGateway(),
      listDeploymentReports: vi.fn(async () => seed.reports),
      getReport: vi.fn(async () => seed.reports[0]!),
      connectReportToWorkbook: vi.fn(async () => seed.reports[0]!),
    });
    expect(typeof placing.placeReport).toBe("function");
    expect(await placing.listDeploymentReports!()).toHaveLength(seed.reports.length);
  });
});
