/**
 * The Excel task pane page. With the shared runtime it is also the FunctionFile: the right-click
 * command is associated here, and it reaches the same host (and so the same pane) as the ribbon.
 */
import { mountTaskPane } from "../../../taskpane/mount.js";
import { type CommandOutcome, createDisconnectHereCommand, DISCONNECT_HERE_ACTION } from "./commands.js";
import { createExcelHost } from "./host.js";

function showNotice(outcome: CommandOutcome) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = outcome.message;
  notice.dataset.ok = String(outcome.ok);
  notice.hidden = false;
}

Office.onReady(() => {
  const root = document.getElementById("root")!;
  const host = createExcelHost();
  const showTaskpane = () => Office.addin.showAsTaskpane();

  // Associated before the pane mounts: a right-click can be what started this runtime, and the
  // command waits a moment for the pane's listener before doing the work itself.
  if (Office.actions?.associate) {
    Office.actions.associate(
      DISCONNECT_HERE_ACTION,
      createDisconnectHereCommand({
        host,
        showTaskpane,
        async notify(outcome) {
          showNotice(outcome);
          await showTaskpane().catch(() => undefined);
        },
      }),
    );
  }

  try {
    mountTaskPane(root, host);
  } catch {
    showNotice({ ok: false, message: "The Reports pane could not start. Close it and open it again." });
  }
});
