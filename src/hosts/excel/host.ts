/**
 * The Excel `SpreadsheetHost` (Office.js). Thin: it reads the workbook (where the user is, which
 * sheets exist), selects ranges, keeps the workbook's id, and hands the pane a gateway that calls
 * the service from the page. Decisions about placements live in src/core.
 *
 * One round trip per user action: the active context (workbook id, sheet id and name, active cell)
 * is one `context.sync()`; a burst of selection events settles into one read.
 */
import type { Transport } from "../../core/transport.js";
import { createDirectGateway, type DirectGateway } from "../direct-gateway.js";
import type { ActiveContext, SecretStore, SheetInfo, SpreadsheetHost, WorkbookSnapshot } from "../host.js";
import { createListeners, newestOnly, settler } from "../listeners.js";
import { type ExcelApi, type OfficeApi, type OfficeRuntimeStorage, officeGlobals } from "./office.js";
import { createExcelSecretStore } from "./secrets.js";
import { officeTheme } from "./theme.js";

/**
 * The custom document property holding the workbook's id (`externalWorkbookId`). It is saved in
 * the file, so a copy of the file carries the same id (README: "The workbook id").
 */
export const WORKBOOK_ID_PROPERTY = "ReportingPlatformWorkbookId";

/** Selection events closer together than this are one selection change (one read). */
const SELECTION_SETTLE_MS = 80;

export interface ExcelHostDeps {
  Excel?: ExcelApi;
  Office?: OfficeApi;
  /** `OfficeRuntime.storage` (shared runtime); null to use partitioned localStorage. */
  runtimeStorage?: OfficeRuntimeStorage | null;
  localStorage?: Storage | null;
  /** Replaces the per-user store chosen from the two above. */
  store?: SecretStore;
  transport?: Transport;
  /** Replaces the gateway built over `store` and `transport`. */
  gateway?: DirectGateway;
  /** A fresh workbook id (default a random UUID). */
  newWorkbookId?: () => string;
  settleMs?: number;
  /** Where focus and visibility changes are heard (the theme is re-read then); default the page's. */
  window?: Pick<Window, "addEventListener"> | null;
  /** Failures nobody awaits (a selection read, an event subscription). Default: console.warn. */
  onBackgroundError?: (error: unknown) => void;
}

export interface ExcelHost extends SpreadsheetHost {
  readonly kind: "excel";
  readonly platform: DirectGateway;
}

interface ContextRead {
  context: ActiveContext;
  sheets: SheetInfo[] | null;
}

/** "Sheet1!B2", "'Q1 Sales'!$B$2" -> "B2". */
export function cellOfAddress(address: string): string {
  return address
    .slice(address.lastIndexOf("!") + 1)
    .replace(/\$/g, "")
    .toUpperCase();
}

function isItemNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ItemNotFound";
}

