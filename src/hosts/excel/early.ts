/**
 * The first script of the Excel page, kept tiny on purpose and loaded before the pane's module: it
 * associates the right-click command as soon as Office is ready. A right-click can be what starts
 * this shared runtime, and Office runs the command as soon as it is associated; invocations that
 * arrive before the pane's core is ready wait in `disconnectHereEarly` (main.ts makes it ready).
 */
import { DISCONNECT_HERE_ACTION, disconnectHereEarly } from "./early-command.js";
import type { OfficeApi } from "./office.js";

/** If the pane's code has not started by then, it will not: complete what waits, and say so. */
const START_LIMIT_MS = 60_000;

const office = (
  globalThis as { Office?: OfficeApi & { onReady?(callback: (info?: { host?: unknown }) => void): unknown } }
).Office;

/** The page's static explanation (taskpane.html), shown at once: no pane will replace it. */
function explainOutsideOffice() {
  document.getElementById("outside")?.classList.add("addin-outside-now");
}

// As Office's own command template does: associate once Office.js is ready, which does not wait
// for this page's other scripts. Without Office.js (blocked, offline), or when Office.onReady
// reports no host (the page opened outside Office), the page says what it is.
if (!office?.onReady) explainOutsideOffice();
office?.onReady?.((info) => {
  if (!info?.host) {
    explainOutsideOffice();
    return;
  }
  office.actions?.associate(DISCONNECT_HERE_ACTION, (event) => disconnectHereEarly.invoke(event));
});

setTimeout(() => {
  if (disconnectHereEarly.isReady) return;
  disconnectHereEarly.failed(() => {
    const notice = document.getElementById("notice");
    if (!notice) return;
    notice.textContent = "The Reports pane could not start. Close it and open it again.";
    notice.dataset.ok = "false";
    notice.hidden = false;
  });
}, START_LIMIT_MS);
