/**
 * The pane's handle on the refresh run (refreshRun.ts): the same store interface, idle until the
 * first refresh, when the run's code loads (the first screen does without it) and takes over.
 */
import { once } from "../src/core/once.js";
import type { RefreshScope } from "../src/core/refresh-plan.js";
import { errorMessage } from "./errorMessage.js";
import type { RefreshRun, RefreshRunDeps, RefreshRunState } from "./refreshRun.js";

const IDLE: RefreshRunState = {
  running: false,
  total: 0,
  refreshed: 0,
  finished: 0,
  stopping: false,
  rows: new Map(),
  question: null,
};

export function createRefreshHandle(deps: RefreshRunDeps): RefreshRun {
  let run: RefreshRun | null = null;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  // A chunk that failed to load is asked for again by the next refresh.
  const load = once(() =>
    import("./refreshRun.js").then((m) => {
      run = m.createRefreshRun(deps);
      run.subscribe(notify);
      return run;
    }),
  );
  return {
    getSnapshot: () => run?.getSnapshot() ?? IDLE,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start(scope: RefreshScope) {
      try {
        await (await load()).start(scope);
      } catch (error) {
        deps.notify({ intent: "error", message: errorMessage(error) });
      }
    },
    stop: () => run?.stop(),
    answer: (overwrite) => run?.answer(overwrite),
  };
}
