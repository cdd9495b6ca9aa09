/**
 * A refresh as the pane runs it (docs/pane.md, "Refresh"): Refresh, Refresh report and Refresh all
 * planned by the core (planRefresh), handed to the host (which runs the core's refresh flow), and
 * followed row by row: Queued, Refreshing…, then refreshed or Not refreshed with the reason. Plain
 * TypeScript outside React (components read it with useSyncExternalStore), so a run survives
 * switching views, and one run at a time.
 */
import type { EditNote } from "../src/core/hand-edits.js";
import type { PlacedReport, SheetRef } from "../src/core/placement-view.js";
import { type RefreshSummary, refreshProgressText, refreshSummary } from "../src/core/refresh-flow.js";
import type { RefreshScope } from "../src/core/refresh-plan.js";
import type { Report } from "../src/core/schema.js";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";
import type { Notice } from "./usePaneState.js";

export type RowStatus =
  | { kind: "queued" }
  | { kind: "refreshing"; text: string }
  | { kind: "not-refreshed"; text: string };

export interface RefreshRunState {
  running: boolean;
  /** Placements the run will try (those it cannot are counted apart: Refresh all counts only what it tries). */
  total: number;
  /** Placements refreshed so far. */
  refreshed: number;
  /** Placements finished so far, refreshed or not. */
  finished: number;
  /** Stop was pressed: the placement being written is finished, the rest are not started. */
  stopping: boolean;
  /** What each placement of the run shows, by placement key; refreshed ones show their new state. */
  rows: ReadonlyMap<string, RowStatus>;
  /** Asked before cells that are not the placement's are overwritten. */
  question: string | null;
}

const IDLE: RefreshRunState = {
  running: false,
  total: 0,
  refreshed: 0,
  finished: 0,
  stopping: false,
  rows: new Map(),
  question: null,
};

export interface RefreshRunDeps {
  host: SpreadsheetHost;
  /** This workbook's placements and sheets as the pane shows them now, and the settings' epoch. */
  workbook(): { here: readonly PlacedReport[]; sheets: readonly SheetRef[]; epoch: number };
  /**
   * A report the service recorded a refresh on: the list shows it (Up to date, refreshed just now),
   * unless the settings changed since the run began (`epoch`): then it is void.
   */
  onReport(report: Report, epoch: number): void;
  notify(notice: Notice): void;
  /** Hand edits the pane found (editWatch.ts): an edited placement's refresh asks first. */
  edits?(): ReadonlyMap<string, EditNote>;
}

export interface RefreshRun {
  getSnapshot(): RefreshRunState;
  subscribe(listener: () => void): () => void;
  /** Starts a refresh; resolves when it is over (at once when one is running, or nothing to do). */
  start(scope: RefreshScope): Promise<void>;
  stop(): void;
  /** The user's answer to the overwrite question. */
  answer(overwrite: boolean): void;
}

/** The core's summary as a pane message. */
function notice(summary: RefreshSummary): Notice {
  return { intent: summary.tone, message: summary.message };
}

