/**
 * The Excel host over the Excel fake (load and sync enforced, test/support/office-proxy.ts): one `context.sync()` per read, the workbook id kept in a
 * custom property (created once, then only read), selection bursts settled into one read, sheets
 * selected by id then name, and the theme.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Report } from "../../../src/core/schema.js";
import type { DirectGateway } from "../../../src/hosts/direct-gateway.js";
import { createMemorySecretStore } from "../../../src/hosts/direct-gateway.js";
import { cellOfAddress, createExcelHost, WORKBOOK_ID_PROPERTY } from "../../../src/hosts/excel/host.js";
import { themeFromBackground } from "../../../src/hosts/excel/theme.js";
import type { ActiveContext } from "../../../src/hosts/host.js";
import { type ExcelMockOptions, mockedExcelHost } from "../../support/excel-mock.js";

const STORED_ID = "6f1c1d7e-3a59-4c5e-9d1b-2f8f0f0b7a11";
const SALES_ID = "{00000000-0001-0000-0000-000000000000}";
const Q1_ID = "{00000000-0001-0000-0100-000000000000}";

function fakeGateway(reports: Report[] = []) {
  const calls: string[] = [];
  const gateway = {
    async listWorkbookReports(workbookId: string) {
      calls.push(workbookId);
      return { reports, problems: [] };
    },
  } as unknown as DirectGateway;
  return { gateway, calls };
}

function setup(options: ExcelMockOptions = {}, extra: Parameters<typeof createExcelHost>[0] = {}) {
  const { gateway, calls } = fakeGateway();
  const { mock, host } = mockedExcelHost(options, { gateway, ...extra });
  return { mock, host, gatewayCalls: calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the active context", () => {
  it("reads workbook id, sheet id and name, and the active cell in one context.sync()", async () => {
    const { mock, host } = setup({
      storedWorkbookId: STORED_ID,
      active: 1,
      activeAddress: "'Q1 Sales'!$C$7",
    });
    const context = await host.activeContext();
    expect(context).toEqual({
      workbookId: STORED_ID,
      workbookName: "Budget.xlsx",
      sheetId: Q1_ID,
      sheetName: "Q1 Sales",
      cell: "C7",
    });
    expect(mock.state.syncs).toBe(1);
    expect(mock.state.customWrites).toEqual([]);
  });

  it("keeps worksheet ids opaque: passed through exactly as Excel gives them", async () => {
    const odd = { id: "{ABCDEF01-weird;id}", name: "Odd" };
    const { host } = setup({ storedWorkbookId: STORED_ID, sheets: [odd], activeAddress: "Odd!A1" });
    expect((await host.activeContext()).sheetId).toBe(odd.id);
  });

  it("strips the sheet from the active cell's address", () => {
    expect(cellOfAddress("Sales!B2")).toBe("B2");
    expect(cellOfAddress("'It''s!odd'!$AB$12")).toBe("AB12");
    expect(cellOfAddress("c3")).toBe("C3");
  });
});

describe("the workbook id (a custom document property)", () => {
  it("is created on first need, then read from memory: the second read writes nothing and costs one sync", async () => {
    const { mock, host } = setup({}, { newWorkbookId: () => "new-id-1" });
    const first = await host.activeContext();
    expect(first.workbookId).toBe("new-id-1");
    expect(mock.state.customWrites).toEqual([{ key: WORKBOOK_ID_PROPERTY, value: "new-id-1" }]);
    expect(mock.state.syncs).toBe(2); // the read, and the one-time write

    const second = await host.activeContext();
    expect(second.workbookId).toBe("new-id-1");
    expect(mock.state.customWrites).toHaveLength(1);
    expect(mock.state.customReads).toBe(1);
    expect(mock.state.syncs).toBe(3);
  });

  it("is a random UUID by default", async () => {
    const { host } = setup();
    expect((await host.activeContext()).workbookId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("is read from the file by a new session (the file keeps it), without writing", async () => {
    const { mock, host } = setup({}, { newWorkbookId: () => "kept-id" });
    await host.activeContext();
    const again = createExcelHost({
      Excel: mock.Excel,
      Office: mock.Office,
      store: createMemorySecretStore(),
      gateway: fakeGateway().gateway,
      window: null,
      newWorkbookId: () => "must-not-be-used",
    });
    expect((await again.activeContext()).workbookId).toBe("kept-id");
    expect(mock.state.customWrites).toHaveLength(1);
    expect(mock.storedWorkbookId()).toBe("kept-id");
  });

  it("is created once even when reads start together", async () => {
    let n = 0;
    const { mock, host } = setup({}, { newWorkbookId: () => `id-${++n}` });
    const contexts = await Promise.all([host.activeContext(), host.activeContext(), host.loadWorkbook()]);
    const ids = contexts.map((c) => ("context" in c ? c.context.workbookId : c.workbookId));
    expect(new Set(ids)).toEqual(new Set(["id-1"]));
    expect(mock.state.customWrites).toHaveLength(1);
  });
});

describe("loadWorkbook", () => {
  it("reads context and sheets in one sync, then lists this workbook's reports", async () => {
    const { mock, host, gatewayCalls } = setup({ storedWorkbookId: STORED_ID });
    const snapshot = await host.loadWorkbook();
    expect(mock.state.syncs).toBe(1);
    expect(snapshot.context.cell).toBe("B2");
    expect(snapshot.sheets).toEqual([
      { id: SALES_ID, name: "Sales" },
      { id: Q1_ID, name: "Q1 Sales" },
    ]);
    expect(mock.state.sheetCollectionLoads).toEqual(["items/id,items/name"]);
    expect(gatewayCalls).toEqual([STORED_ID]);
    expect(snapshot).toMatchObject({ reports: [], problems: [] });
  });
});

describe("selection changes", () => {
  async function settle(ms = 100) {
    await vi.advanceTimersByTimeAsync(ms);
  }

  it("subscribes once, however many listeners", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    host.onContextChanged(() => {});
    host.onContextChanged(() => {});
    await vi.waitFor(() => expect(mock.state.handlers.onSelectionChanged).toHaveLength(1));
    expect(mock.state.handlers.onActivated).toHaveLength(1);
    expect(mock.state.handlers.onAdded).toHaveLength(1);
    expect(mock.state.handlers.onDeleted).toHaveLength(1);
    expect(mock.state.handlers.onNameChanged).toHaveLength(1);
    expect(mock.state.documentHandlers).toEqual([]);
  });

  it("coalesces a burst of selection events into one sync and one notification with the last cell", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    const seen: ActiveContext[] = [];
    host.onContextChanged((c) => seen.push(c));
    await vi.waitFor(() => expect(mock.state.handlers.onSelectionChanged).toHaveLength(1));
    const before = mock.state.syncs;

    vi.useFakeTimers();
    for (const cell of ["C3", "C4", "C5", "D5", "E5", "E6", "E7", "F7", "F8", "G9"]) {
      mock.moveTo(`Sales!${cell}`);
      await mock.fire("onSelectionChanged", { address: cell, worksheetId: SALES_ID });
      await vi.advanceTimersByTimeAsync(20); // a drag: events 20 ms apart
    }
    expect(seen).toEqual([]);
    await settle();
    expect(mock.state.syncs - before).toBe(1);
    expect(seen.map((c) => c.cell)).toEqual(["G9"]);

    // A later, separate selection is one more read.
    mock.moveTo("Sales!A1");
    await mock.fire("onSelectionChanged");
    await settle();
    expect(mock.state.syncs - before).toBe(2);
    expect(seen.map((c) => c.cell)).toEqual(["G9", "A1"]);
  });

  it("reports a renamed sheet (ExcelApi 1.17) and a switch to another sheet", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    const seen: ActiveContext[] = [];
    host.onContextChanged((c) => seen.push(c));
    await vi.waitFor(() => expect(mock.state.handlers.onNameChanged).toHaveLength(1));
    vi.useFakeTimers();

    mock.moveTo("Renamed!B2", { id: SALES_ID, name: "Renamed" });
    await mock.fire("onNameChanged", { worksheetId: SALES_ID, nameBefore: "Sales", nameAfter: "Renamed" });
    await settle();
    expect(seen.at(-1)).toMatchObject({ sheetId: SALES_ID, sheetName: "Renamed" });

    mock.moveTo("'Q1 Sales'!A1", { id: Q1_ID, name: "Q1 Sales" });
    await mock.fire("onActivated", { worksheetId: Q1_ID });
    await mock.fire("onSelectionChanged", { worksheetId: Q1_ID });
    await settle();
    expect(seen.at(-1)).toMatchObject({ sheetId: Q1_ID, sheetName: "Q1 Sales", cell: "A1" });
    expect(seen).toHaveLength(2);
  });

  it("falls back to the document's selection event before ExcelApi 1.9", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID, excelApi: "1.8" });
    const seen: ActiveContext[] = [];
    host.onContextChanged((c) => seen.push(c));
    await vi.waitFor(() => expect(mock.state.documentHandlers).toHaveLength(1));
    expect(mock.state.documentHandlers[0]!.eventType).toBe("documentSelectionChanged");
    expect(mock.state.handlers.onSelectionChanged).toBeUndefined();

    vi.useFakeTimers();
    mock.moveTo("Sales!D4");
    await mock.fire("DocumentSelectionChanged");
    await mock.fire("DocumentSelectionChanged");
    await settle();
    expect(seen.map((c) => c.cell)).toEqual(["D4"]);
  });

  it("stops notifying a listener that unsubscribed", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    const seen: ActiveContext[] = [];
    const off = host.onContextChanged((c) => seen.push(c));
    await vi.waitFor(() => expect(mock.state.handlers.onSelectionChanged).toHaveLength(1));
    off();
    vi.useFakeTimers();
    const before = mock.state.syncs;
    await mock.fire("onSelectionChanged");
    await settle();
    expect(seen).toEqual([]);
    expect(mock.state.syncs).toBe(before); // and no read for nobody
  });
});

describe("selectRange", () => {
  it("activates the sheet by its id and selects the range", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    await host.selectRange({ sheetId: Q1_ID, sheetName: "Q1 Sales", range: "B2:F20" });
    expect(mock.state.activated).toEqual([Q1_ID]);
    expect(mock.state.selected).toEqual(["Q1 Sales!B2:F20"]);
    expect(mock.state.syncs).toBe(1);
  });

  it("falls back to the sheet's name when the id is not in this workbook", async () => {
    const { mock, host } = setup({ storedWorkbookId: STORED_ID });
    await host.selectRange({ sheetId: "{gone}", sheetName: "Sales", range: "'Sales'!C3:D4" });
    expect(mock.state.activated).toEqual([SALES_ID]);
    expect(mock.state.selected).toEqual(["Sales!C3:D4"]);
  });

  it("says so when the sheet is gone", async () => {
    const { host } = setup({ storedWorkbookId: STORED_ID });
    await expect(host.selectRange({ sheetId: null, sheetName: "Deleted", range: "A1" })).rejects.toThrow(
      'The sheet "Deleted" is not in this workbook any more. Press Reload list.',
    );
  });
});

describe("theme", () => {
  it("follows Office's body background: dark themes are dark, the rest light", () => {
    expect(themeFromBackground("#262626")).toBe("dark");
    expect(themeFromBackground("#000000")).toBe("dark");
    expect(themeFromBackground("#6D6D6D")).toBe("dark");
    expect(themeFromBackground("#FFFFFF")).toBe("light");
    expect(themeFromBackground("#E6E6E6")).toBe("light");
    expect(themeFromBackground(undefined)).toBe("light");
    expect(themeFromBackground("not a colour")).toBe("light");
  });

  it("tells listeners when the theme changed by the time the pane regains focus", () => {
    const events = new Map<string, () => void>();
    const window = { addEventListener: (name: string, fn: () => void) => events.set(name, fn) };
    const { mock, host } = setup({ bodyBackgroundColor: "#ffffff" }, { window: window as never });
    expect(host.theme()).toBe("light");
    const seen: string[] = [];
    host.onThemeChanged((t) => seen.push(t));
    events.get("focus")?.();
    expect(seen).toEqual([]);
    mock.setBackground("#1f1f1f");
    events.get("focus")?.();
    events.get("visibilitychange")?.();
    expect(seen).toEqual(["dark"]);
    expect(host.theme()).toBe("dark");
  });
});

describe("kind and label", () => {
  it("is the Excel host", () => {
    const { host } = setup();
    expect(host.kind).toBe("excel");
    expect(host.label).toBe("Excel");
  });
});

describe("the right-click command where it cannot act (ContextMenuApi 1.1)", () => {
  it("disables Disconnect report here off every placement and enables it over one, asking once per change", async () => {
    const { mock, host } = setup({ sets: { ContextMenuApi: "1.1" } });
    host.offerCellCommands?.({ disconnectHere: false });
    host.offerCellCommands?.({ disconnectHere: false });
    host.offerCellCommands?.({ disconnectHere: true });
    await Promise.resolve();
    expect(mock.state.contextMenuUpdates).toEqual([
      "DisconnectReportHere disabled",
      "DisconnectReportHere enabled",
    ]);
    expect(mock.state.requirementChecks).toContain("ContextMenuApi 1.1");
  });

  it("leaves the menu as it is where Office does not support the set (the command says why itself)", async () => {
    const errors: unknown[] = [];
    const { mock, host } = setup({}, { onBackgroundError: (e) => errors.push(e) });
    host.offerCellCommands?.({ disconnectHere: false });
    await Promise.resolve();
    expect(mock.state.contextMenuUpdates).toEqual([]);
    expect(errors).toEqual([]);
  });
});
