/**
 * The pane's first screen without a request waterfall: settings, the workbook (its context, sheets
 * and reports) and the list last shown for this workbook are asked for at once (`startFirstLoad`).
 * The last list is shown straight away, marked "Refreshing…" (taskpane/RefreshingStatus.tsx, a
 * polite live region), until the fresh one replaces it. No React here, and under src/hosts/ rather
 * than taskpane/: a page may start the first load before the pane's code has loaded (the Excel page
 * does, from its first script, src/hosts/excel/start.ts), and a host never imports the pane. The
 * pane takes what was started (`takeFirstLoad`) and keeps each list it shows (`keepList`); it
 * reaches the host only through the interface in host.ts.
 *
 * Where the last list is kept: in memory for the page's life, and in the page's sessionStorage
 * (this browser tab's session only, gone when it closes) so that a reopened pane finds it. It is
 * what the pane already shows (report names, places, states), never settings or keys; see
 * docs/security.md.
 */
import type { Report } from "../core/schema.js";
import type { ActiveContext, PublicSettings, SheetInfo, SpreadsheetHost, WorkbookSnapshot } from "./host.js";

/** What is kept of a workbook's last list. */
interface KeptList {
  sheets: SheetInfo[];
  reports: Report[];
  problems: string[];
}

const KEY_PREFIX = "reporting-platform:last-list:";
const memory = new Map<string, KeptList>();

/** Whether any list was kept this session: the add-in was connected then, and most likely still is. */
function listedBefore(): boolean {
  if (memory.size > 0) return true;
  try {
    const store = sessionStore();
    return store != null && Object.keys(store).some((key) => key.startsWith(KEY_PREFIX));
  } catch {
    return false;
  }
}

function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    // A sandboxed frame may refuse storage: memory alone then.
    return null;
  }
}

/** Lists kept in memory and not yet written to sessionStorage, by workbook id: while any, a write is due. */
const unwritten = new Map<string, KeptList>();

function writeKeptLists(): void {
  const store = sessionStore();
  for (const [id, kept] of unwritten) {
    try {
      store?.setItem(KEY_PREFIX + id, JSON.stringify(kept));
    } catch {
      // Full or refused: memory keeps it.
    }
  }
  unwritten.clear();
}

/**
 * Keeps the list just loaded for its workbook (none without a workbook id): in memory at once, in
 * sessionStorage once the pane is idle (or the page is being hidden). Writing means turning the
 * whole list into text, which for a long list is worth keeping out of the frame that paints it.
 */
export function keepList(id: string, kept: KeptList): void {
  if (!id) return;
  memory.set(id, kept);
  const writeDue = unwritten.size > 0;
  unwritten.set(id, kept);
  if (writeDue) return;
  if (typeof globalThis.requestIdleCallback === "function") {
    globalThis.requestIdleCallback(writeKeptLists, { timeout: 1000 });
  } else {
    setTimeout(writeKeptLists, 0);
  }
  globalThis.addEventListener?.("pagehide", writeKeptLists, { once: true });
}

/** The list last kept for `workbookId`, if any. */
function keptList(workbookId: string): KeptList | null {
  if (!workbookId) return null;
  const inMemory = memory.get(workbookId);
  if (inMemory) return inMemory;
  try {
    const text = sessionStore()?.getItem(KEY_PREFIX + workbookId);
    if (!text) return null;
    const kept = JSON.parse(text) as Partial<KeptList>;
    if (!Array.isArray(kept.reports) || !Array.isArray(kept.sheets)) return null;
    const list = { sheets: kept.sheets, reports: kept.reports, problems: kept.problems ?? [] };
    memory.set(workbookId, list);
    return list;
  } catch {
    return null;
  }
}

/** Forgets every kept list (tests). */
export function forgetKeptLists(): void {
  memory.clear();
  unwritten.clear();
  try {
    const store = sessionStore();
    if (!store) return;
    for (const key of Object.keys(store)) if (key.startsWith(KEY_PREFIX)) store.removeItem(key);
  } catch {
    // Nothing kept there.
  }
}

/** Whether the pane can list reports: a tenant URL and an API key are set. */
export function isConnected(settings: PublicSettings | null): boolean {
  return settings != null && settings.tenantUrl.trim() !== "" && settings.apiKeySet;
}

