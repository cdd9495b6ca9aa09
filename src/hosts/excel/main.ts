/**
 * The Excel task pane page. With the shared runtime it is also the FunctionFile, so the right-click
 * command reaches the same host (and so the same pane) as the ribbon. The command is associated
 * earlier, by early.ts (a separate, tiny script that runs before this module has loaded); here it
 * gets its handler, and any right-click that arrived meanwhile runs (early.ts's queue: imported
 * here, it is the same module, loaded once).
 *
 * The host and the first screen's reads are started by early.ts too, once Office is ready
 * (start.ts), so the first list's requests go out while this module loads; what the first screen
 * does not run, the command's code, is loaded apart, started here at once.
 */
import { mountedPane, mountTaskPane } from "../../../taskpane/mount.js";
import { once } from "../../core/once.js";
import type { CommandOutcome } from "./commands.js";
import { disconnectHereEarly } from "./early.js";
import { type CommandEvent, officeGlobals } from "./office.js";
import { prepareExcel, startExcel } from "./start.js";

const START_FAILED = "The Reports pane could not start. Close it and open it again.";

function showNotice(outcome: CommandOutcome) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = outcome.message;
  notice.dataset.ok = String(outcome.ok);
  notice.hidden = false;
}

// When this module runs before early.ts has started them (it need not: both load at once), its loads
// start here.
prepareExcel();

// Without Office.js (blocked or offline) there is nothing to start: early.ts shows what this page
// is. Outside Office (no host) the same.
globalThis.Office?.onReady((info) => {
  if (!info?.host) return;
  const root = document.getElementById("root")!;
  // Made by early.ts when it ran first (its first load is then on its way), else made here.
  const host = startExcel();

  // Ready before the pane mounts: the command waits a moment for the pane to mount, then calls the
  // pane's store with the cell (mountedPane), or does the work itself if no pane is mounted. Its
  // code (commands.ts) loads apart; commands that arrive meanwhile wait for it, in order. When the pane cannot be shown (showAsTaskpane is ignored for
  // Marketplace add-ins), the outcome also goes to a dialog of ours (outcome-dialog.ts).
  const command = once(async () => {
    const [{ createDisconnectHereCommand }, { createPaneShower }, { createOutcomeDialog }] =
      await Promise.all([
        import("./commands.js"),
        import("./pane-visibility.js"),
        import("./outcome-dialog.js"),
      ]);
    const office = officeGlobals().Office;
    return createDisconnectHereCommand({
      host,
      pane: (timeoutMs) => mountedPane(host, timeoutMs),
      showTaskpane: createPaneShower(office, document),
      notify: showNotice,
      showOutside: createOutcomeDialog(office, location.href),
    });
  });
  void command().catch(() => undefined);
  disconnectHereEarly.ready((event: CommandEvent) => {
    command().then(
      (run) => void run(event),
      () => {
        showNotice({ ok: false, message: START_FAILED });
        event.completed();
      },
    );
  });

  try {
    mountTaskPane(root, host);
  } catch {
    showNotice({ ok: false, message: START_FAILED });
  }
});
