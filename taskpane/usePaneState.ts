/**
 * The pane's state for its components: the pane's store (paneStore.ts, outside React) created once
 * per host, attached while the pane is mounted, and read with `useSyncExternalStore`.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { useIndexWhenIdle } from "./indexWhenIdle.js";
import { createPaneStore, type Notice, type PaneState } from "./paneStore.js";

export { isConnected, loadDisconnectPlan, type Notice, type PaneState } from "./paneStore.js";

export function usePaneState(host: SpreadsheetHost, notify: (notice: Notice) => void): PaneState {
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  const store = useMemo(() => createPaneStore(host, (notice) => notifyRef.current(notice)), [host]);
  useEffect(() => store.attach(), [store]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  // A long list is indexed for the selection's lookups once it is shown (indexWhenIdle.ts).
  useIndexWhenIdle(snapshot.placed);
  return { ...snapshot, ...store.actions };
}
