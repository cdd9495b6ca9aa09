/**
 * The Excel page's entry, kept tiny on purpose: it associates the right-click command first (a
 * right-click can be what starts this shared runtime, and Office runs the command as soon as it is
 * associated), then loads the pane (pane.ts) as a separate chunk. Commands that arrive meanwhile
 * wait in `early` and run once the pane's core is ready.
 */
import { createEarlyCommand, DISCONNECT_HERE_ACTION } from "./early-command.js";
import type { CommandEvent, OfficeApi } from "./office.js";

const office = (globalThis as { Office?: OfficeApi & { onReady?(): Promise<unknown> } }).Office;
const early = createEarlyCommand<CommandEvent>();

office?.actions?.associate(DISCONNECT_HERE_ACTION, (event) => early.invoke(event));

function showStartFailure() {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = "The Reports pane could not start. Close it and open it again.";
  notice.dataset.ok = "false";
  notice.hidden = false;
}

Promise.all([office?.onReady?.(), import("./pane.js")])
  .then(([, pane]) => pane.startPane(early))
  .catch(() => early.failed(showStartFailure));
