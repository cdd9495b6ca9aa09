/**
 * A long list's lookup index (src/core/placement-index.ts), built once the browser is idle after
 * the list is shown: until then a selection change goes through the list (findPlacementAt), after
 * that it asks the index. Not on the first list's path: the index's code is a chunk of its own,
 * loaded only for a long list, and building it waits until the browser is idle.
 */
import { useEffect } from "react";
import { once } from "../src/core/once.js";
import type { ReportPlacement } from "../src/core/schema.js";

const loadIndex = once(() => import("../src/core/placement-index.js"));

/** Lists up to this long are gone through at each question: an index would gain nothing to speak of. */
const INDEX_ABOVE = 100;

export function useIndexWhenIdle(placed: readonly ReportPlacement[]): void {
  useEffect(() => {
    if (placed.length <= INDEX_ABOVE) return;
    let live = true;
    const run = () =>
      loadIndex().then(
        (m) => live && m.indexPlacements(placed),
        () => undefined,
      );
    const g = globalThis as { requestIdleCallback?: (run: () => void, o: { timeout: number }) => void };
    if (g.requestIdleCallback) g.requestIdleCallback(run, { timeout: 2000 });
    else setTimeout(run, 200);
    return () => {
      live = false;
    };
  }, [placed]);
}
