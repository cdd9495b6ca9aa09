/**
 * Office.js as far as the Excel page uses it, as a script served in place of Microsoft's CDN file
 * (no Office here). Its record is `window.__office`. Like Office:
 * - `Office.actions.associate` only registers; Office runs the command (here: the test, through
 *   `__office.associated`), possibly before the page's other code has loaded;
 * - proxy objects answer only after `load` and `context.sync()`; every sync is counted;
 * - `OfficeRuntime.storage` is the per-user store of the shared runtime.
 */
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
}

export function officeStandIn(options: OfficeStandInOptions): string {
  const sets = HOST_PROFILES[options.profile ?? "web"];
  return `
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
  const loaded = (o) => Object.assign(o, { load() { return o; } });
  // An event newer than the host's ExcelApi fails as Excel's does (ApiNotFound).
  const events = (name, since = "1.7") => ({ add(h) {
    if (!sets.ExcelApi || newer(since, sets.ExcelApi)) {
      throw Object.assign(new Error(name + " needs ExcelApi " + since), { code: "ApiNotFound" });
    }
    (state.handlers[name] ??= []).push(h);
  } });
  const sheetNamed = (name) => options.sheets.find((s) => s.name === name);
  const context = {
    workbook: loaded({
      name: options.workbookName,
      worksheets: loaded({
        get items() { return options.sheets.map((s) => ({ ...s })); },
        getActiveWorksheet: () => loaded({ ...sheetNamed(state.active.sheet) }),
        getItem: (name) => loaded({ ...sheetNamed(name), activate() {}, getRange: () => ({ select() {} }) }),
        onSelectionChanged: events("selection", "1.9"), onActivated: events("activated"),
        onAdded: events("added"), onDeleted: events("deleted"), onNameChanged: events("renamed", "1.17"),
      }),
      getActiveCell: () => loaded({ address: state.active.sheet + "!" + state.active.cell }),
      properties: { custom: {
        getItemOrNullObject: (k) => loaded({ isNullObject: !(k in state.custom), value: state.custom[k] }),
        add: (k, v) => { state.custom[k] = v; },
      } },
    }),
    async sync() { state.syncs++; },
  };
  window.Excel = { run: async (batch) => batch(context) };
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
