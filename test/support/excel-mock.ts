/**
 * An Excel workbook and Office.js for the Excel host's Node tests, with counters: how many
 * `context.sync()` calls, which custom properties were written, which event handlers were added.
 * Excel's objects follow Office's request-context rules (office-proxy.ts, from Microsoft's
 * documentation): each `Excel.run` has proxies of its own; a property answers only after `load`
 * and a `context.sync()` (else `PropertyNotLoaded`); commands (`add`, `activate`, `select`, an
 * event's `add`) take effect at the sync; `worksheets.getItem` of a sheet that is not there fails
 * the sync with `ItemNotFound`; `getItemOrNullObject` of a missing property gives a null object.
 *
 * The `Office` namespace (common API: requirements, theme, partition key, document settings) has
 * no load/sync semantics in Office.js, so it is a plain object here.
 */
import { createMemorySecretStore } from "../../src/hosts/direct-gateway.js";
import { createExcelHost, type ExcelHost, WORKBOOK_ID_PROPERTY } from "../../src/hosts/excel/host.js";
import type { ExcelApi, OfficeApi, OfficeRuntimeStorage } from "../../src/hosts/excel/office.js";
import { HOST_PROFILES, type HostProfileName, supportsSet } from "./host-profiles.js";
import { createRequestContext, type RequestContextModel } from "./office-proxy.js";

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
  /** The value of the workbook id property as stored in the file (undefined: the file has none). */
  storedWorkbookId(): string | undefined;
  /** The file's workbook id property changes outside the pane (null: the file loses it). */
  setStoredWorkbookId(value: string | null): void;
  setBackground(color: string): void;
}

const SHEETS: MockSheet[] = [
  { id: "{00000000-0001-0000-0000-000000000000}", name: "Sales" },
  { id: "{00000000-0001-0000-0100-000000000000}", name: "Q1 Sales" },
];

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
  // (ApiNotFound), so an unguarded use shows up in the tests of that profile. A handler is
  // registered by the sync, as every command is.
  const eventSource = (model: RequestContextModel, name: string, since = "1.7") => ({
    add(handler: Handler) {
      if (!supportsSet(sets, "ExcelApi", since)) {
        throw Object.assign(new Error(`${name} needs ExcelApi ${since}`), { code: "ApiNotFound" });
      }
      model.queue(() => {
        state.handlers[name] ??= [];
        state.handlers[name].push(handler);
      });
      return { context: null, remove() {} };
    },
  });

  // The workbook as it is; each `Excel.run` reads it through proxies of its own (office-proxy.ts).
  const workbookState = {
    name: options.workbookName ?? "Budget.xlsx",
    active: { id: active.id, name: active.name },
    activeAddress: options.activeAddress ?? `${active.name}!B2`,
    custom: new Map<string, string>(
      options.storedWorkbookId === undefined ? [] : [[WORKBOOK_ID_PROPERTY, options.storedWorkbookId]],
    ),
  };
  const sheetOf = (key: string) => sheets.find((s) => s.id === key || s.name === key);

  function requestContext() {
    const model = createRequestContext();
    const worksheet = (key: string) => {
      const sheet = () => sheetOf(key) ?? null;
      return model.proxy(() => (sheet() ? { ...sheet() } : null), {
        key,
        properties: ["id", "name", "position", "visibility"],
        methods: {
          activate() {
            model.queue(() => {
              state.activated.push(sheet()!.id);
            });
          },
          getRange(address: string) {
            return {
              select() {
                model.queue(() => {
                  state.selected.push(`${sheet()!.name}!${address}`);
                });
              },
            };
          },
        },
      });
    };
    const collectionLoad = (worksheets: { load(what?: unknown): unknown }) => {
      const load = worksheets.load;
      worksheets.load = (what?: unknown) => {
        state.sheetCollectionLoads.push(what);
        return load(what);
      };
      return worksheets;
    };
    const worksheets = collectionLoad(
      model.proxy(() => ({ items: sheets.map((s) => ({ ...s })) }), {
        properties: ["items"],
        methods: {
          getActiveWorksheet: () =>
            model.proxy(() => ({ ...workbookState.active }), {
              properties: ["id", "name", "position", "visibility"],
            }),
          getItem: worksheet,
          // WorksheetCollection.onSelectionChanged: ExcelApi 1.9; onNameChanged: ExcelApi 1.17.
          onSelectionChanged: eventSource(model, "onSelectionChanged", "1.9"),
          onActivated: eventSource(model, "onActivated"),
          onAdded: eventSource(model, "onAdded"),
          onDeleted: eventSource(model, "onDeleted"),
          onNameChanged: eventSource(model, "onNameChanged", "1.17"),
        },
      }),
    );
    const custom = {
      getItemOrNullObject(key: string) {
        state.customReads++;
        return model.proxy(
          () =>
            workbookState.custom.has(key)
              ? { key, value: workbookState.custom.get(key), type: "String" }
              : null,
          { key, properties: ["key", "value", "type"], orNull: true },
        );
      },
      // CustomPropertyCollection.add: creates the property or sets the existing one, at the sync.
      add(key: string, value: string) {
        model.queue(() => {
          state.customWrites.push({ key, value });
          workbookState.custom.set(key, value);
        });
        return model.proxy(() => ({ key, value: workbookState.custom.get(key), type: "String" }), {
          key,
          properties: ["key", "value", "type"],
        });
      },
    };
    const workbook = model.proxy(() => ({ name: workbookState.name }), {
      properties: ["name"],
      methods: {
        worksheets,
        properties: { custom },
        getActiveCell: () =>
          model.proxy(() => ({ address: workbookState.activeAddress }), { properties: ["address"] }),
      },
    });
    return {
      workbook,
      async sync() {
        // Every round trip the code makes is counted.
        state.syncs++;
        await model.sync();
      },
    };
  }

  const excel = {
    run: <T>(batch: (context: never) => Promise<T>) => batch(requestContext() as never),
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

  return {
    Excel: excel as unknown as ExcelApi,
    Office: office as unknown as OfficeApi,
    state,
    moveTo(address, sheet) {
      if (sheet) workbookState.active = { id: sheet.id, name: sheet.name };
      workbookState.activeAddress = address;
    },
    async fire(event, args = {}) {
      for (const handler of state.handlers[event] ?? []) await handler(args);
      for (const { handler } of event === "DocumentSelectionChanged" ? state.documentHandlers : []) {
        await handler(args);
      }
    },
    storedWorkbookId() {
      return workbookState.custom.get(WORKBOOK_ID_PROPERTY);
    },
    setStoredWorkbookId(value) {
      if (value === null) workbookState.custom.delete(WORKBOOK_ID_PROPERTY);
      else workbookState.custom.set(WORKBOOK_ID_PROPERTY, value);
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
