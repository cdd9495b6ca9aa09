/**
 * When the pane compares placements with their checksums (docs/decisions.md, "When hand edits are
 * checked"): once per list load, when the list changes without a load (a refresh or a place
 * recorded new checksums: those placements only), and when the user leaves a placement's range
 * (that one only), never on a selection move inside it. Renders nothing; loaded apart from the
 * first screen, with the comparison's code (editWatch.ts).
 */
import { useEffect, useRef, useState } from "react";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { createEditWatch } from "./editWatch.js";
import type { EditNotes } from "./editWatchHandle.js";
import type { PaneState } from "./usePaneState.js";

export default function HandEditsWatch({
  host,
  state,
  notes,
}: {
  host: SpreadsheetHost;
  state: PaneState;
  notes: EditNotes;
}) {
  const [watch] = useState(() => {
    const w = createEditWatch(host);
    w.subscribe(() => notes.set(w.getSnapshot()));
    return w;
  });
  const afterLoad = useRef(true);
  const { phase, refreshing, stale, here, sheets } = state;
  useEffect(() => {
    if (phase !== "ready" || refreshing || stale) {
      if (refreshing) afterLoad.current = true;
      return;
    }
    if (afterLoad.current) {
      afterLoad.current = false;
      void watch.checkAll(here, sheets);
    } else void watch.checkChanged(here, sheets);
  }, [watch, phase, refreshing, stale, here, sheets]);

  // Leaving a placement's range (the placement under the cell changes): that one is read again.
  const currentKey = state.current?.key ?? null;
  const previous = useRef<string | null>(null);
  const live = useRef(state);
  live.current = state;
  useEffect(() => {
    const left = previous.current;
    previous.current = currentKey;
    if (!left || left === currentKey) return;
    const { here: now, sheets: known } = live.current.liveWorkbook();
    void watch.recheck(left, now, known);
  }, [watch, currentKey]);
  return null;
}
