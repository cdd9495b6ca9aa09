/**
 * The Excel task pane, loaded by main.ts once the right-click command is associated. With the
 * shared runtime this page is also the FunctionFile, so the command reaches the same host (and so
 * the same pane) as the ribbon.
 */
import { mountTaskPane } from "../../../taskpane/mount.js";
import { fetchTransport } from "../../core/transport.js";
import { type CommandOutcome, createDisconnectHereCommand } from "./commands.js";
import type { EarlyCommand } from "./early-command.js";
import { createExcelHost } from "./host.js";
import type { CommandEvent } from "./office.js";
import { createRelayingTransport, loadRelayRoute } from "./relay-transport.js";

function showNotice(outcome: CommandOutcome) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = outcome.message;
  notice.dataset.ok = String(outcome.ok);
  notice.hidden = false;
}

export function startPane(early: EarlyCommand<CommandEvent>): void {
  const root = document.getElementById("root")!;
  // The add-in server says (config.json beside the page) which tenants to reach through its relay.
  const transport = createRelayingTransport({
    direct: fetchTransport(),
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
  early.ready((event) => void command(event));

  try {
    mountTaskPane(root, host);
  } catch {
    showNotice({ ok: false, message: "The Reports pane could not start. Close it and open it again." });
  }
}
