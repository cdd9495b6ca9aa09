/**
 * A small in-memory SpreadsheetHost for the task pane's tests, and helpers to render the pane into
 * jsdom and wait for it. The fake service applies disconnects with the sandbox's rules (the service's side, written apart from the client's).
 */
import { act } from "react";
import { beforeEach, onTestFinished } from "vitest";
import type { AgentAnswer } from "../../src/core/chat-request.js";
// The service's side of the disconnect rules: the sandbox's, written from the spec, not the client's.
import type { LoadAnswer } from "../../src/core/data-api.js";
import { PlatformError } from "../../src/core/errors.js";
import { formatCell, parseCell, rangeOf } from "../../src/core/location.js";
import { type PlaceItem, type PlaceOutcome, runPlace } from "../../src/core/place-flow.js";
import {
  type CellBlock,
  type CellRead,
  type RefreshOutcome,
  runRefresh,
} from "../../src/core/refresh-flow.js";
import type { RefreshItem } from "../../src/core/refresh-plan.js";
import type {
  ConnectWorkbookInput,
  DisconnectInput,
  Report,
  ReportPlacement,
} from "../../src/core/schema.js";
import type {
  ActiveContext,
  AskInput,
  AskOptions,
  HostCommand,
  PublicSettings,
  ScimUserPage,
  SettingsPatch,
  SheetInfo,
  SpreadsheetHost,
  WorkbookSnapshot,
} from "../../src/hosts/host.js";
import { forgetKeptLists } from "../../src/hosts/list-cache.js";
import { withoutPlacement } from "../../src/sandbox/placement-rules.js";
// And of connect-workbook (create, update, addressOnly).
import { connectPlacement } from "../../src/sandbox/placing.js";
import { WAIT_LIMIT_MS } from "./waits.js";

// Each test opens the pane in a fresh session: no list kept by an earlier test (src/hosts/list-cache.ts).
beforeEach(() => forgetKeptLists());

