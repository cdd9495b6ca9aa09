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
import { HOST_PROFILES, type HostProfileName, supportsSet } from "./host-profiles.js";

export { HOST_PROFILES, type HostProfileName } from "./host-profiles.js";

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
  /** The host's requirement sets (HOST_PROFILES); Excel on the web by default. */
  profile?: HostProfileName;
  /** Overrides the profile's highest ExcelApi requirement set. */
  excelApi?: string;
  /** Further requirement sets the host supports ({ ContextMenuApi: "1.1" }). */
  sets?: Record<string, string>;
  bodyBackgroundColor?: string;
  partitionKey?: string;
  /**
   * What `Office.addin.showAsTaskpane()` does: "shows" the pane (then Office reports
   * `onVisibilityModeChanged` "Taskpane"); "ignored", as Office does for add-ins published in
   * Microsoft's Marketplace since 23 February 2026 (it resolves and nothing changes:
   * learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in); or "rejects".
   */
  showAsTaskpane?: "shows" | "ignored" | "rejects";
}

/** A dialog opened with `Office.context.ui.displayDialogAsync`. */
export interface MockDialog {
  url: string;
  options: unknown;
  closed: boolean;
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
  /** Whether the task pane is in view (it starts hidden, as on a right-click's cold start). */
  paneVisible: boolean;
  visibilityHandlers: ((args: { visibilityMode: string }) => void)[];
  dialogs: MockDialog[];
  /** What `worksheets.load(...)` was asked for. */
  sheetCollectionLoads: unknown[];
  /** Every `isSetSupported(name, minVersion)` the code asked, as "name minVersion". */
  requirementChecks: string[];
  /** Every `Office.contextMenu.requestUpdate` the code made, as "control enabled|disabled". */
  contextMenuUpdates: string[];
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

function itemNotFound(key: string): Error {
  return Object.assign(new Error(`The requested resource doesn't exist: ${key}`), { code: "ItemNotFound" });
}

export function createExcelMock(options: ExcelMockOptions = {}): ExcelMock {
  const sheets = (options.sheets ?? SHEETS).map((s) => ({ ...s }));
  const sets: Record<string, string> = {
    ...HOST_PROFILES[options.profile ?? "web"],
    ...(options.excelApi ? { ExcelApi: options.excelApi } : {}),
    ...options.sets,
  };
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
    paneVisible: false,
    visibilityHandlers: [],
    dialogs: [],
    sheetCollectionLoads: [],
    requirementChecks: [],
    contextMenuUpdates: [],
  };
  const showBehaviour = options.showAsTaskpane ?? "shows";
  const active = sheets[options.active ?? 0]!;

  // An event added on a host whose ExcelApi is older than the event fails as Excel's does
  // (ApiNotFound), so an unguarded use shows up in the tests of that profile.
  const eventSource = (name: string, since = "1.7") => ({
    add(handler: Handler) {
      if (!supportsSet(sets, "ExcelApi", since)) {
        throw Object.assign(new Error(`${name} needs ExcelApi ${since}`), { code: "ApiNotFound" });
      }
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
          // WorksheetCollection.onSelectionChanged: ExcelApi 1.9; onNameChanged: ExcelApi 1.17.
          onSelectionChanged: eventSource("onSelectionChanged", "1.9"),
          onActivated: eventSource("onActivated"),
          onAdded: eventSource("onAdded"),
          onDeleted: eventSource("onDeleted"),
          onNameChanged: eventSource("onNameChanged", "1.17"),
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
          state.requirementChecks.push(`${name} ${minVersion}`);
          return supportsSet(sets, name, minVersion);
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
    // ContextMenuApi 1.1: present in the namespace whatever the host supports (as Office.js is one
    // library for every host); the code must ask isSetSupported before relying on it.
    contextMenu: {
      async requestUpdate(input: { controls: { id: string; enabled: boolean }[] }) {
        if (!supportsSet(sets, "ContextMenuApi", "1.1")) {
          throw Object.assign(new Error("This API is not supported."), { code: "ApiNotFound" });
        }
        for (const c of input.controls)
          state.contextMenuUpdates.push(`${c.id} ${c.enabled ? "enabled" : "disabled"}`);
      },
    },
    EventType: {
      DocumentSelectionChanged: "documentSelectionChanged",
      DialogMessageReceived: "dialogMessageReceived",
      DialogEventReceived: "dialogEventReceived",
    },
    addin: {
      async showAsTaskpane() {
        state.shownAsTaskpane++;
        if (showBehaviour === "rejects") throw new Error("The task pane could not be shown.");
        if (showBehaviour === "ignored" || state.paneVisible) return;
        state.paneVisible = true;
        // Office raises VisibilityModeChanged when showAsTaskpane changes the visibility.
        setTimeout(() => {
          for (const handler of state.visibilityHandlers) handler({ visibilityMode: "Taskpane" });
        });
      },
      // SharedRuntime 1.1: resolves to the function that removes the handler.
      async onVisibilityModeChanged(handler: (args: { visibilityMode: string }) => void) {
        state.visibilityHandlers.push(handler);
        return async () => {
          state.visibilityHandlers = state.visibilityHandlers.filter((h) => h !== handler);
        };
      },
    },
  };
  // DialogApi 1.1 (learn.microsoft.com/office/dev/add-ins/develop/dialog-api-in-office-add-ins):
  // the dialog's page must be HTTPS on the opener's own domain, and one dialog at a time (12007).
  (office.context as Record<string, unknown>).ui = {
    displayDialogAsync(
      url: string,
      dialogOptions: unknown,
      callback: (result: { status: string; value?: unknown; error?: { code: number } }) => void,
    ) {
      const answer = (result: Parameters<typeof callback>[0]) => setTimeout(() => callback(result));
      if (!url.startsWith("https://")) return answer({ status: "failed", error: { code: 12003 } });
      if (state.dialogs.some((d) => !d.closed)) return answer({ status: "failed", error: { code: 12007 } });
      const dialog: MockDialog = { url, options: dialogOptions, closed: false };
      state.dialogs.push(dialog);
      answer({
        status: "succeeded",
        value: {
          close() {
            dialog.closed = true;
          },
          addEventHandler() {},
        },
      });
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
