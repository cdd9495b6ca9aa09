/**
 * Refresh all (docs/pane.md, "Refresh"): the button beside the list's heading, and the run's state
 * as components read it. A run in progress shows RefreshProgress.tsx, loaded with the run.
 */
import { Button } from "@fluentui/react-components";
import { useSyncExternalStore } from "react";
import type { RefreshRun } from "./refreshRun.js";

export function useRefreshRun(run: RefreshRun) {
  return useSyncExternalStore(run.subscribe, run.getSnapshot, run.getSnapshot);
}

/** The "Refresh all" button of the list's heading: hidden while a run shows its progress instead. */
export function RefreshAllButton({ run, count }: { run: RefreshRun; count: number }) {
  const state = useRefreshRun(run);
  if (state.running || count === 0) return null;
  return (
    <Button size="small" appearance="subtle" onClick={() => void run.start({ kind: "all" })}>
      Refresh all
    </Button>
  );
}