export interface FirstLoad {
  settings: Promise<PublicSettings>;
  /** The workbook's load: already started when `early`, else started by this call (once). */
  workbook(): Promise<WorkbookSnapshot>;
  early: boolean;
  /** The active context with the list kept for its workbook; null when none is kept. */
  kept: Promise<{ context: ActiveContext; list: KeptList } | null>;
  /** What has arrived so far, set as each read succeeds. */
  arrived: {
    settings?: PublicSettings;
    snapshot?: WorkbookSnapshot;
    kept?: { context: ActiveContext; list: KeptList };
  };
  /**
   * Settles once the first screen has something to show other than a loading state: the list
   * (fresh, or the one kept for the workbook), the settings form, or an error.
   */
  shown: Promise<void>;
}

/** What the pane's first frame can show without waiting for anything more. */
export type FirstFrame =
  /** The fresh workbook, with the settings that say the add-in is connected. */
  | { stale: false; settings: PublicSettings; snapshot: WorkbookSnapshot }
  /** The list kept for this workbook, shown while the fresh one loads (settings still on their way). */
  | { stale: true; settings: null; snapshot: WorkbookSnapshot };

/**
 * What the first load started for `host` has brought so far for the first frame, or null (the
 * pane then waits, and shows its loading state). Looks, does not take.
 */
export function firstFrame(host: SpreadsheetHost): FirstFrame | null {
  const { settings, snapshot, kept } = started.get(host)?.arrived ?? {};
  if (settings && snapshot && isConnected(settings)) return { stale: false, settings, snapshot };
  if (kept) return { stale: true, settings: null, snapshot: { context: kept.context, ...kept.list } };
  return null;
}

/**
 * Starts the first screen's reads together, before the pane renders (mount.tsx; the Excel page
 * even before the pane's code has loaded): the settings, the active context with the list kept for
 * its workbook, and, when a list was kept this session (so the add-in was connected), the
 * workbook's load. Before the add-in was ever connected here, the workbook's load goes out as soon
 * as the settings say it is: nothing is asked of the service before there is a tenant and a key.
 * Started once per host until the pane takes it (`takeFirstLoad`).
 */
export function startFirstLoad(host: SpreadsheetHost): FirstLoad {
  const already = started.get(host);
  if (already) return already;
  const first = beginFirstLoad(host);
  started.set(host, first);
  return first;
}

/** First loads started before the pane rendered (mount.tsx), until the pane takes them. */
const started = new WeakMap<SpreadsheetHost, FirstLoad>();

/**
 * The first load the pane's first screen uses: the one started for `host` before the pane rendered,
 * if it has not been taken yet, else a new one. Taken once: a later start (after an error) reads
 * everything afresh.
 */
export function takeFirstLoad(host: SpreadsheetHost): FirstLoad {
  const first = started.get(host);
  if (!first) return beginFirstLoad(host);
  started.delete(host);
  return first;
}

function beginFirstLoad(host: SpreadsheetHost): FirstLoad {
  const arrived: FirstLoad["arrived"] = {};
  const settings = host.platform.getSettings();
  const early = listedBefore();
  let loading: Promise<WorkbookSnapshot> | null = null;
  const workbook = () => {
    if (!loading) {
      loading = host.loadWorkbook();
      // Not connected after all: the pane asks for settings and this failure is not shown.
      loading.then(
        (snapshot) => {
          arrived.snapshot = snapshot;
        },
        () => undefined,
      );
    }
    return loading;
  };
  // Connected before (a list was kept): the workbook's load goes out with the settings' read.
  // Otherwise it goes out as soon as the settings say the add-in is connected.
  if (early) void workbook();
  const fresh = settings.then((s) => {
    arrived.settings = s;
    return isConnected(s) ? workbook() : undefined;
  });
  const kept = host.activeContext().then(
    (context) => {
      const list = keptList(context.workbookId);
      if (list) arrived.kept = { context, list };
      return list ? { context, list } : null;
    },
    () => null,
  );
  const done = () => undefined;
  const shown = Promise.race([
    fresh,
    kept.then((list) => (list ? undefined : new Promise<never>(() => {}))),
  ]).then(done, done);
  return { settings, workbook, early, kept, arrived, shown };
}