/** A random UUID; `crypto.randomUUID` is missing in older Mac webviews (Safari before 15.4). */
function randomWorkbookId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function validWorkbookId(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

export function createExcelHost(deps: ExcelHostDeps = {}): ExcelHost {
  const globals = deps.Excel && deps.Office ? null : officeGlobals();
  const Excel = deps.Excel ?? globals!.Excel;
  const Office = deps.Office ?? globals!.Office;
  const settleMs = deps.settleMs ?? SELECTION_SETTLE_MS;
  const newWorkbookId = deps.newWorkbookId ?? randomWorkbookId;
  const reportBackground =
    deps.onBackgroundError ?? ((error: unknown) => console.warn("Reporting Platform (Excel):", error));

  const store =
    deps.store ??
    createExcelSecretStore({
      runtimeStorage:
        deps.runtimeStorage !== undefined ? deps.runtimeStorage : (globals?.runtimeStorage ?? null),
      partitionKey: Office.context.partitionKey ?? null,
      localStorage: deps.localStorage ?? null,
    });
  const platform =
    deps.gateway ?? createDirectGateway({ store, ...(deps.transport ? { transport: deps.transport } : {}) });

  const supports = (version: string) =>
    Office.context.requirements?.isSetSupported("ExcelApi", version) ?? false;

  // ---- The workbook id: read with the context; created (one extra sync) only the first time.

  let workbookId: string | null = null;
  /** What the context menu was last asked to show (null: not asked, or the ask failed). */
  let cellMenuEnabled: boolean | null = null;
  let firstRead: Promise<unknown> | null = null;

  async function settleWorkbookId(
    context: Excel.RequestContext,
    stored: Excel.CustomProperty,
  ): Promise<string> {
    const existing = stored.isNullObject === true ? null : validWorkbookId(stored.value);
    if (existing) return existing;
    const id = newWorkbookId();
    context.workbook.properties.custom.add(WORKBOOK_ID_PROPERTY, id);
    try {
      await context.sync();
    } catch (error) {
      // A read-only or protected file: use the id for this session; it is written next time.
      reportBackground(error);
    }
    return id;
  }

  function readBatch(withSheets: boolean): Promise<ContextRead> {
    return Excel.run(async (context) => {
      const workbook = context.workbook;
      workbook.load("name");
      const sheet = workbook.worksheets.getActiveWorksheet().load("id,name");
      const cell = workbook.getActiveCell().load("address");
      const stored =
        workbookId === null
          ? workbook.properties.custom.getItemOrNullObject(WORKBOOK_ID_PROPERTY).load("value")
          : null;
      const sheets = withSheets ? workbook.worksheets.load("items/id,items/name") : null;
      await context.sync();
      if (workbookId === null) workbookId = await settleWorkbookId(context, stored!);
      return {
        context: {
          workbookId,
          workbookName: workbook.name,
          sheetId: sheet.id,
          sheetName: sheet.name,
          cell: cellOfAddress(cell.address),
        },
        sheets: sheets ? sheets.items.map((s) => ({ id: s.id, name: s.name })) : null,
      };
    });
  }

  /** The first read creates the id; reads that start meanwhile wait for it instead of creating another. */
  async function read(withSheets: boolean): Promise<ContextRead> {
    while (workbookId === null && firstRead) await firstRead.catch(() => undefined);
    if (workbookId !== null) return readBatch(withSheets);
    const run = readBatch(withSheets);
    firstRead = run;
    try {
      return await run;
    } finally {
      if (firstRead === run) firstRead = null;
    }
  }

  // ---- Selection and sheet events: subscribed once, bursts settled into one read.

  const contextListeners = createListeners<[ActiveContext]>();
  let subscribed = false;
  // A newer change being read makes an older read's answer stale: only the newest is told.
  const readSettled = newestOnly(
    () => read(false),
    (r) => contextListeners.notify(r.context),
    reportBackground,
  );
  const selection = settler(readSettled, settleMs);

  function changed() {
    if (contextListeners.size === 0) return; // nobody to tell: no read
    selection.trigger();
  }

  async function subscribe() {
    const onEvent = async () => changed();
    if (supports("1.9")) {
      await Excel.run(async (context) => {
        const sheets = context.workbook.worksheets;
        sheets.onSelectionChanged.add(onEvent);
        // Switching, adding or removing a sheet; renaming one (ExcelApi 1.17).
        sheets.onActivated.add(onEvent);
        sheets.onAdded.add(onEvent);
        sheets.onDeleted.add(onEvent);
        if (supports("1.17")) sheets.onNameChanged.add(onEvent);
        await context.sync();
      });
      return;
    }
    // Older Excel: the common API's document-level event (no sheet events there).
    const document = Office.context.document;
    const eventType = Office.EventType?.DocumentSelectionChanged;
    if (!document?.addHandlerAsync || eventType === undefined) return;
    await new Promise<void>((resolve, reject) => {
      document.addHandlerAsync!(
        eventType,
        () => changed(),
        (result) =>
          result.status === "failed"
            ? reject(new Error(result.error?.message ?? "DocumentSelectionChanged could not be added"))
            : resolve(),
      );
    });
  }

  function subscribeOnce() {
    if (subscribed) return;
    subscribed = true;
    subscribe().catch((error: unknown) => {
      subscribed = false; // the next listener tries again
      reportBackground(error);
    });
  }

  // ---- Theme: Excel has no theme event; re-read when the pane regains focus or becomes visible.

  const themeListeners = createListeners<["light" | "dark"]>();
  let lastTheme = officeTheme(Office);
  let themeWatch = false;

  function recheckTheme() {
    const now = officeTheme(Office);
    if (now === lastTheme) return;
    lastTheme = now;
    themeListeners.notify(now);
  }

  function watchTheme() {
    if (themeWatch) return;
    themeWatch = true;
    const target = deps.window !== undefined ? deps.window : (globalThis as { window?: Window }).window;
    target?.addEventListener("focus", recheckTheme);
    target?.addEventListener("visibilitychange", recheckTheme);
  }

  return {
    kind: "excel",
    label: "Excel",
    platform,

    async activeContext() {
      return (await read(false)).context;
    },

    async loadWorkbook(): Promise<WorkbookSnapshot> {
      const { context, sheets } = await read(true);
      const { reports, problems } = await platform.listWorkbookReports(context.workbookId);
      return { context, sheets: sheets ?? [], reports, problems };
    },

    onContextChanged(listener) {
      const unsubscribe = contextListeners.add(listener);
      subscribeOnce();
      return unsubscribe;
    },

    async selectRange({ sheetId, sheetName, range }) {
      const address = range.slice(range.lastIndexOf("!") + 1);
      const select = (sheetKey: string) =>
        Excel.run(async (context) => {
          const sheet = context.workbook.worksheets.getItem(sheetKey);
          sheet.activate();
          sheet.getRange(address).select();
          await context.sync();
        });
      // By id first (survives renames); by name when the id is unknown here (rule 6: an id narrows).
      if (sheetId) {
        try {
          return await select(sheetId);
        } catch (error) {
          if (!isItemNotFound(error)) throw error;
        }
      }
      try {
        await select(sheetName);
      } catch (error) {
        if (!isItemNotFound(error)) throw error;
        throw new Error(`The sheet "${sheetName}" is not in this workbook any more. Press Reload list.`);
      }
    },

    listDeploymentReports: () => platform.listDeploymentReports(),

    async placeReport(item, handlers) {
      // Placing loads with the first place: the first screen does without it.
      const { placeInExcel } = await import("./cells.js");
      return placeInExcel(item, handlers, platform, Excel, WORKBOOK_ID_PROPERTY);
    },

    async readCells(read) {
      const { createExcelCells } = await import("./cells.js");
      return createExcelCells(Excel).read(read);
    },

    async refreshPlacements(items, handlers) {
      // Writing cells loads with the first refresh: the first screen does without it.
      const { refreshInExcel } = await import("./cells.js");
      return refreshInExcel(items, handlers, platform, Excel);
    },

    offerCellCommands({ disconnectHere }) {
      // ContextMenuApi 1.1 (Office.contextMenu.requestUpdate): the right-click "Disconnect report
      // here" (manifest control DisconnectReportHere) is disabled off every placement. Office
      // applies the request when it will; without the set the command stays and says why itself.
      if (disconnectHere === cellMenuEnabled) return;
      if (!Office.contextMenu || !Office.context.requirements?.isSetSupported("ContextMenuApi", "1.1"))
        return;
      cellMenuEnabled = disconnectHere;
      Office.contextMenu
        .requestUpdate({ controls: [{ id: "DisconnectReportHere", enabled: disconnectHere }] })
        .catch((error: unknown) => {
          cellMenuEnabled = null;
          reportBackground(error);
        });
    },
    // The cell's right-click command calls the mounted pane's store itself (commands.ts, given the
    // pane by main.ts from taskpane/paneStore.ts's mountedPane): no command comes through here.
    onCommand: () => () => {},

    theme() {
      lastTheme = officeTheme(Office);
      return lastTheme;
    },

    onThemeChanged(listener) {
      const unsubscribe = themeListeners.add(listener);
      watchTheme();
      return unsubscribe;
    },
  };
}