// jsdom lacks a few browser APIs Fluent reaches for.
if (typeof window !== "undefined") {
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener() {},
    removeListener() {},
    addEventListener() {},
    removeEventListener() {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

export const WORKBOOK_ID = "wb-1";
export const SALES_ID = "sheet-sales";
const REGIONS_ID = "sheet-regions";
const PIPELINE_ID = "sheet-pipeline-new";

export const SHEETS: SheetInfo[] = [
  { id: SALES_ID, name: "Sales" },
  { id: REGIONS_ID, name: "Regions" },
  { id: PIPELINE_ID, name: "Pipeline" },
];

const owner = { id: 1, email: "ann@example.com", firstName: "Ann", picture: null };

export function report(id: number, name: string, placements: ReportPlacement[]): Report {
  return {
    id,
    publicId: `abcdefghij${String(id).padStart(2, "0")}`,
    deploymentId: 1,
    userId: 1,
    user: owner,
    name,
    refreshedByUser: owner,
    createdAt: "2024-01-01",
    updatedAt: "2024-01-02",
    type: "REPORT",
    externalWorkbookPlacements: placements,
  };
}

const HOUR = 3600_000;
function hoursAgo(h: number): string {
  return new Date(Date.now() - h * HOUR).toISOString();
}

/** Revenue by region: two placements here (Sales, Regions renamed from Regional), one elsewhere. */
export function demoReports(): Report[] {
  return [
    report(101, "Revenue by region", [
      {
        id: "p-rev-sales",
        workbookId: WORKBOOK_ID,
        workbookName: "Q3.xlsx",
        host: "EXCEL",
        sheetId: SALES_ID,
        sheetName: "Sales",
        anchorCell: "B2",
        resultLocation: "Sales!B2",
        endResultCell: "F20",
        syncStatus: "UP_TO_DATE",
        refreshedAt: hoursAgo(3),
      },
      {
        id: "p-rev-regions",
        workbookId: WORKBOOK_ID,
        workbookName: "Q3.xlsx",
        host: "EXCEL",
        sheetId: REGIONS_ID,
        sheetName: "Regional",
        anchorCell: "A1",
        resultLocation: "Regional!A1",
        endResultCell: "C5",
        syncStatus: "CHANGED",
        refreshedAt: hoursAgo(26),
      },
      {
        id: "p-rev-board",
        workbookId: "wb-other",
        workbookName: "Board Pack 2024",
        host: "GOOGLE_SHEETS",
        sheetId: "0",
        sheetName: "KPIs",
        anchorCell: "A1",
        resultLocation: "KPIs!A1",
        endResultCell: "D9",
        syncStatus: "UP_TO_DATE",
      },
    ]),
    report(102, "Pipeline by stage", [
      {
        // An older placement: no id; stored under the tab's previous id (the tab was recreated).
        workbookId: WORKBOOK_ID,
        sheetId: "sheet-pipeline-old",
        sheetName: "Pipeline",
        anchorCell: "B3",
        resultLocation: "Pipeline!B3",
        endResultCell: "E12",
        syncStatus: "UNKNOWN",
      },
    ]),
    report(103, "Top customers", [
      {
        id: "p-top",
        workbookId: WORKBOOK_ID,
        sheetId: SALES_ID,
        sheetName: "Sales",
        anchorCell: "H2",
        resultLocation: "Sales!H2",
        endResultCell: "J10",
        // What the client's tolerant parsing makes of a status it does not know.
        syncStatus: null,
      },
    ]),
  ];
}

/**
 * The demo's reports with the renamed tab's placement already recorded under the tab's new name (as
 * the pane leaves it after correcting it), for tests about something else than that correction.
 */
export function settledDemoReports(): Report[] {
  return demoReports().map((r) => ({
    ...r,
    externalWorkbookPlacements: r.externalWorkbookPlacements?.map((p) =>
      p.id === "p-rev-regions" ? { ...p, sheetName: "Regions", resultLocation: "Regions!A1" } : p,
    ),
  }));
}

export function ctx(sheetName: string, cell: string, sheetId: string | null = null): ActiveContext {
  const id = sheetId ?? SHEETS.find((s) => s.name === sheetName)?.id ?? null;
  return { workbookId: WORKBOOK_ID, workbookName: "Q3 Revenue Review.xlsx", sheetId: id, sheetName, cell };
}

export const CONNECTED: PublicSettings = {
  tenantUrl: "https://acme.example.com",
  deploymentId: 1,
  chatUrl: "https://ai.example.com/api/v1/public/acme/agents/a1/chat/stream-chat-state",
  externalId: "ann",
  email: "ann@example.com",
  userAttributes: [],
  apiKeySet: true,
  agentApiKeySet: true,
  scimTokenSet: false,
  chatUrlConfirmed: false,
};

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface FakeHostOptions {
  settings?: PublicSettings;
  reports?: Report[];
  context?: ActiveContext;
  problems?: string[];
  /** Makes loadWorkbook fail with this error (until cleared). */
  loadError?: unknown;
  /** Holds each disconnect until the test releases it. */
  holdDisconnects?: boolean;
  ask?: (request: AskInput, options: AskOptions) => Promise<AgentAnswer>;
  scimPages?: ScimUserPage[];
}

export class FakeHost implements SpreadsheetHost {
  readonly kind = "preview" as const;
  readonly label = "Preview";
  settings: PublicSettings;
  reports: Report[];
  context: ActiveContext;
  problems: string[];
  loadError: unknown;
  holdDisconnects: boolean;
  /** Makes connect-workbook fail with this error (until cleared). */
  connectError: unknown;
  private placedCount = 0;
  readonly calls = {
    loadWorkbook: 0,
    disconnect: [] as { deploymentId: number; reportId: number; input: DisconnectInput }[],
    connect: [] as { deploymentId: number; reportId: number; input: ConnectWorkbookInput }[],
    selectRange: [] as { sheetId: string | null; sheetName: string; range: string }[],
    saveSettings: [] as SettingsPatch[],
    ask: [] as AskInput[],
    abortChat: [] as string[],
    listScimUsers: [] as { count: number; startIndex: number }[],
    offerCellCommands: [] as boolean[],
  };
  readonly pendingDisconnects: Deferred<void>[] = [];
  /** The sheets loadWorkbook answers (a test adds one to stand for a tab added in the host). */
  sheets: SheetInfo[] = SHEETS;
  private contextListeners = new Set<(c: ActiveContext) => void>();
  private workbookListeners = new Set<() => void>();
  private commandListeners = new Set<(c: HostCommand) => void>();
  private askImpl: FakeHostOptions["ask"];
  private scimPages: ScimUserPage[];

  constructor(options: FakeHostOptions = {}) {
    this.settings = options.settings ?? CONNECTED;
    this.reports = options.reports ?? demoReports();
    this.context = options.context ?? ctx("Sales", "A1");
    this.problems = options.problems ?? [];
    this.loadError = options.loadError;
    this.holdDisconnects = options.holdDisconnects ?? false;
    this.askImpl = options.ask;
    this.scimPages = options.scimPages ?? [];
  }

  readonly platform = {
    getSettings: async () => this.settings,
    saveSettings: async (patch: SettingsPatch) => {
      this.calls.saveSettings.push(patch);
      const { apiKey, agentApiKey, scimToken, ...rest } = patch;
      this.settings = {
        ...this.settings,
        ...rest,
        apiKeySet: apiKey !== undefined ? apiKey !== "" : this.settings.apiKeySet,
        agentApiKeySet: agentApiKey !== undefined ? agentApiKey !== "" : this.settings.agentApiKeySet,
        scimTokenSet: scimToken !== undefined ? scimToken !== "" : this.settings.scimTokenSet,
      };
      return this.settings;
    },
    listDeployments: async () => [
      { id: 1, name: "Production" },
      { id: 2, name: "Staging" },
    ],
    disconnect: async (deploymentId: number, reportId: number, input: DisconnectInput) => {
      this.calls.disconnect.push({ deploymentId, reportId, input });
      if (this.holdDisconnects) {
        const gate = deferred<void>();
        this.pendingDisconnects.push(gate);
        await gate.promise;
      }
      const current = this.reports.find((r) => r.id === reportId && r.deploymentId === deploymentId);
      if (!current) throw { kind: "not-found", message: "Not found (404)." };
      const next = withoutPlacement(current, input);
      this.reports = this.reports.map((r) => (r === current ? next : r));
      return next;
    },
    connectReportToWorkbook: async (deploymentId: number, reportId: number, input: ConnectWorkbookInput) => {
      this.calls.connect.push({ deploymentId, reportId, input });
      if (this.connectError !== undefined) throw this.connectError;
      const current = this.reports.find((r) => r.id === reportId && r.deploymentId === deploymentId);
      if (!current) throw new PlatformError("not-found", "The report was not found (404).", { status: 404 });
      let next: Report;
      try {
        next = connectPlacement(current, input, {
          now: "2026-11-27T10:00:00.000Z",
          userId: 1,
          newId: () => `plc-fake-${++this.placedCount}`,
        });
      } catch (error) {
        const status = (error as { status?: number }).status ?? 500;
        throw new PlatformError(status === 404 ? "not-found" : "bad-request", (error as Error).message, {
          status,
        });
      }
      this.reports = this.reports.map((r) => (r === current ? next : r));
      return next;
    },
    listScimUsers: async (page: { count: number; startIndex: number }) => {
      this.calls.listScimUsers.push(page);
      const found = this.scimPages.find((p) => p.startIndex === page.startIndex);
      return found ?? { users: [], totalResults: 0, startIndex: page.startIndex, itemsPerPage: page.count };
    },
    ask: async (request: AskInput, options: AskOptions = {}) => {
      this.calls.ask.push(request);
      if (!this.askImpl) throw new Error("no agent in this test");
      return this.askImpl(request, options);
    },
    abortChat: async (chatId: string) => {
      this.calls.abortChat.push(chatId);
    },
  };

  async activeContext() {
    return this.context;
  }

  async loadWorkbook(): Promise<WorkbookSnapshot> {
    this.calls.loadWorkbook += 1;
    if (this.loadError !== undefined) throw this.loadError;
    return { context: this.context, sheets: this.sheets, reports: this.reports, problems: this.problems };
  }

  onContextChanged(listener: (c: ActiveContext) => void) {
    this.contextListeners.add(listener);
    return () => this.contextListeners.delete(listener);
  }

  onWorkbookChanged(listener: () => void) {
    this.workbookListeners.add(listener);
    return () => this.workbookListeners.delete(listener);
  }

  async selectRange(target: { sheetId: string | null; sheetName: string; range: string }) {
    this.calls.selectRange.push(target);
  }

  offerCellCommands(offer: { disconnectHere: boolean }) {
    this.calls.offerCellCommands.push(offer.disconnectHere);
  }

  onCommand(listener: (c: HostCommand) => void) {
    this.commandListeners.add(listener);
    return () => this.commandListeners.delete(listener);
  }

  theme(): "light" | "dark" {
    return "light";
  }

  onThemeChanged() {
    return () => {};
  }

  /** The user moves the selection. */
  select(context: ActiveContext) {
    this.context = context;
    for (const l of this.contextListeners) l(context);
  }

  /** The workbook changed where the context does not show it (Google Sheets' polled revision). */
  changeWorkbook() {
    for (const l of this.workbookListeners) l();
  }

  /** The right-click "Disconnect report here"; resolves with what the pane reported. */
  command(context: ActiveContext): Promise<{ ok: boolean; message: string }> {
    return new Promise((resolve) => {
      for (const l of this.commandListeners) l({ type: "disconnect-here", context, done: resolve });
    });
  }
}

/** Lets promises, timers and React settle. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

export interface Rendered {
  container: HTMLElement;
  unmount(): void;
}

export function buttonByName(root: ParentNode, name: string): HTMLButtonElement {
  const found = [...root.querySelectorAll("button")].find(
    (b) => (b.getAttribute("aria-label") ?? b.textContent ?? "").trim() === name,
  );
  if (!found) throw new Error(`no button named "${name}"`);
  return found;
}

export function queryButton(root: ParentNode, name: string): HTMLButtonElement | undefined {
  return [...root.querySelectorAll("button")].find(
    (b) => (b.getAttribute("aria-label") ?? b.textContent ?? "").trim() === name,
  );
}

export async function click(el: Element): Promise<void> {
  await act(async () => {
    (el as HTMLElement).click();
  });
}

/** The input a `<label>` with this text labels. */
export function fieldByLabel(root: ParentNode, text: string): HTMLInputElement | HTMLTextAreaElement {
  const label = [...root.querySelectorAll("label")].find((l) => l.textContent?.trim() === text);
  if (!label) throw new Error(`no label "${text}"`);
  const id = label.getAttribute("for");
  const el = id ? document.getElementById(id) : null;
  if (!el) throw new Error(`label "${text}" labels nothing`);
  return el as HTMLInputElement | HTMLTextAreaElement;
}

/** Types into a React-controlled input the way a user does. */
export async function typeInto(el: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const proto =
    el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  await act(async () => {
    setter?.call(el, value);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

/**
 * Settles until `check` passes (lazy chunks and streams take a few rounds), or fails with its error.
 * It gives up only at WAIT_LIMIT_MS, just inside the test's own time limit (waits.ts): how many
 * rounds a lazy chunk takes depends on the machine's load, and a shorter deadline failed tests on a
 * busy machine. `timeoutMs` is for a test that sets a longer limit of its own.
 */
export async function waitFor(check: () => void, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // A test that ended (its time limit ran out first) stops its wait: no loop left running into the
  // next test's page.
  let ended = false;
  try {
    onTestFinished(() => {
      ended = true;
    });
  } catch {
    // Outside a test (a hook): the hook's own time limit ends it.
  }
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (ended || Date.now() > deadline) throw error;
      await act(async () => {
        await new Promise((r) => setTimeout(r, 10));
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A host that writes and reads cells: Refresh, Place a report here and hand edits.

/** A report's answer of `rows` rows under a "Region" and a "Count" column (the grid adds a header row). */
export function regionAnswer(rows: number): LoadAnswer {
  return {
    query: { dimensions: ["orders.region"], measures: ["orders.count"] },
    data: Array.from({ length: rows }, (_, i) => ({
      "orders.region": `R${i + 1}`,
      "orders.count": String(i + 1),
    })),
    annotation: {
      measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
      dimensions: { "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" } },
      segments: {},
      timeDimensions: {},
    },
    lastRefreshTime: null,
    total: rows,
  };
}

/**
 * FakeHost with cells (by sheet name and A1), the core's refresh and place flows over them, and a
 * service that records as the sandbox does: a refresh or a place leaves the placement UP_TO_DATE
 * with the checksum sent; a place without `placementId` creates the placement, or updates the one
 * at the same workbook, sheet and anchor. `catalogue` is the deployment's reports.
 */
export class CellsFakeHost extends FakeHost {
  readonly cells = new Map<string, unknown>();
  catalogue: Report[] = [];
  /** Rows each report's data answers with. */
  answerRows = 3;
  readonly cellCalls = { read: [] as CellRead[], connect: 0, record: 0 };
  private nextId = 1;

  private key(sheet: string, cell: string) {
    return `${sheet}!${cell}`;
  }

  /** The user types into a cell. */
  type(sheet: string, cell: string, value: unknown) {
    this.cells.set(this.key(sheet, cell), value);
  }

  private write(block: CellBlock) {
    const start = parseCell(block.topLeft)!;
    for (const address of block.clear) {
      const [a, b] = address.split(":");
      const r = rangeOf(a!, b)!;
      for (let row = r.top; row <= r.bottom; row++)
        for (let col = r.left; col <= r.right; col++)
          this.cells.delete(this.key(block.sheet.name, formatCell({ row, col })));
    }
    block.values.forEach((line, r) => {
      line.forEach((v, c) => {
        this.cells.set(
          this.key(block.sheet.name, formatCell({ row: start.row + r, col: start.col + c })),
          v ?? "",
        );
      });
    });
  }

  private read(read: CellRead): unknown[][] {
    const [a, b] = read.range.split(":");
    const r = rangeOf(a!, b)!;
    const out: unknown[][] = [];
    for (let row = r.top; row <= r.bottom; row++) {
      const line: unknown[] = [];
      for (let col = r.left; col <= r.right; col++)
        line.push(this.cells.get(this.key(read.sheet.name, formatCell({ row, col }))) ?? "");
      out.push(line);
    }
    return out;
  }

  private store(updated: Report): Report {
    const known = this.reports.some((r) => r.id === updated.id);
    this.reports = known
      ? this.reports.map((r) => (r.id === updated.id ? updated : r))
      : [...this.reports, updated];
    return updated;
  }

  private reportOf(id: number): Report {
    const found = this.reports.find((r) => r.id === id) ?? this.catalogue.find((r) => r.id === id);
    if (!found) throw { kind: "not-found", message: "Not found (404)." };
    return found;
  }

  async listDeploymentReports(): Promise<Report[]> {
    return this.catalogue;
  }

  async readCells(read: CellRead): Promise<unknown[][]> {
    this.cellCalls.read.push(read);
    return this.read(read);
  }

  async placeReport(
    item: PlaceItem,
    handlers: import("../../src/hosts/host.js").PlaceHandlers,
  ): Promise<PlaceOutcome> {
    return runPlace(item, {
      load: async () => regionAnswer(this.answerRows),
      read: async (r) => this.read(r),
      write: async (b) => this.write(b),
      getReport: async () => this.reportOf(item.placement.report.id),
      confirmOverwrite: (_i, q) => handlers.confirmOverwrite(q),
      connect: async (_i, input) => {
        this.cellCalls.connect++;
        const report = this.reportOf(item.placement.report.id);
        const placements = (report.externalWorkbookPlacements ?? []).filter(
          (p) =>
            !(
              p.workbookId === input.externalWorkbookId &&
              p.sheetName === input.sheetName &&
              p.anchorCell === input.anchorCell
            ),
        );
        placements.push({
          id: `new-${this.nextId++}`,
          workbookId: input.externalWorkbookId,
          workbookName: input.workbookName ?? null,
          sheetId: input.sheetId ?? null,
          sheetName: input.sheetName ?? null,
          anchorCell: input.anchorCell ?? null,
          endResultCell: input.endResultCell ?? null,
          resultLocation: input.resultLocation,
          host: input.host ?? null,
          resultChecksum: input.resultChecksum ?? null,
          queryChecksum: report.currentQueryChecksum ?? "q",
          syncStatus: "UP_TO_DATE",
          placedAt: "2026-11-27T09:00:00Z",
          refreshedAt: new Date().toISOString(),
        });
        return this.store({ ...report, externalWorkbookPlacements: placements });
      },
    });
  }

  async refreshPlacements(
    items: readonly RefreshItem[],
    handlers: import("../../src/hosts/host.js").RefreshHandlers,
  ): Promise<RefreshOutcome[]> {
    return runRefresh(
      items,
      {
        load: async () => regionAnswer(this.answerRows),
        read: async (r) => this.read(r),
        write: async (b) => this.write(b),
        confirmOverwrite: (_i, q) => handlers.confirmOverwrite(q),
        record: async (item, input) => {
          this.cellCalls.record++;
          const report = this.reportOf(item.placement.report.id);
          const placements = (report.externalWorkbookPlacements ?? []).map((p) =>
            p.id === item.placement.id
              ? {
                  ...p,
                  resultChecksum: input.resultChecksum ?? null,
                  endResultCell: input.endResultCell ?? p.endResultCell,
                  syncStatus: "UP_TO_DATE" as const,
                }
              : p,
          );
          return this.store({ ...report, externalWorkbookPlacements: placements });
        },
      },
      { signal: handlers.signal, onProgress: handlers.onProgress, onOutcome: handlers.onOutcome },
    );
  }
}
