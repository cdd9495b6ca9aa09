/** The refresh run's state as components read it (Refresh all and progress: RefreshProgress.tsx). */
import { useSyncExternalStore } from "react";
import type { RefreshRun } from "./refreshRun.js";

export function useRefreshRun(run: RefreshRun) {
  return useSyncExternalStore(run.subscribe, run.getSnapshot, run.getSnapshot);
}
