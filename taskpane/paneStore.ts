/**
 * The pane's state and actions, outside React: settings, the workbook snapshot, the active context,
 * the placement under it, and disconnecting. Every decision (which placement, which input, which
 * message) is the core's; the store only calls the host and keeps the answers. Plain state plus
 * `subscribe`/`getSnapshot` for React's `useSyncExternalStore` (usePaneState.ts reads it); the
 * snapshot is a new object only when something in it changed, and each of its lists keeps its
 * identity until it changes, so memoised rows do not render again for nothing.
 *
 * `attach()` starts the store for a mounted pane: the first load (once per store, however often it
 * is attached: React's StrictMode attaches twice), following the selection, the host's workbook
 * notices and its commands; it returns the function that detaches it. While attached, it is the
 * pane that `mountedPane(host)` finds for the host's own command (Excel's right-click).
 */
import { once } from "../src/core/once.js";
import {
  locatePlacement,
  type PlacedReport,
  placedReports,
  replaceReport,
  splitByWorkbook,
} from "../src/core/placement-view.js";
import { findPlacementAt, toDisconnectInput } from "../src/core/placements.js";
import type { DisconnectInput, Report } from "../src/core/schema.js";
import type {
  ActiveContext,
  Outcome,
  PublicSettings,
  SheetInfo,
  SpreadsheetHost,
  WorkbookSnapshot,
} from "../src/hosts/host.js";
import { firstFrame, isConnected, keepList, takeFirstLoad } from "../src/hosts/list-cache.js";
import { errorMessage } from "./errorMessage.js";

type PanePhase =
  /** Reading settings or the workbook for the first time. */
  | "loading"
  /** No tenant URL or API key yet: Settings comes first. */
  | "needs-settings"
  | "ready"
  /** Nothing could be loaded; `loadError` says why. */
  | "error";

export interface Notice {
  intent: "success" | "warning" | "error" | "info";
  message: string;
  /** A button on the message (Undo): the message stays until dismissed or acted on. */
  action?: { label: string; run(): void };
}

type DisconnectFlowModule = typeof import("../src/core/disconnect-flow.js");
type PlacementChangesModule = typeof import("./placementChanges.js");

/** Undo, address corrections and Move here (placementChanges.ts): loaded when first needed. */
const loadPlacementChanges = once((): Promise<PlacementChangesModule> => import("./placementChanges.js"));

/**
 * The disconnect's flow, with its plan and outcome messages (core/disconnect-flow.ts, one lazy
 * chunk): loaded when first needed and prefetched once the first list has painted (lazy.tsx), so
 * the first screen does without them.
 */
export const loadDisconnectPlan = once(
  (): Promise<DisconnectFlowModule> => import("../src/core/disconnect-flow.js"),
);

export { isConnected };

/** What the pane shows: one immutable object, replaced when any of it changes. */
export interface PaneSnapshot {
  readonly phase: PanePhase;
  readonly settings: PublicSettings | null;
  readonly loadError: string | null;
  /** The error behind `loadError`, to tell its kind (a refused key opens Settings at the key). */
  readonly loadFailure: unknown;
  /** A refresh is running (the list stays visible meanwhile). */
  readonly refreshing: boolean;
  /** The list shown is the one last kept for this workbook (src/hosts/list-cache.ts); the fresh one is loading. */
  readonly stale: boolean;
  readonly problems: string[];
  readonly context: ActiveContext | null;
  readonly sheets: SheetInfo[];
  /** The reports loaded (kept as the service answered them). */
  readonly reports: Report[];
  /** Every placement of every report loaded (kept as one array: the core caches its index on it). */
  readonly placed: PlacedReport[];
  readonly here: PlacedReport[];
  readonly elsewhere: PlacedReport[];
  /** The placement under the active cell. */
  readonly current: PlacedReport | null;
  /** Keys of placements being disconnected. */
  readonly busyKeys: ReadonlySet<string>;
  /** The placement an Undo restored last (focus goes to it; a new object for each Undo), else null. */
  readonly restored: { key: string } | null;
}

