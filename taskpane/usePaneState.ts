/**
 * The pane's state and actions: settings, the workbook snapshot, the active context, the placement
 * under it, and disconnecting. Every decision (which placement, which input, which message) is the
 * core's; this hook only calls the host and keeps the answers.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { isPlatformError } from "../src/core/errors.js";
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
  PublicSettings,
  SheetInfo,
  SpreadsheetHost,
  WorkbookSnapshot,
} from "../src/hosts/host.js";
import { firstFrame, isConnected, keepList, takeFirstLoad } from "../src/hosts/list-cache.js";
import { errorMessage } from "./errorMessage.js";
import { useIndexWhenIdle } from "./indexWhenIdle.js";

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

type Outcome = import("../src/hosts/host.js").Outcome;
type DisconnectPlanModule = typeof import("../src/core/disconnect-plan.js");
type PlacementChangesModule = typeof import("./placementChanges.js");

/** Undo, address corrections and Move here (placementChanges.ts): loaded when first needed. */
const loadPlacementChanges = once((): Promise<PlacementChangesModule> => import("./placementChanges.js"));

/**
 * The disconnect's plan and outcome messages (core/disconnect-plan.ts): loaded when first needed
 * and prefetched once the first list has painted (lazy.tsx), so the first screen does without them.
 */
export const loadDisconnectPlan = once(
  (): Promise<DisconnectPlanModule> => import("../src/core/disconnect-plan.js"),
);

export { isConnected };

export interface PaneState {
  phase: PanePhase;
  settings: PublicSettings | null;
  loadError: string | null;
  /** The error behind `loadError`, to tell its kind (a refused key opens Settings at the key). */
  loadFailure: unknown;
  /** A refresh is running (the list stays visible meanwhile). */
  refreshing: boolean;
  /** The list shown is the one last kept for this workbook (src/hosts/list-cache.ts); the fresh one is loading. */
  stale: boolean;
  problems: string[];
  context: ActiveContext | null;
  sheets: SheetInfo[];
  /** Every placement of every report loaded (kept as one array: the core caches its index on it). */
  placed: PlacedReport[];
  here: PlacedReport[];
  elsewhere: PlacedReport[];
  /** The placement under the active cell. */
  current: PlacedReport | null;
  /** Keys of placements being disconnected. */
  busyKeys: ReadonlySet<string>;
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
  /** The placement an Undo restored last (focus goes to it; a new object for each Undo), else null. */
  restored: { key: string } | null;
  /**
   * Shows a report as the service returned it (a refresh recorded on it), unless the settings
   * changed since `epoch` (then the answer belongs to the old settings and is void).
   */
  applyReport(report: Report, epoch: number): void;
  /** This workbook's placements and sheets as they are now (not as the last render saw them), and the settings' epoch. */
  liveWorkbook(): { here: PlacedReport[]; sheets: SheetInfo[]; epoch: number };
}