export function createRefreshRun(deps: RefreshRunDeps): RefreshRun {
  let state = IDLE;
  const listeners = new Set<() => void>();
  let controller: AbortController | null = null;
  let pendingAnswer: ((yes: boolean) => void) | null = null;

  const set = (patch: Partial<RefreshRunState>) => {
    state = { ...state, ...patch };
    for (const l of [...listeners]) l();
  };
  const setRow = (key: string, status: RowStatus | null) => {
    const rows = new Map(state.rows);
    if (status) rows.set(key, status);
    else rows.delete(key);
    set({ rows });
  };

  async function start(scope: RefreshScope): Promise<void> {
    if (state.running) return;
    const refresh = deps.host.refreshPlacements?.bind(deps.host);
    if (!refresh) return;
    // The planner loads with the first refresh: the first screen does without it.
    set({ running: true, total: 0, refreshed: 0, finished: 0, stopping: false, question: null });
    let plan: ReturnType<typeof import("../src/core/refresh-plan.js").planRefresh>;
    let epoch = 0;
    try {
      const { planRefresh } = await import("../src/core/refresh-plan.js");
      const { here, sheets, epoch: current } = deps.workbook();
      epoch = current;
      plan = planRefresh(here, scope, sheets);
    } catch (error) {
      set({ running: false });
      deps.notify({ intent: "error", message: errorMessage(error) });
      return;
    }
    const rows = new Map<string, RowStatus>();
    for (const item of plan.items) rows.set(item.placement.key, { kind: "queued" });
    for (const n of plan.notRefreshed) rows.set(n.placement.key, { kind: "not-refreshed", text: n.message });
    if (plan.items.length === 0) {
      set({ ...IDLE, rows });
      deps.notify(notice(refreshSummary([], plan.notRefreshed)));
      return;
    }
    controller = new AbortController();
    set({
      running: true,
      total: plan.items.length,
      refreshed: 0,
      finished: 0,
      stopping: false,
      rows,
      question: null,
    });
    const ask = (question: string) =>
      new Promise<boolean>((resolve) => {
        pendingAnswer = resolve;
        set({ question });
      });
    // A placement edited by hand is refreshed only if the user says so (docs/pane.md, "Edited").
    const notes = deps.edits?.();
    if (notes && plan.items.some((i) => notes.get(i.placement.key)?.kind === "edited")) {
      const { editedRefreshQuestion, editsKeptMessage } = await import("../src/core/hand-edits.js");
      const kept: typeof plan.items = [];
      for (const item of plan.items) {
        const note = notes.get(item.placement.key);
        if (note?.kind !== "edited") {
          kept.push(item);
          continue;
        }
        if (!controller.signal.aborted && (await ask(editedRefreshQuestion(item.placement, note)))) {
          kept.push(item);
          continue;
        }
        const message = editsKeptMessage(item.placement, note);
        plan.notRefreshed.push({ placement: item.placement, reason: "edited", message });
        setRow(item.placement.key, { kind: "not-refreshed", text: message });
      }
      plan = { ...plan, items: kept };
      if (kept.length === 0) {
        controller = null;
        pendingAnswer = null;
        set({ running: false, stopping: false, question: null, total: 0 });
        deps.notify(notice(refreshSummary([], plan.notRefreshed)));
        return;
      }
      set({ total: kept.length });
    }
    try {
      const outcomes = await refresh(plan.items, {
        signal: controller.signal,
        onProgress: (p) =>
          setRow(p.item.placement.key, {
            kind: "refreshing",
            text: refreshProgressText(p.phase, p.rows, p.totalRows),
          }),
        onOutcome: (o) => {
          if (o.status === "refreshed") {
            deps.onReport(o.report, epoch);
            setRow(o.item.placement.key, null);
          } else setRow(o.item.placement.key, { kind: "not-refreshed", text: o.message });
          set({
            finished: state.finished + 1,
            refreshed: state.refreshed + (o.status === "refreshed" ? 1 : 0),
          });
        },
        confirmOverwrite: ask,
      });
      deps.notify(notice(refreshSummary(outcomes, plan.notRefreshed)));
    } catch (error) {
      deps.notify({ intent: "error", message: errorMessage(error) });
      // What never started is not left "Queued".
      const left = new Map(state.rows);
      for (const [key, row] of left) if (row.kind !== "not-refreshed") left.delete(key);
      set({ rows: left });
    } finally {
      controller = null;
      pendingAnswer = null;
      set({ running: false, stopping: false, question: null });
    }
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start,
    stop() {
      if (!state.running || !controller) return;
      controller.abort();
      set({ stopping: true });
      // A question still open is answered "no": nothing is overwritten after Stop.
      if (pendingAnswer) {
        const answer = pendingAnswer;
        pendingAnswer = null;
        set({ question: null });
        answer(false);
      }
    },
    answer(overwrite) {
      const answer = pendingAnswer;
      pendingAnswer = null;
      set({ question: null });
      answer?.(overwrite);
    },
  };
}