/** What the pane does; each a stable function for the store's life. */
export interface PaneActions {
  reload(): Promise<void>;
  applySettings(settings: PublicSettings): void;
  /** "Disconnect report here" at a context (the active one by default). */
  disconnectAt(at?: ActiveContext): Promise<Outcome>;
  /** Disconnects one listed placement (for example one on a recreated tab, under no cell). */
  disconnectPlacement(placement: PlacedReport): Promise<Outcome>;
  /** Undo of a disconnect: the placement re-created as it was before (offered on the outcome). */
  undoDisconnect(placement: PlacedReport): Promise<Outcome>;
  /** Move here: a Not found placement's record moved to the active cell's sheet and anchor. */
  movePlacementHere(placement: PlacedReport): Promise<Outcome>;
  /**
   * Shows a report as the service returned it (a refresh recorded on it), unless the settings
   * changed since `epoch` (then the answer belongs to the old settings and is void).
   */
  applyReport(report: Report, epoch: number): void;
  /** This workbook's placements and sheets as they are now (not as the last render saw them), and the settings' epoch. */
  liveWorkbook(): { here: PlacedReport[]; sheets: SheetInfo[]; epoch: number };
}

/** The pane's state as the components read it: the snapshot and the actions. */
export type PaneState = PaneSnapshot & PaneActions;

export interface PaneStore {
  readonly actions: PaneActions;
  subscribe(listener: () => void): () => void;
  getSnapshot(): PaneSnapshot;
  /** Starts the store for a mounted pane; returns the function that detaches it. */
  attach(): () => void;
}

/**
 * "Disconnect report here" at a cell, in the pane mounted for a host: the pane shows the cell,
 * plans and disconnects as its own button does, says the outcome, and answers it.
 */
export type PaneCommand = (context: ActiveContext) => Promise<Outcome>;

/** The command of the pane mounted for each host (while it is mounted), and who waits for one. */
const mountedPanes = new WeakMap<SpreadsheetHost, PaneCommand>();
const paneWaiters = new WeakMap<SpreadsheetHost, Set<(command: PaneCommand) => void>>();

/**
 * The command of the pane mounted for `host`, as soon as one is; null after `timeoutMs` without
 * one. Excel's right-click command calls the pane's store with it (src/hosts/excel/main.ts).
 */
export function mountedPane(host: SpreadsheetHost, timeoutMs: number): Promise<PaneCommand | null> {
  const mounted = mountedPanes.get(host);
  if (mounted) return Promise.resolve(mounted);
  return new Promise((resolve) => {
    const waiters = paneWaiters.get(host) ?? new Set();
    paneWaiters.set(host, waiters);
    const arrived = (command: PaneCommand | null) => {
      clearTimeout(timer);
      waiters.delete(arrived);
      resolve(command);
    };
    const timer = setTimeout(arrived, timeoutMs, null);
    waiters.add(arrived);
  });
}

/** What the store keeps; the snapshot's derived lists (placed, here, elsewhere, current) follow from it. */
interface Base {
  phase: PanePhase;
  settings: PublicSettings | null;
  loadFailure: { error: unknown } | null;
  refreshing: boolean;
  stale: boolean;
  problems: string[];
  context: ActiveContext | null;
  sheets: SheetInfo[];
  reports: Report[];
  busyKeys: ReadonlySet<string>;
  restored: { key: string } | null;
}

/**
 * The pane's store for `host`. `notify` shows a message (the pane's message bar). Creating it has
 * no effect of its own (React may create one and drop it): it starts at `attach()`.
 */
