/**
 * An Excel workbook as office-addin-mock objects, with counters: how many `context.sync()` calls,
 * which custom properties were written, which event handlers were added. Excel's proxy objects
 * are `OfficeMockObject`s, so a property read before `load` + `sync` returns the mock's error
 * string ("Error, property was not loaded") and the tests catch it by asserting values.
 *
 * The `Office` namespace (common API: requirements, theme, partition key, document settings) has
 * no load/sync semantics in Office.js, so it is a plain object here.
 */
import { OfficeMockObject } from "office-addin-mock";
import { createMemorySecretStore } from "../../src/hosts/direct-gateway.js";
import { createExcelHost, type ExcelHost } from "../../src/hosts/excel/host.js";
import type { ExcelApi, OfficeApi, OfficeRuntimeStorage } from "../../src/hosts/excel/office.js";

interface MockSheet {
  id: string;
  name: string;
}

export interface ExcelMockOptions {
  workbookName?: string;
  sheets?: MockSheet[];
  /** Index into `sheets` of the active one. */
  active?: number;
  /** The active cell's address as Excel gives it ("'Q1 Sales'!B2"). */
  activeAddress?: string;
  /** The workbook id already stored in the file, if any. */
  storedWorkbookId?: string;
  /** The highest ExcelApi requirement set the host supports ("1.17" by default). */
  excelApi?: string;
  bodyBackgroundColor?: string;
  partitionKey?: string;
}

type Handler = (args: unknown) => Promise<unknown> | unknown;

interface ExcelMockState {
  syncs: number;
  customWrites: { key: string; value: unknown }[];
  customReads: number;
  handlers: Record<string, Handler[]>;
  documentSettingsWrites: { name: string; value: unknown }[];
  documentHandlers: { eventType: unknown; handler: Handler }[];
  activated: string[];
  selected: string[];
  shownAsTaskpane: number;
  /** What `worksheets.load(...)` was asked for. */
  sheetCollectionLoads: unknown[];
}

export interface ExcelMock {
  Excel: ExcelApi;
  Office: OfficeApi;
  state: ExcelMockState;
  /** The user moves to another cell (and, optionally, sheet); no event is fired. */
  moveTo(address: string, sheet?: MockSheet): void;
  /** Fires every handler added for `event` ("onSelectionChanged", "onNameChanged", ...). */
  fire(event: string, args?: unknown): Promise<void>;
  /** The value of the workbook id property as stored in the file. */
  storedWorkbookId(): unknown;
  setBackground(color: string): void;
}

const SHEETS: MockSheet[] = [
  { id: "{00000000-0001-0000-0000-000000000000}", name: "Sales" },
  { id: "{00000000-0001-0000-0100-000000000000}", name: "Q1 Sales" },
];

function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function itemNotFound(key: string): Error {
  return Object.assign(new Error(`The requested resource doesn't exist: ${key}`), { code: "ItemNotFound" });
}