export function usePaneState(host: SpreadsheetHost, notify: (notice: Notice) => void): PaneState {
  // What the first load started before the pane rendered has brought already: then the first
  // render shows the list (fresh, or the one kept for this workbook, refreshing), not a loading
  // state followed by the list (src/hosts/list-cache.ts).
  const [initial] = useState(() => firstFrame(host));
  const [phase, setPhase] = useState<PanePhase>(initial ? "ready" : "loading");
  const [settings, setSettings] = useState<PublicSettings | null>(initial ? initial.settings : null);
  // For commands that arrive between renders.
  const settingsRef = useRef<PublicSettings | null>(null);
  settingsRef.current = settings;
  const [loadFailure, setLoadFailure] = useState<{ error: unknown } | null>(null);
  const loadError = loadFailure ? errorMessage(loadFailure.error) : null;
  const setLoadError = useCallback((error: unknown) => {
    setLoadFailure(error == null ? null : { error });
  }, []);
  const [refreshing, setRefreshing] = useState(initial?.stale === true);
  const [stale, setStale] = useState(initial?.stale === true);
  const shown = initial?.snapshot;
  const [problems, setProblems] = useState<string[]>(shown ? shown.problems : []);
  const [context, setContextState] = useState<ActiveContext | null>(shown ? shown.context : null);
  const [sheets, setSheetsState] = useState<SheetInfo[]>(shown ? shown.sheets : []);
  const [reports, setReportsState] = useState<Report[]>(shown ? shown.reports : []);
  const [busyKeys, setBusyKeys] = useState<ReadonlySet<string>>(() => new Set());
  const [restored, setRestored] = useState<{ key: string } | null>(null);

  // The latest values, written when they are set (not when React renders next), so that a command
  // arriving right after a load or a disconnect plans against what is really there.
  const live = useRef<{ reports: Report[]; context: ActiveContext | null; sheets: SheetInfo[] }>({
    reports,
    context,
    sheets,
  });
  const setContext = useCallback((next: ActiveContext) => {
    live.current.context = next;
    setContextState(next);
  }, []);
  const setSheets = useCallback((next: SheetInfo[]) => {
    live.current.sheets = next;
    setSheetsState(next);
  }, []);
  const setReports = useCallback((next: Report[]) => {
    live.current.reports = next;
    setReportsState(next);
  }, []);

  // One placed array per reports array: the core caches its lookup index on the array.
  const placedCache = useRef<{ reports: Report[]; placed: PlacedReport[] } | null>(null);
  const placedOf = useCallback((list: Report[]): PlacedReport[] => {
    if (placedCache.current?.reports !== list)
      placedCache.current = { reports: list, placed: placedReports(list) };
    return placedCache.current.placed;
  }, []);

  const placed = placedOf(reports);
  const workbookId = context?.workbookId ?? "";
  const { here, elsewhere } = useMemo(() => splitByWorkbook(placed, workbookId), [placed, workbookId]);
  const current = useMemo(
    () => (context ? (findPlacementAt(placed, context) ?? null) : null),
    [placed, context],
  );
  // A long list is indexed for the selection's lookups once it is shown (indexWhenIdle.ts).
  useIndexWhenIdle(placed);
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  const mounted = useRef(true);
  const loadSeq = useRef(0);
  // The settings' generation: every change of settings voids every answer asked for under the old
  // ones (a list, a disconnect's answer, the reload after a lost one), even when no new load starts
  // (the new tenant has no key yet). Checked before an answer is applied.
  const settingsEpoch = useRef(0);
  const loading = useRef<Promise<void> | null>(null);
  const inFlight = useRef(new Map<string, Promise<Outcome>>());
  // The Undo offered on a disconnect's outcome (set below, once the flows it calls exist).
  const undoAction = useRef<(placement: PlacedReport) => NonNullable<Notice["action"]>>(() => ({
    label: "Undo",
    run() {},
  }));

  /** `quiet`: a refresh that keeps the list shown when it fails. */
  const loadWorkbook = useCallback(
    (quiet: boolean, started?: Promise<WorkbookSnapshot>): Promise<void> => {
      const seq = ++loadSeq.current;
      const epoch = settingsEpoch.current;
      setRefreshing(true);
      const run = (async () => {
        try {
          const snapshot = await (started ?? host.loadWorkbook());
          if (!mounted.current || seq !== loadSeq.current || epoch !== settingsEpoch.current) return;
          setContext(snapshot.context);
          setSheets(snapshot.sheets);
          setReports(snapshot.reports);
          setProblems(snapshot.problems);
          setLoadError(null);
          setPhase("ready");
        } catch (error) {
          if (!mounted.current || seq !== loadSeq.current || epoch !== settingsEpoch.current) return;
          setLoadError(error);
          // Keep what is listed when a refresh fails; only a first load turns into an error.
          setPhase((p) => (quiet && p === "ready" ? p : "error"));
        } finally {
          if (mounted.current && seq === loadSeq.current) {
            setRefreshing(false);
            setStale(false);
          }
        }
      })();
      loading.current = run;
      return run;
    },
    [host, setContext, setSheets, setReports, setLoadError],
  );

  const start = useCallback(async (): Promise<void> => {
    setLoadError(null);
    setRefreshing(true);
    // Settings, the workbook and the list kept for it, asked for together (src/hosts/list-cache.ts).
    const first = takeFirstLoad(host);
    const epoch = settingsEpoch.current;
    // The kept list is shown only if it comes before anything fresher (the load, or setup).
    let settled = false;
    const settle = () => {
      settled = true;
    };
    if (first.early) first.workbook().then(settle, settle);
    void first.kept.then((kept) => {
      if (!kept || settled || !mounted.current || epoch !== settingsEpoch.current) return;
      setContext(kept.context);
      setSheets(kept.list.sheets);
      setReports(kept.list.reports);
      setProblems(kept.list.problems);
      setStale(true);
      setPhase("ready");
    });
    let s: PublicSettings;
    try {
      s = await first.settings;
    } catch (error) {
      settled = true;
      if (!mounted.current || epoch !== settingsEpoch.current) return;
      setStale(false);
      setLoadError(error);
      setPhase("error");
      setRefreshing(false);
      return;
    }
    // Settings saved meanwhile are newer than this first read: it is void.
    if (!mounted.current || epoch !== settingsEpoch.current) return;
    setSettings(s);
    if (!isConnected(s)) {
      settled = true;
      setStale(false);
      setPhase("needs-settings");
      setRefreshing(false);
      return;
    }
    const fresh = first.workbook();
    fresh.then(settle, settle);
    await loadWorkbook(false, fresh);
  }, [host, loadWorkbook, setContext, setSheets, setReports, setLoadError]);

  // Once per host: StrictMode's second effect run in development must not load twice.
  const startedFor = useRef<SpreadsheetHost | null>(null);
  useEffect(() => {
    mounted.current = true;
    if (startedFor.current !== host) {
      startedFor.current = host;
      // Shown fresh: that load is done. Shown from the kept list, or nothing yet: load.
      if (initial && !initial.stale) takeFirstLoad(host);
      else loading.current = start();
    }
    return () => {
      mounted.current = false;
    };
  }, [host, start, initial]);

  // The list as the user last saw it, kept for the next time the pane opens on this workbook
  // (src/hosts/list-cache.ts): after every load and every disconnect, never while the kept one is shown. Not
  // on a move of the selection, which changes the context but not the list: keeping a long list
  // means writing all of it.
  useEffect(() => {
    if (phase !== "ready" || stale) return;
    keepList(workbookId, { sheets, reports, problems });
  }, [phase, stale, workbookId, sheets, reports, problems]);

  const reload = useCallback(async () => {
    if (!settings) return start();
    if (!isConnected(settings)) {
      setPhase("needs-settings");
      return;
    }
    return loadWorkbook(true);
  }, [settings, start, loadWorkbook]);

  const applySettings = useCallback(
    (next: PublicSettings) => {
      settingsEpoch.current += 1;
      // A load of the old settings still running is void: it no longer shows as refreshing.
      loadSeq.current += 1;
      setRefreshing(false);
      setSettings(next);
      if (isConnected(next)) void loadWorkbook(false);
      else setPhase("needs-settings");
    },
    [loadWorkbook],
  );

  // A stale snapshot reloads once, however many notices said so in the same turn (Sheets' poll can
  // report a new sheet both as a context and as a workbook change).
  const reloadQueued = useRef(false);
  const reloadStale = useCallback(() => {
    if (reloadQueued.current) return;
    reloadQueued.current = true;
    queueMicrotask(() => {
      reloadQueued.current = false;
      if (mounted.current) void loadWorkbook(true);
    });
  }, [loadWorkbook]);

  // Follow the selection. A sheet renamed in place is renamed here too; an unknown sheet (added,
  // or a tab recreated under a new id) or another workbook means the snapshot is stale: reload.
  useEffect(() => {
    return host.onContextChanged((ctx) => {
      const { context: previous, sheets: known } = live.current;
      setContext(ctx);
      if (!previous) return;
      if (previous.workbookId !== ctx.workbookId) {
        reloadStale();
        return;
      }
      if (ctx.sheetId == null) return;
      const sheet = known.find((s) => s.id === ctx.sheetId);
      if (!sheet) reloadStale();
      else if (sheet.name !== ctx.sheetName) {
        setSheets(known.map((s) => (s.id === ctx.sheetId ? { ...s, name: ctx.sheetName } : s)));
      }
    });
  }, [host, reloadStale, setContext, setSheets]);

  // The workbook changed where the context does not show it (Google Sheets: a sheet added, renamed
  // or removed, a report disconnected from the add-on menu): reload, once the pane has a list.
  useEffect(() => {
    return host.onWorkbookChanged?.(() => {
      if (live.current.context && isConnected(settingsRef.current)) reloadStale();
    });
  }, [host, reloadStale]);

  const markBusy = useCallback((key: string, busy: boolean) => {
    setBusyKeys((prev) => {
      const next = new Set(prev);
      if (busy) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);

  /** One request per placement at a time: a second ask while one runs gets the same outcome. */
  const runDisconnect = useCallback(
    (placement: PlacedReport, input: DisconnectInput): Promise<Outcome> => {
      const running = inFlight.current.get(placement.key);
      if (running) return running;
      const epoch = settingsEpoch.current;
      const sameSettings = () => mounted.current && epoch === settingsEpoch.current;
      const run = (async (): Promise<Outcome> => {
        try {
          const plan = await loadDisconnectPlan();
          const returned = await host.platform.disconnect(
            placement.report.deploymentId,
            placement.report.id,
            input,
          );
          if (sameSettings()) setReports(replaceReport(live.current.reports, returned));
          const outcome = plan.disconnectOutcomeMessage(placement, returned, live.current.sheets);
          notifyRef.current({
            intent: outcome.ok ? "success" : "warning",
            message: outcome.message,
            ...(outcome.ok ? { action: undoAction.current(placement) } : {}),
          });
          return outcome;
        } catch (error) {
          // Loaded already when the request went out (a failure to load it is the error here).
          const plan = await loadDisconnectPlan().catch(() => null);
          if (plan && isPlatformError(error) && plan.disconnectMayHaveApplied(error)) {
            // The answer was lost, not necessarily the disconnect: the reloaded list tells.
            const snapshot = await host.loadWorkbook().catch(() => null);
            if (snapshot && sameSettings()) {
              setContext(snapshot.context);
              setSheets(snapshot.sheets);
              setReports(snapshot.reports);
              setProblems(snapshot.problems);
            }
            const outcome = plan.disconnectOutcomeAfterReload(
              placement,
              error,
              snapshot?.reports ?? null,
              live.current.sheets,
            );
            notifyRef.current({
              intent: outcome.ok ? "success" : "error",
              message: outcome.message,
              ...(outcome.ok ? { action: undoAction.current(placement) } : {}),
            });
            return outcome;
          }
          const message = errorMessage(error);
          notifyRef.current({ intent: "error", message });
          return { ok: false, message };
        } finally {
          inFlight.current.delete(placement.key);
          if (mounted.current) markBusy(placement.key, false);
        }
      })();
      inFlight.current.set(placement.key, run);
      markBusy(placement.key, true);
      return run;
    },
    [host, markBusy, setReports, setContext, setSheets],
  );

  const disconnectAt = useCallback(
    async (at?: ActiveContext): Promise<Outcome> => {
      // A command can arrive while the list is still loading: plan against the loaded list.
      if (loading.current) await loading.current.catch(() => undefined);
      const where = at ?? live.current.context;
      if (!isConnected(settingsRef.current)) {
        // Without a tenant and key the list is empty, and "no report here" would mislead.
        const message =
          "The add-in is not connected yet: open Settings and enter the tenant URL and API key.";
        notifyRef.current({ intent: "warning", message });
        return { ok: false, message };
      }
      if (!where) {
        const message = "The workbook is not loaded yet. Try again in a moment.";
        notifyRef.current({ intent: "warning", message });
        return { ok: false, message };
      }
      let plan: ReturnType<DisconnectPlanModule["planDisconnectAt"]>;
      try {
        plan = (await loadDisconnectPlan()).planDisconnectAt(placedOf(live.current.reports), where);
      } catch (error) {
        const message = errorMessage(error);
        notifyRef.current({ intent: "error", message });
        return { ok: false, message };
      }
      if (plan.kind === "nothing-here") {
        notifyRef.current({ intent: "warning", message: plan.message });
        return { ok: false, message: plan.message };
      }
      return runDisconnect(plan.placement, plan.input);
    },
    [runDisconnect, placedOf],
  );

  const disconnectPlacement = useCallback(
    (placement: PlacedReport) =>
      runDisconnect(placement, toDisconnectInput(placement, live.current.context ?? undefined)),
    [runDisconnect],
  );

  // Commands from outside the pane: the cell's right-click menu, an add-on menu item.
  useEffect(() => {
    return host.onCommand((command) => {
      if (command.type !== "disconnect-here") return;
      setContext(command.context);
      void disconnectAt(command.context).then(
        (outcome) => command.done(outcome),
        (error: unknown) => command.done({ ok: false, message: errorMessage(error) }),
      );
    });
  }, [host, disconnectAt, setContext]);

  // connect-workbook's flows (placementChanges.ts), over this pane's state.
  const changesMemory = useRef({ undoing: new Set<string>(), corrected: new Set<string>() });
  const changes = useCallback(
    (): import("./placementChanges.js").PaneChanges => ({
      host,
      live: () => live.current,
      epoch: () => settingsEpoch.current,
      stillCurrent: (epoch) => mounted.current && epoch === settingsEpoch.current,
      applySnapshot: (snapshot) => {
        setContext(snapshot.context);
        setSheets(snapshot.sheets);
        setReports(snapshot.reports);
        setProblems(snapshot.problems);
      },
      applyReport: (report) => {
        const now = live.current.reports;
        const known = now.some((r) => r.id === report.id && r.deploymentId === report.deploymentId);
        setReports(known ? replaceReport(now, report) : [...now, report]);
      },
      applyReports: setReports,
      notify: (notice) => notifyRef.current(notice),
      restored: (key) => setRestored({ key }),
      undoAction: (placement) => undoAction.current(placement),
      memory: changesMemory.current,
    }),
    [host, setContext, setSheets, setReports],
  );
  const withChanges = useCallback(
    async (run: (m: PlacementChangesModule) => Promise<Outcome>): Promise<Outcome> => {
      try {
        return await run(await loadPlacementChanges());
      } catch (error) {
        const message = errorMessage(error);
        notifyRef.current({ intent: "error", message });
        return { ok: false, message };
      }
    },
    [],
  );
  const undoDisconnect = useCallback(
    (placement: PlacedReport) => withChanges((m) => m.undoDisconnect(changes(), placement)),
    [withChanges, changes],
  );
  undoAction.current = (placement) => ({ label: "Undo", run: () => void undoDisconnect(placement) });
  const movePlacementHere = useCallback(
    (placement: PlacedReport) => withChanges((m) => m.moveHere(changes(), placement)),
    [withChanges, changes],
  );
  // A placement whose sheet id is found under a new name: its address is corrected on the service,
  // once (placementChanges.ts). The check is cheap; the code that corrects loads only when needed.
  useEffect(() => {
    if (phase !== "ready" || stale || !isConnected(settingsRef.current)) return;
    const renamed = here.some(
      (p) => p.id && p.sheetId && locatePlacement(p, sheets).note?.kind === "renamed",
    );
    if (!renamed) return;
    void loadPlacementChanges()
      .then((m) => m.correctRenamedSheets(changes()))
      .catch(() => undefined);
  }, [phase, stale, here, sheets, changes]);

  const applyReport = useCallback(
    (report: Report, epoch: number) => {
      if (mounted.current && epoch === settingsEpoch.current) {
        setReports(replaceReport(live.current.reports, report));
      }
    },
    [setReports],
  );
  const liveWorkbook = useCallback(() => {
    const { reports: now, context: at, sheets: known } = live.current;
    return {
      here: splitByWorkbook(placedOf(now), at?.workbookId ?? "").here,
      sheets: known,
      epoch: settingsEpoch.current,
    };
  }, [placedOf]);

  return {
    phase,
    settings,
    loadError,
    loadFailure: loadFailure?.error ?? null,
    refreshing,
    stale,
    problems,
    context,
    sheets,
    placed,
    here,
    elsewhere,
    current,
    busyKeys,
    reload,
    applySettings,
    disconnectAt,
    disconnectPlacement,
    undoDisconnect,
    movePlacementHere,
    restored,
    applyReport,
    liveWorkbook,
  };
}
