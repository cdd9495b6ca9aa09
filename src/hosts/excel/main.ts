/**
 * The Excel task pane page. With the shared runtime it is also the FunctionFile, so the right-click
 * command reaches the same host (and so the same pane) as the ribbon. The command is associated
 * earlier, by early.ts (a separate, tiny script that runs before this module has loaded); here it
 * gets its handler, and any right-click that arrived meanwhile runs.
 */
import { mountTaskPane } from "../../../taskpane/mount.js";
import { fetchTransport } from "../../core/transport.js";
import { type CommandOutcome, createDisconnectHereCommand } from "./commands.js";
import { disconnectHereEarly } from "./early-command.js";
import { createExcelHost } from "./host.js";
import { createRelayingTransport, loadRelayRoute } from "./relay-transport.js";

function showNotice(outcome: CommandOutcome) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = outcome.message;
  notice.dataset.ok = String(outcome.ok);
  notice.hidden = false;
}

Office.onReady(() => {
  const root = document.getElementById("root")!;
  // The add-in server says (config.json beside the page) which tenants to reach through its relay.
  const transport = createRelayingTransport({
    direct: fetchTransport((input, init) => fetch(input, init)),
    route: () => loadRelayRoute(window.location.href),
  });
  const host = createExcelHost({ transport });
  const showTaskpane = () => Office.addin.showAsTaskpane();

  // Ready before the pane mounts: the command waits a moment for the pane's listener, then does the
  // work itself if no pane answers.
  const command = createDisconnectHereCommand({
    host,
    showTaskpane,
    async notify(outcome) {
      showNotice(outcome);
      await showTaskpane().catch(() => undefined);
    },
  });
  disconnectHereEarly.ready((event) => void command(event));

  try {
    mountTaskPane(root, host);
  } catch {
    showNotice({ ok: false, message: "The Reports pane could not start. Close it and open it again." });
  }
});
