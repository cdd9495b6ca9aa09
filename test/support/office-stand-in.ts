/**
 * Office.js as far as the Excel page uses it, as a script served in place of Microsoft's CDN file
 * (no Office here). Its record is `window.__office`. Like Office:
 * - `Office.actions.associate` only registers; Office runs the command (here: the test, through
 *   `__office.associated`), possibly before the page's other code has loaded;
 * - each `Excel.run` has a request context of its own, office-proxy.ts's (bundled into the page):
 *   a property answers only after `load` and `context.sync()` (else `PropertyNotLoaded`), commands
 *   take effect at the sync, `worksheets.getItem` of a missing sheet fails the sync with
 *   `ItemNotFound`, `getItemOrNullObject` gives a null object; every sync is counted;
 * - `OfficeRuntime.storage` is the per-user store of the shared runtime.
 *
 * With `cells` (the script `excelCellsScript()` builds), the worksheets hold cells as
 * excel-cells.ts does, with Excel's rules (writes applied by `sync`, the 5 MB request limit, the
 * 5,000,000-cell read, `ItemNotFound`): the same code in Node and in the page. Its record is
 * `window.__office.cells` (a CellsWorkbook: `value`, `type`, `writeSyncs`, `failWritesAfter`).
 */
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { HOST_PROFILES, type HostProfileName } from "./host-profiles.js";

export const OFFICE_JS = "https://appsforoffice.microsoft.com/lib/1/hosted/office.js";

export interface OfficeStandInOptions {
  workbookName: string;
  /** The custom document properties the workbook already has. */
  custom?: Record<string, string>;
  sheets: { id: string; name: string }[];
  /** The active sheet's name and the active cell ("B2"). */
  active: { sheet: string; cell: string };
  /** What `OfficeRuntime.storage` already holds. */
  storage?: Record<string, string>;
  /** The host's requirement sets (host-profiles.ts); Excel on the web by default. */
  profile?: HostProfileName;
  /**
   * What `Office.addin.showAsTaskpane()` does: "shows" (the default), "ignored" as for Marketplace
   * add-ins since 23 February 2026 (learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in),
   * or "rejects".
   */
  showAsTaskpane?: "shows" | "ignored" | "rejects";
  /**
   * The pane is not in view (a shared runtime started by a right-click): the page's
   * `document.visibilityState` is "hidden" until the pane is shown, which Office then reports
   * with `onVisibilityModeChanged`.
   */
  paneHidden?: boolean;
  /**
   * What `Office.onReady` reports as the host: "Excel" by default; null as Office.js does in a page
   * opened outside Office (learn.microsoft.com/office/dev/add-ins/develop/initialize-add-in).
   */
  host?: string | null;
  /** The worksheets hold cells: the script `excelCellsScript()` resolves to. */
  cells?: string;
}

const scripts = new Map<string, Promise<string>>();

