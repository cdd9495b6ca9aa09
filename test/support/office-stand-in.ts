/**
 * Office.js as far as the Excel page uses it, as a script served in place of Microsoft's CDN file
 * (no Office here). Its record is `window.__office`. Like Office:
 * - `Office.actions.associate` only registers; Office runs the command (here: the test, through
 *   `__office.associated`), possibly before the page's other code has loaded;
 * - proxy objects answer only after `load` and `context.sync()`; every sync is counted;
 * - `OfficeRuntime.storage` is the per-user store of the shared runtime.
 */
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
}

export function officeStandIn(options: OfficeStandInOptions): string {
  return `
(() => {
  const options = ${JSON.stringify(options)};
  const state = { syncs: 0, custom: { ...(options.custom || {}) }, associated: {}, shown: 0, handlers: {},
    storage: { ...(options.storage || {}) }, active: options.active };
  window.__office = state;
  const loaded = (o) => Object.assign(o, { load() { return o; } });
  const events = (name) => ({ add(h) { (state.handlers[name] ??= []).push(h); } });
  const sheetNamed = (name) => options.sheets.find((s) => s.name === name);
  const context = {
    workbook: loaded({
      name: options.workbookName,
      worksheets: loaded({
        get items() { return options.sheets.map((s) => ({ ...s })); },
        getActiveWorksheet: () => loaded({ ...sheetNamed(state.active.sheet) }),
        getItem: (name) => loaded({ ...sheetNamed(name), activate() {}, getRange: () => ({ select() {} }) }),
        onSelectionChanged: events("selection"), onActivated: events("activated"),
        onAdded: events("added"), onDeleted: events("deleted"), onNameChanged: events("renamed"),
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
      const info = { host: "Excel", platform: "OfficeOnline" };
      setTimeout(() => cb && cb(info));
      return Promise.resolve(info);
    },
    context: {
      requirements: { isSetSupported: (n, v) => n === "ExcelApi" && Number(String(v).split(".")[1]) <= 17 },
      officeTheme: { bodyBackgroundColor: "#FFFFFF" },
      partitionKey: "",
      document: {},
    },
    EventType: { DocumentSelectionChanged: "documentSelectionChanged" },
    addin: { async showAsTaskpane() { state.shown++; } },
    actions: { associate(name, fn) { state.associated[name] = fn; } },
  };
})();
`;
}