export function createPaneStore(host: SpreadsheetHost, notify: (notice: Notice) => void): PaneStore {
  // What the first load started before the pane rendered has brought already: then the first
  // render shows the list (fresh, or the one kept for this workbook, refreshing), not a loading
  // state followed by the list (src/hosts/list-cache.ts).
  const initial = firstFrame(host);
  const shown = initial?.snapshot;
  // The latest values, written when they are set (not when React renders next), so that a command
  // arriving right after a load or a disconnect plans against what is really there.
  let base: Base = {
    phase: initial ? "ready" : "loading",
    settings: initial ? initial.settings : null,
    loadFailure: null,
    refreshing: initial?.stale === true,
    stale: initial?.stale === true,
    problems: shown ? shown.problems : [],
    context: shown ? shown.context : null,
    sheets: shown ? shown.sheets : [],
    reports: shown ? shown.reports : [],
    busyKeys: new Set(),
    restored: null,
  };

  // One placed array per reports array: the core caches its lookup index on the array.
  let placedCache: { reports: Report[]; placed: PlacedReport[] } | null = null;
  const placedOf = (list: Report[]): PlacedReport[] => {
    if (placedCache?.reports !== list) placedCache = { reports: list, placed: placedReports(list) };
    return placedCache.placed;
  };

  const derive = (b: Base, prev: PaneSnapshot | null): PaneSnapshot => {
    const placed = placedOf(b.reports);
    const workbookId = b.context?.workbookId ?? "";
    const split =
      prev && prev.placed === placed && (prev.context?.workbookId ?? "") === workbookId
        ? prev
        : splitByWorkbook(placed, workbookId);
    const current =
      prev && prev.placed === placed && prev.context === b.context
        ? prev.current
        : b.context
          ? (findPlacementAt(placed, b.context) ?? null)
          : null;
    return {
      ...b,
      loadError: b.loadFailure ? errorMessage(b.loadFailure.error) : null,
      loadFailure: b.loadFailure?.error ?? null,
      placed,
      here: split.here,
      elsewhere: split.elsewhere,
      current,
    };
  };

  let snapshot = derive(base, null);
  const listeners = new Set<() => void>();
  // False once the pane is gone: answers that arrive later are dropped.
  let mounted = true;

  const set = (patch: Partial<Base>): void => {
    const next = { ...base, ...patch };
    const changed = (Object.keys(patch) as (keyof Base)[]).some((k) => !Object.is(base[k], next[k]));
    if (!changed) return;
    base = next;
    snapshot = derive(base, snapshot);
    if (mounted) afterChange();
    for (const listener of [...listeners]) listener();
  };

  let loadSeq = 0;
  // The settings' generation: every change of settings voids every answer asked for under the old
  // ones (a list, a disconnect's answer, the reload after a lost one), even when no new load starts
  // (the new tenant has no key yet). Checked before an answer is applied.
  let settingsEpoch = 0;
  let loading: Promise<void> | null = null;
  const inFlight = new Map<string, Promise<Outcome>>();

  const listOf = ({ context, sheets, reports, problems }: WorkbookSnapshot) => ({
    context,
    sheets,
    reports,
    problems,
  });
  const applySnapshot = (s: WorkbookSnapshot) => set(listOf(s));

  /** `quiet`: a refresh that keeps the list shown when it fails. */
  const loadWorkbook = (quiet: boolean, started?: Promise<WorkbookSnapshot>): Promise<void> => {
    const seq = ++loadSeq;
    const epoch = settingsEpoch;
    set({ refreshing: true });
    const current = () => mounted && seq === loadSeq && epoch === settingsEpoch;
    const run = (async () => {
      try {
        const s = await (started ?? host.loadWorkbook());
        if (!current()) return;
        set({ ...listOf(s), loadFailure: null, phase: "ready" });
      } catch (error) {
        if (!current()) return;
        // Keep what is listed when a refresh fails; only a first load turns into an error.
        set({ loadFailure: { error }, phase: quiet && base.phase === "ready" ? "ready" : "error" });
      } finally {
        if (mounted && seq === loadSeq) set({ refreshing: false, stale: false });
      }
    })();
    loading = run;
    return run;
  };

  const start = async (): Promise<void> => {
    set({ loadFailure: null, refreshing: true });
    // Settings, the workbook and the list kept for it, asked for together (src/hosts/list-cache.ts).
    const first = takeFirstLoad(host);
    const epoch = settingsEpoch;
    // The kept list is shown only if it comes before anything fresher (the load, or setup).
    let settled = false;
    const settle = () => {
      settled = true;
    };
    if (first.early) first.workbook().then(settle, settle);
    void first.kept.then((kept) => {
      if (!kept || settled || !mounted || epoch !== settingsEpoch) return;
      set({ context: kept.context, ...kept.list, stale: true, phase: "ready" });
    });
    let s: PublicSettings;
    try {
      s = await first.settings;
    } catch (error) {
      settled = true;
      if (!mounted || epoch !== settingsEpoch) return;
      set({ stale: false, loadFailure: { error }, phase: "error", refreshing: false });
      return;
    }
    // Settings saved meanwhile are newer than this first read: it is void.
    if (!mounted || epoch !== settingsEpoch) return;
    set({ settings: s });
    if (!isConnected(s)) {
      settled = true;
      set({ stale: false, phase: "needs-settings", refreshing: false });
      return;
    }
    const fresh = first.workbook();
    fresh.then(settle, settle);
    await loadWorkbook(false, fresh);
  };

  const reload = async (): Promise<void> => {
    const { settings } = base;
    if (!settings) return start();
    if (!isConnected(settings)) {
      set({ phase: "needs-settings" });
      return;
    }
    return loadWorkbook(true);
  };

  const applySettings = (next: PublicSettings): void => {
    settingsEpoch += 1;
    // A load of the old settings still running is void: it no longer shows as refreshing.
    loadSeq += 1;
    set({ refreshing: false, settings: next });
    if (isConnected(next)) void loadWorkbook(false);
    else set({ phase: "needs-settings" });
  };

  // A stale snapshot reloads once, however many notices said so in the same turn (Sheets' poll can
  // report a new sheet both as a context and as a workbook change).
  let reloadQueued = false;
  const reloadStale = (): void => {
    if (reloadQueued) return;
    reloadQueued = true;
    queueMicrotask(() => {
      reloadQueued = false;
      if (mounted) void loadWorkbook(true);
    });
  };

  // Follow the selection. A sheet renamed in place is renamed here too; an unknown sheet (added,
  // or a tab recreated under a new id) or another workbook means the snapshot is stale: reload.
  const followContext = (ctx: ActiveContext): void => {
    const { context: previous, sheets: known } = base;
    set({ context: ctx });
    if (!previous) return;
    if (previous.workbookId !== ctx.workbookId) {
      reloadStale();
      return;
    }
    if (ctx.sheetId == null) return;
    const sheet = known.find((s) => s.id === ctx.sheetId);
    if (!sheet) reloadStale();
    else if (sheet.name !== ctx.sheetName) {
      set({ sheets: known.map((s) => (s.id === ctx.sheetId ? { ...s, name: ctx.sheetName } : s)) });
    }
  };

  const markBusy = (key: string, busy: boolean): void => {
    const next = new Set(base.busyKeys);
    if (busy) next.add(key);
    else next.delete(key);
    set({ busyKeys: next });
  };

  const failed = (error: unknown): Outcome => {
    const message = errorMessage(error);
    notify({ intent: "error", message });
    return { ok: false, message };
  };

  /** One request per placement at a time: a second ask while one runs gets the same outcome. */
  const runDisconnect = (placement: PlacedReport, input: DisconnectInput): Promise<Outcome> => {
    const running = inFlight.get(placement.key);
    if (running) return running;
    const epoch = settingsEpoch;
    const sameSettings = () => mounted && epoch === settingsEpoch;
    const run = (async (): Promise<Outcome> => {
      try {
        // The core's flow (disconnect-flow.ts): the DELETE, the list reloaded if its answer was lost.
        const result = await (await loadDisconnectPlan()).runDisconnect(
          { placement, input },
          {
            disconnect: (p, i) => host.platform.disconnect(p.report.deploymentId, p.report.id, i),
            listReports: async () => {
              const s = await host.loadWorkbook();
              if (sameSettings()) applySnapshot(s);
              return s.reports;
            },
            sheets: () => base.sheets,
          },
        );
        if (result.status === "failed") throw result.error;
        if (result.status === "answered" && sameSettings()) {
          set({ reports: replaceReport(base.reports, result.returned) });
        }
        const { outcome } = result;
        notify({
          intent: outcome.ok ? "success" : result.status === "answered" ? "warning" : "error",
          message: outcome.message,
          ...(outcome.ok ? { action: undoAction(placement) } : {}),
        });
        return outcome;
      } catch (error) {
        return failed(error);
      } finally {
        inFlight.delete(placement.key);
        if (mounted) markBusy(placement.key, false);
      }
    })();
    inFlight.set(placement.key, run);
    markBusy(placement.key, true);
    return run;
  };

  const disconnectAt = async (at?: ActiveContext): Promise<Outcome> => {
    // A command can arrive while the list is still loading: plan against the loaded list.
    if (loading) await loading.catch(() => undefined);
    const where = at ?? base.context;
    if (!isConnected(base.settings)) {
      // Without a tenant and key the list is empty, and "no report here" would mislead.
      const message = "The add-in is not connected yet: open Settings and enter the tenant URL and API key.";
      notify({ intent: "warning", message });
      return { ok: false, message };
    }
    if (!where) {
      const message = "The workbook is not loaded yet. Try again in a moment.";
      notify({ intent: "warning", message });
      return { ok: false, message };
    }
    let plan: ReturnType<DisconnectFlowModule["planDisconnectAt"]>;
    try {
      plan = (await loadDisconnectPlan()).planDisconnectAt(placedOf(base.reports), where);
    } catch (error) {
      return failed(error);
    }
    if (plan.kind === "nothing-here") {
      notify({ intent: "warning", message: plan.message });
      return { ok: false, message: plan.message };
    }
    return runDisconnect(plan.placement, plan.input);
  };

  const disconnectPlacement = (placement: PlacedReport): Promise<Outcome> =>
    runDisconnect(placement, toDisconnectInput(placement, base.context ?? undefined));

  // connect-workbook's flows (placementChanges.ts), over this store.
  const changesMemory = { undoing: new Set<string>(), corrected: new Set<string>() };
  const changes = (): import("./placementChanges.js").PaneChanges => ({
    host,
    live: () => ({ reports: base.reports, context: base.context, sheets: base.sheets }),
    epoch: () => settingsEpoch,
    stillCurrent: (epoch) => mounted && epoch === settingsEpoch,
    applySnapshot,
    applyReport: (report) => {
      const now = base.reports;
      const known = now.some((r) => r.id === report.id && r.deploymentId === report.deploymentId);
      set({ reports: known ? replaceReport(now, report) : [...now, report] });
    },
    applyReports: (reports) => set({ reports }),
    notify,
    restored: (key) => set({ restored: { key } }),
    undoAction,
    memory: changesMemory,
  });
  const withChanges = async (run: (m: PlacementChangesModule) => Promise<Outcome>): Promise<Outcome> => {
    try {
      return await run(await loadPlacementChanges());
    } catch (error) {
      return failed(error);
    }
  };
  const undoDisconnect = (placement: PlacedReport) =>
    withChanges((m) => m.undoDisconnect(changes(), placement));
  /** The Undo offered on a disconnect's outcome. */
  function undoAction(placement: PlacedReport): NonNullable<Notice["action"]> {
    return { label: "Undo", run: () => void undoDisconnect(placement) };
  }
  const movePlacementHere = (placement: PlacedReport) => withChanges((m) => m.moveHere(changes(), placement));

  const applyReport = (report: Report, epoch: number): void => {
    if (mounted && epoch === settingsEpoch) set({ reports: replaceReport(base.reports, report) });
  };
  const liveWorkbook = () => ({
    here: splitByWorkbook(placedOf(base.reports), base.context?.workbookId ?? "").here,
    sheets: base.sheets,
    epoch: settingsEpoch,
  });

  // What follows a change while the store is attached: the list kept, a renamed sheet corrected.
  let keptDeps: unknown[] = [];
  let renameDeps: unknown[] = [];
  const changedDeps = (prev: unknown[], next: unknown[]) =>
    prev.length !== next.length || next.some((v, i) => !Object.is(v, prev[i]));
  function afterChange(): void {
    const { phase, stale, sheets, reports, problems } = base;
    // The list as the user last saw it, kept for the next time the pane opens on this workbook
    // (src/hosts/list-cache.ts): after every load and every disconnect, never while the kept one is shown.
    // Not on a move of the selection, which changes the context but not the list: keeping a long
    // list means writing all of it.
    const workbookId = base.context?.workbookId ?? "";
    const kept = [phase, stale, workbookId, sheets, reports, problems];
    if (changedDeps(keptDeps, kept)) {
      keptDeps = kept;
      if (phase === "ready" && !stale) keepList(workbookId, { sheets, reports, problems });
    }
    // A placement whose sheet id is found under a new name: its address is corrected on the
    // service, once (placementChanges.ts). The check is cheap; the code that corrects loads only
    // when needed.
    const { here } = snapshot;
    const renamedDeps = [phase, stale, here, sheets];
    if (!changedDeps(renameDeps, renamedDeps)) return;
    renameDeps = renamedDeps;
    if (phase !== "ready" || stale || !isConnected(base.settings)) return;
    const renamed = here.some(
      (p) => p.id && p.sheetId && locatePlacement(p, sheets).note?.kind === "renamed",
    );
    if (!renamed) return;
    void loadPlacementChanges()
      .then((m) => m.correctRenamedSheets(changes()))
      .catch(() => undefined);
  }

  // A command from outside the pane (the cell's right-click menu, an add-on menu item): the cell
  // it names becomes the active one, and it is disconnected as the pane's own button does.
  const command: PaneCommand = (context) => {
    set({ context });
    return disconnectAt(context);
  };

  let started = false;
  const attach = (): (() => void) => {
    mounted = true;
    mountedPanes.set(host, command);
    for (const arrived of [...(paneWaiters.get(host) ?? [])]) arrived(command);
    if (!started) {
      started = true;
      // Shown fresh: that load is done. Shown from the kept list, or nothing yet: load.
      if (initial && !initial.stale) takeFirstLoad(host);
      else loading = start();
    }
    afterChange();
    const stops = [
      host.onContextChanged(followContext),
      // The workbook changed where the context does not show it (Google Sheets: a sheet added,
      // renamed or removed, a report disconnected from the add-on menu): reload, once the pane
      // has a list.
      host.onWorkbookChanged?.(() => {
        if (base.context && isConnected(base.settings)) reloadStale();
      }),
      // Commands from outside the pane: the cell's right-click menu, an add-on menu item.
      host.onCommand((c) => {
        if (c.type !== "disconnect-here") return;
        void command(c.context).then(
          (outcome) => c.done(outcome),
          (error: unknown) => c.done({ ok: false, message: errorMessage(error) }),
        );
      }),
    ];
    return () => {
      mounted = false;
      if (mountedPanes.get(host) === command) mountedPanes.delete(host);
      for (const stop of stops) stop?.();
    };
  };

  return {
    actions: {
      reload,
      applySettings,
      disconnectAt,
      disconnectPlacement,
      undoDisconnect,
      movePlacementHere,
      applyReport,
      liveWorkbook,
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    attach,
  };
}
