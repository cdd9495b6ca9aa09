/**
 * Whether the task pane is where the user can see it, and showing it.
 *
 * `Office.addin.showAsTaskpane()` is not enough: since 23 February 2026 it is ignored for add-ins
 * published in Microsoft's Marketplace (it resolves, and the pane stays hidden), and it may reject
 * (learn.microsoft.com/office/dev/add-ins/develop/show-hide-add-in). The signal used here:
 * - Office reports the pane's visibility with `Office.addin.onVisibilityModeChanged`
 *   (SharedRuntime 1.1; `visibilityMode` "Taskpane" or "Hidden", fired when showAsTaskpane or
 *   hide change it);
 * - the page's own `document.visibilityState` (the Page Visibility API: a pane that is open shows
 *   this page, so it is "visible"; a shared runtime started by a right-click with no pane open,
 *   or a pane the user closed, runs it hidden);
 * - the pane is in view when neither says hidden and one says shown;
 * - a pane that is not visible is asked to show; it counts as shown only when Office reports
 *   "Taskpane" within `waitMs` (1.5 s by default). A rejection, or no report in time, means the
 *   pane cannot be shown, and the caller tells the user another way (outcome-dialog.ts).
 */
import type { OfficeApi } from "./office.js";

export const PANE_SHOW_WAIT_MS = 1500;

/** Office.VisibilityMode.taskpane. */
const TASKPANE = "Taskpane";

export function createPaneShower(
  office: Pick<OfficeApi, "addin">,
  page: { visibilityState?: string } | null,
  waitMs = PANE_SHOW_WAIT_MS,
): () => Promise<boolean> {
  let mode: string | null = null;
  const waiting = new Set<() => void>();
  try {
    const subscribed = office.addin?.onVisibilityModeChanged?.((args) => {
      mode = args?.visibilityMode ?? null;
      if (mode === TASKPANE) for (const resolve of [...waiting]) resolve();
    });
    // It returns a promise (of the function that removes the handler): a rejection means no reports.
    void Promise.resolve(subscribed).catch(() => undefined);
  } catch {
    // No visibility reports on this host: the page's visibility alone tells.
  }
  // Either signal saying hidden wins: Office reports what showAsTaskpane and hide change, not
  // necessarily a pane the user closed, which hides the page.
  const visibleNow = () => {
    if (mode !== null && mode !== TASKPANE) return false;
    if (page?.visibilityState === "hidden") return false;
    return mode === TASKPANE || page?.visibilityState === "visible";
  };

  return async function showTaskpane(): Promise<boolean> {
    const show = office.addin?.showAsTaskpane;
    if (visibleNow()) {
      // Already in view: asking again only brings it forward.
      await Promise.resolve(show?.call(office.addin)).catch(() => undefined);
      return true;
    }
    if (!show) return false;
    let seen!: () => void;
    const reported = new Promise<boolean>((resolve) => {
      seen = () => resolve(true);
    });
    waiting.add(seen);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await show.call(office.addin);
      if (visibleNow()) return true;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), waitMs);
      });
      return await Promise.race([reported, timedOut]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      waiting.delete(seen);
    }
  };
}