export function createExcelMock(options: ExcelMockOptions = {}): ExcelMock {
  const sheets = (options.sheets ?? SHEETS).map((s) => ({ ...s }));
  const excelApi = options.excelApi ?? "1.17";
  const state: ExcelMockState = {
    syncs: 0,
    customWrites: [],
    customReads: 0,
    handlers: {},
    documentSettingsWrites: [],
    documentHandlers: [],
    activated: [],
    selected: [],
    shownAsTaskpane: 0,
    sheetCollectionLoads: [],
  };
  const active = sheets[options.active ?? 0]!;

  const eventSource = (name: string) => ({
    add(handler: Handler) {
      state.handlers[name] ??= [];
      state.handlers[name].push(handler);
      return { context: null, remove() {} };
    },
  });

  const excel = new OfficeMockObject({
    context: {
      workbook: {
        name: options.workbookName ?? "Budget.xlsx",
        activeCell: { address: options.activeAddress ?? `${active.name}!B2` },
        getActiveCell() {
          return this.activeCell;
        },
        properties: {
          custom: {
            // An empty value stands for "no such property" (the mock cannot hold a null).
            idItem: { value: options.storedWorkbookId ?? "" },
            getItemOrNullObject(_key: string) {
              state.customReads++;
              return this.idItem;
            },
            add(key: string, value: unknown) {
              state.customWrites.push({ key, value });
              (this.idItem as { value: unknown }).value = value;
              return this.idItem;
            },
          },
        },
        worksheets: {
          active: { id: active.id, name: active.name },
          items: sheets,
          getActiveWorksheet() {
            return this.active;
          },
          load(what: unknown) {
            state.sheetCollectionLoads.push(what);
            // Collections load their items; the mock's own load keeps "not loaded before sync".
            return OfficeMockObject.prototype.load.call(this, "items");
          },
          getItem(key: string) {
            const sheet = sheets.find((s) => s.id === key || s.name === key);
            if (!sheet) throw itemNotFound(key);
            return {
              activate() {
                state.activated.push(sheet.id);
              },
              getRange(address: string) {
                return {
                  select() {
                    state.selected.push(`${sheet.name}!${address}`);
                  },
                };
              },
            };
          },
          onSelectionChanged: eventSource("onSelectionChanged"),
          onActivated: eventSource("onActivated"),
          onAdded: eventSource("onAdded"),
          onDeleted: eventSource("onDeleted"),
          onNameChanged: eventSource("onNameChanged"),
        },
      },
    },
    run: async function (this: { context: unknown }, batch: (context: unknown) => Promise<unknown>) {
      return batch(this.context);
    },
  });

  // Count round trips: every `context.sync()` the code makes.
  const context = excel.context as OfficeMockObject;
  const sync = context.sync.bind(context);
  context.sync = async () => {
    state.syncs++;
    await sync();
  };

  const office = {
    context: {
      requirements: {
        isSetSupported(name: string, minVersion = "1.1") {
          return name === "ExcelApi" && compareVersions(minVersion, excelApi) <= 0;
        },
      },
      officeTheme: { bodyBackgroundColor: options.bodyBackgroundColor ?? "#FFFFFF" },
      partitionKey: options.partitionKey ?? "",
      document: {
        settings: {
          set(name: string, value: unknown) {
            state.documentSettingsWrites.push({ name, value });
          },
          saveAsync() {},
        },
        addHandlerAsync(eventType: unknown, handler: Handler, callback?: (r: { status: string }) => void) {
          state.documentHandlers.push({ eventType, handler });
          callback?.({ status: "succeeded" });
        },
      },
    },
    EventType: { DocumentSelectionChanged: "documentSelectionChanged" },
    addin: {
      async showAsTaskpane() {
        state.shownAsTaskpane++;
      },
    },
  };

  const workbook = context.workbook as OfficeMockObject;
  return {
    Excel: excel as unknown as ExcelApi,
    Office: office as unknown as OfficeApi,
    state,
    moveTo(address, sheet) {
      if (sheet) {
        workbook.worksheets.active.id = sheet.id;
        workbook.worksheets.active.name = sheet.name;
      }
      workbook.activeCell.address = address;
    },
    async fire(event, args = {}) {
      for (const handler of state.handlers[event] ?? []) await handler(args);
      for (const { handler } of event === "DocumentSelectionChanged" ? state.documentHandlers : []) {
        await handler(args);
      }
    },
    storedWorkbookId() {
      return workbook.properties.custom.idItem.value;
    },
    setBackground(color) {
      office.context.officeTheme.bodyBackgroundColor = color;
    },
  };
}

/** `OfficeRuntime.storage` in memory. */
export function createRuntimeStorage(): OfficeRuntimeStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    async getItem(key) {
      return data.get(key) ?? null;
    },
    async setItem(key, value) {
      data.set(key, value);
    },
    async removeItem(key) {
      data.delete(key);
    },
  };
}

/** A `Storage` (localStorage) in memory. */
export function createMemoryStorage(): Storage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (key) => {
      data.delete(key);
    },
    setItem: (key, value) => {
      data.set(key, String(value));
    },
  };
}

/**
 * The Excel host most tests want: over a mocked workbook (`options`), settings in memory, no window
 * to listen on; `deps` adds or overrides the host's dependencies (a gateway, a transport).
 */
export function mockedExcelHost(
  options: ExcelMockOptions = {},
  deps: Parameters<typeof createExcelHost>[0] = {},
): { mock: ExcelMock; host: ExcelHost } {
  const mock = createExcelMock(options);
  const host = createExcelHost({
    Excel: mock.Excel,
    Office: mock.Office,
    store: createMemorySecretStore(),
    window: null,
    ...deps,
  });
  return { mock, host };
}
