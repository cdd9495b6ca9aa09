/**
 * "Disconnect report here", the cell's right-click command (manifest: ExecuteFunction
 * `disconnectReportHere`, associated with `Office.actions.associate` in main.ts).
 *
 * It reads the active cell with the host's own `activeContext()` and then:
 * - when the task pane listens (the shared runtime runs it in this same page), hands the pane a
 *   `disconnect-here` command, shows the pane, and waits for the pane's outcome: the pane plans and
 *   disconnects with the core, like its own button, and shows the result;
 * - when no pane listens, does the same work with the same core code (`planDisconnectAt`,
 *   `disconnectOutcomeMessage`) and reports the outcome through `notify`.
 * On a cell with no placement it says so and sends nothing. When the disconnect's answer is lost
 * (it may have been applied), it reloads the reports and says what they show, as the pane does.
 * `event.completed()` is called on every path, errors included, or Office keeps showing the command
 * as running.
 */

import {
  disconnectMayHaveApplied,
  disconnectOutcomeAfterReload,
  disconnectOutcomeMessage,
  planDisconnectAt,
} from "../../core/disconnect-plan.js";
import { isPlatformError } from "../../core/errors.js";
import { placedReports } from "../../core/placement-view.js";
import type { ActiveContext, Outcome } from "../host.js";
import type { ExcelHost } from "./host.js";
import type { CommandEvent } from "./office.js";

export { DISCONNECT_HERE_ACTION } from "./early-command.js";

export type CommandOutcome = Outcome;

export interface DisconnectHereDeps {
  host: ExcelHost;
  /** Brings the task pane into view (`Office.addin.showAsTaskpane`). */
  showTaskpane?: () => Promise<void>;
  /** Reports an outcome the pane did not show (no pane listening, or a failure before it). */
  notify: (outcome: CommandOutcome) => void | Promise<void>;
  /** How long to wait for a pane that is still starting (the command can start the runtime). */
  listenerWaitMs?: number;
  /** How long to wait for the pane's answer before completing the command anyway. */
  paneTimeoutMs?: number;
}

const LISTENER_WAIT_MS = 3000;
const PANE_TIMEOUT_MS = 120_000;

function failureMessage(error: unknown): string {
  // PlatformErrors are written for the user and hold no secret; anything else gets a sentence.
  if (isPlatformError(error)) return error.message;
  const message = (error as { message?: unknown } | null)?.message;
  const detail = typeof message === "string" && message.trim() ? ` (${message.trim()})` : "";
  return `Disconnect report here did not finish${detail}. Open the Reports pane and try again.`;
}

/** One key per cell: a second right-click on the same cell while the first runs joins it. */
function cellKey(context: ActiveContext): string {
  return JSON.stringify([context.workbookId, context.sheetId ?? "", context.sheetName, context.cell]);
}

export function createDisconnectHereCommand(
  deps: DisconnectHereDeps,
): (event: CommandEvent) => Promise<void> {
  const { host } = deps;
  const inFlight = new Map<string, Promise<CommandOutcome>>();
  // Commands run one after another: a second right-click elsewhere in the same placement plans
  // against the list the first one left, so it never sends a second request for that placement.
  let queue: Promise<unknown> = Promise.resolve();

  async function showPane() {
    try {
      await deps.showTaskpane?.();
    } catch {
      // Showing is a courtesy; the pane still handles the command while hidden.
    }
  }

  function askPane(context: ActiveContext): Promise<CommandOutcome> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () =>
          resolve({
            ok: false,
            message: "The Reports pane did not answer. Open it and check the report's status.",
          }),
        deps.paneTimeoutMs ?? PANE_TIMEOUT_MS,
      );
      host.commands.emit({
        type: "disconnect-here",
        context,
        done(outcome) {
          clearTimeout(timer);
          resolve(outcome);
        },
      });
    });
  }

  async function disconnectHere(
    context: ActiveContext,
  ): Promise<{ outcome: CommandOutcome; shown: boolean }> {
    if (await host.commands.waitForListener(deps.listenerWaitMs ?? LISTENER_WAIT_MS)) {
      const showing = showPane();
      const outcome = await askPane(context);
      await showing;
      return { outcome, shown: true };
    }
    const gateway = host.platform;
    const { reports } = await gateway.listWorkbookReports(context.workbookId);
    const plan = planDisconnectAt(placedReports(reports), context);
    if (plan.kind === "nothing-here") return { outcome: { ok: false, message: plan.message }, shown: false };
    const { report } = plan.placement;
    // The placement is on the active sheet: the message names it as that sheet is called now.
    const activeSheet = { id: context.sheetId ?? null, name: context.sheetName };
    try {
      const returned = await gateway.disconnect(report.deploymentId, report.id, plan.input);
      return { outcome: disconnectOutcomeMessage(plan.placement, returned, [activeSheet]), shown: false };
    } catch (error) {
      if (!isPlatformError(error) || !disconnectMayHaveApplied(error)) throw error;
      // The answer was lost, not necessarily the disconnect: the reloaded list tells, as in the pane.
      const reloaded = await gateway.listWorkbookReports(context.workbookId).catch(() => null);
      const outcome = disconnectOutcomeAfterReload(plan.placement, error, reloaded?.reports ?? null, [
        activeSheet,
      ]);
      return { outcome, shown: false };
    }
  }

  async function run(): Promise<{ outcome: CommandOutcome; shown: boolean }> {
    const context = await host.activeContext();
    const key = cellKey(context);
    const running = inFlight.get(key);
    if (running) return { outcome: await running, shown: true }; // the first run reports it
    let shown = false;
    const outcome = queue
      .catch(() => undefined)
      .then(() => disconnectHere(context))
      .then((r) => {
        shown = r.shown;
        return r.outcome;
      });
    queue = outcome;
    inFlight.set(key, outcome);
    try {
      return { outcome: await outcome, shown };
    } finally {
      inFlight.delete(key);
    }
  }

  return async function disconnectReportHere(event: CommandEvent): Promise<void> {
    try {
      const { outcome, shown } = await run();
      if (!shown) await deps.notify(outcome);
    } catch (error) {
      try {
        await deps.notify({ ok: false, message: failureMessage(error) });
      } catch {
        // Nothing more to tell the user with; completing the event below still matters.
      }
    } finally {
      event.completed();
    }
  };
}