/** A test/support module bundled for the page (an IIFE defining `name`), built once per test file. */
function pageScript(file: string, name: string): Promise<string> {
  let script = scripts.get(file);
  if (!script) {
    script = (async () => {
      const result = await build({
        configFile: false,
        logLevel: "warn",
        build: {
          write: false,
          minify: false,
          lib: { entry: fileURLToPath(new URL(file, import.meta.url)), formats: ["iife"], name },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]) as { output?: { code?: string }[] }[];
      const code = outputs.flatMap((o) => o.output ?? []).find((chunk) => chunk.code)?.code;
      if (!code) throw new Error(`${file} did not build for the page.`);
      return code;
    })();
    scripts.set(file, script);
  }
  return script;
}

/**
 * test/support/excel-cells.ts bundled for the page (an IIFE defining `ExcelCells`): the stand-in's
 * cells follow the very rules the Node tests' cells follow.
 */
export function excelCellsScript(): Promise<string> {
  return pageScript("./excel-cells.ts", "ExcelCells");
}

/** The stand-in's script; Excel's request context is office-proxy.ts's, the Node fake's own. */
export async function officeStandIn({ cells, ...options }: OfficeStandInOptions): Promise<string> {
  const sets = HOST_PROFILES[options.profile ?? "web"];
  const proxy = await pageScript("./office-proxy.ts", "OfficeProxy");
  return `${proxy}
${cells ?? ""}
(() => {
  const options = ${JSON.stringify(options)};
  const sets = ${JSON.stringify(sets)};
  const state = { syncs: 0, custom: { ...(options.custom || {}) }, associated: {}, shown: 0, handlers: {},
    storage: { ...(options.storage || {}) }, active: options.active, paneVisible: !options.paneHidden,
    visibilityHandlers: [], dialogs: [], requirementChecks: [] };
  // The page of a pane that is not in view is hidden (Page Visibility API).
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (state.paneVisible ? "visible" : "hidden") });
  const newer = (a, b) => { const x = a.split(".").map(Number), y = b.split(".").map(Number);
    for (let i = 0; i < Math.max(x.length, y.length); i++) { const d = (x[i] || 0) - (y[i] || 0); if (d) return d > 0; }
    return false; };
  window.__office = state;
  // An event newer than the host's ExcelApi fails as Excel's does (ApiNotFound); a handler is
  // registered by the sync.
  const events = (model, name, since = "1.7") => ({ add(h) {
    if (!sets.ExcelApi || newer(since, sets.ExcelApi)) {
      throw Object.assign(new Error(name + " needs ExcelApi " + since), { code: "ApiNotFound" });
    }
    model.queue(() => { (state.handlers[name] ??= []).push(h); });
  } });
  const sheetNamed = (key) => options.sheets.find((s) => s.id === key || s.name === key) || null;
  const SHEET = ["id", "name", "position", "visibility"];
  state.cells = typeof ExcelCells === "undefined" ? null : ExcelCells.createCellsWorkbook(options.sheets);
  const makeContext = () => {
  const model = OfficeProxy.createRequestContext();
  const batch = state.cells ? state.cells.batch() : null;
  const worksheet = (key) => model.proxy(() => sheetNamed(key) && { ...sheetNamed(key) }, { key, properties: SHEET,
    methods: batch ? { ...batch.worksheet(key), activate() {} } : { activate() {}, getRange: () => ({ select() {} }) } });
  return {
    workbook: model.proxy(() => ({ name: options.workbookName }), { properties: ["name"], methods: {
      worksheets: model.proxy(() => ({ items: options.sheets.map((s) => ({ ...s })) }), { properties: ["items"], methods: {
        getActiveWorksheet: () => model.proxy(() => ({ ...sheetNamed(state.active.sheet) }), { properties: SHEET }),
        getItem: worksheet,
        onSelectionChanged: events(model, "selection", "1.9"), onActivated: events(model, "activated"),
        onAdded: events(model, "added"), onDeleted: events(model, "deleted"), onNameChanged: events(model, "renamed", "1.17"),
      } }),
      getActiveCell: () => model.proxy(() => ({ address: state.active.sheet + "!" + state.active.cell }), { properties: ["address"] }),
      properties: { custom: {
        getItemOrNullObject: (k) => model.proxy(() => (k in state.custom ? { key: k, value: state.custom[k], type: "String" } : null),
          { key: k, properties: ["key", "value", "type"], orNull: true }),
        add: (k, v) => { model.queue(() => { state.custom[k] = v; });
          return model.proxy(() => ({ key: k, value: state.custom[k], type: "String" }), { key: k, properties: ["key", "value", "type"] }); },
      } },
    } }),
    async sync() { state.syncs++; await model.sync(); if (batch) await batch.sync(); },
  };
  };
  window.Excel = { run: async (batch) => batch(makeContext()) };
  window.OfficeRuntime = { storage: {
    async getItem(k) { return k in state.storage ? state.storage[k] : null; },
    async setItem(k, v) { state.storage[k] = v; },
    async removeItem(k) { delete state.storage[k]; },
  } };
  window.Office = {
    onReady(cb) {
      const info = options.host === null ? { host: null, platform: null }
        : { host: options.host || "Excel", platform: "OfficeOnline" };
      setTimeout(() => cb && cb(info));
      return Promise.resolve(info);
    },
    context: {
      requirements: { isSetSupported(n, v = "1.1") {
        state.requirementChecks.push(n + " " + v);
        return n in sets && !newer(String(v), sets[n]);
      } },
      // DialogApi 1.1: one dialog at a time (12007), its page on the add-in's own origin (12003).
      ui: { displayDialogAsync(url, dialogOptions, callback) {
        const answer = (result) => setTimeout(() => callback && callback(result));
        if (new URL(url).origin !== location.origin) return answer({ status: "failed", error: { code: 12003 } });
        if (state.dialogs.some((d) => !d.closed)) return answer({ status: "failed", error: { code: 12007 } });
        const dialog = { url, options: dialogOptions, closed: false };
        state.dialogs.push(dialog);
        answer({ status: "succeeded", value: { close() { dialog.closed = true; }, addEventHandler() {} } });
      } },
      officeTheme: { bodyBackgroundColor: "#FFFFFF" },
      partitionKey: "",
      document: {},
    },
    EventType: { DocumentSelectionChanged: "documentSelectionChanged",
      DialogMessageReceived: "dialogMessageReceived", DialogEventReceived: "dialogEventReceived" },
    addin: {
      async showAsTaskpane() {
        state.shown++;
        if (options.showAsTaskpane === "rejects") throw new Error("The task pane could not be shown.");
        if (options.showAsTaskpane === "ignored" || state.paneVisible) return;
        state.paneVisible = true;
        setTimeout(() => state.visibilityHandlers.forEach((h) => h({ visibilityMode: "Taskpane" })));
      },
      async onVisibilityModeChanged(handler) {
        state.visibilityHandlers.push(handler);
        return async () => { state.visibilityHandlers = state.visibilityHandlers.filter((h) => h !== handler); };
      },
    },
    actions: { associate(name, fn) { state.associated[name] = fn; } },
  };
})();
`;
}
