/**
 * "Disconnect report here", the cell's right-click command (manifest: ExecuteFunction
 * `disconnectReportHere`, associated with `Office.actions.associate` in early.ts, whose queue holds
 * a right-click until this code is ready).
 *
 * It reads the active cell with the host's own `activeContext()` and then:
 * - when the task pane is mounted (the shared runtime runs it in this same page), calls the pane's
 *   store with the cell (`pane`, taskpane/paneStore.ts's `mountedPane`), shows the pane, and waits
 *   for the pane's outcome: the pane plans and disconnects with the core, like its own button, and
 *   shows the result;
 * - when no pane is mounted, runs the same flow as the pane (the core's disconnect-flow.ts: plan at
 *   the cell from the workbook's list, DELETE, the list reloaded when the answer was lost, the
 *   outcome) and reports the outcome through `notify`.
 * Then, when the pane cannot be shown (`showTaskpane` resolves false: Office ignores
 * showAsTaskpane for Marketplace add-ins since 23 February 2026, see pane-visibility.ts), the
 * outcome also goes to `showOutside` (a dialog of ours, outcome-dialog.ts), so it never lands only
 * in a page nobody sees.
 * On a cell with no placement it says so and sends nothing. When the disconnect's answer is lost
 * (it may have been applied), it reloads the reports and says what they show, as the pane does.
 * `event.completed()` is called on every path, errors included, or Office keeps showing the command
 * as running.
 */

import { disconnectOutcome, runDisconnect } from "../../core/disconnect-flow.js";
import { isPlatformError } from "../../core/errors.js";
import type { ActiveContext, Outcome } from "../host.js";
import type { ExcelHost } from "./host.js";
import type { CommandEvent } from "./office.js";

export { DISCONNECT_HERE_ACTION } from "./early.js";

export type CommandOutcome = Outcome;

export interface DisconnectHereDeps {
  host: ExcelHost;
  /**
   * The mounted pane's "Disconnect report here" at a cell, as soon as the pane is mounted; null
   * after `timeoutMs` without one. Without it the command always does the work itself.
   */
  pane?: (timeoutMs: number) => Promise<((context: ActiveContext) => Promise<CommandOutcome>) | null>;
  /**
   * Brings the task pane into view (pane-visibility.ts): resolves false when the pane could not be
   * shown; a rejection counts as false too.
   */
  showTaskpane?: () => Promise<boolean>;
  /** Writes an outcome the pane did not show into the page (no pane mounted, or a failure). */
  notify: (outcome: CommandOutcome) => void | Promise<void>;
  /** Tells the user when the pane cannot be shown (the outcome dialog). */
  showOutside?: (outcome: CommandOutcome) => unknown;
  /** How long to wait for a pane that is still starting (the command can start the runtime). */
  listenerWaitMs?: number;
  /** How long to wait for the pane's answer before completing the command anyway. */
  paneTimeoutMs?: number;
}

const LISTENER_WAIT_MS = 3000;

interface RunResult {
  outcome: CommandOutcome;
  /** True when the pane showed the outcome itself. */
  shown: boolean;
  /** Whether the pane is in view, when the run already asked to show it. */
  visible?: boolean;
}
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
  const inFlight = new Map<string, Promise<RunResult>>();
  // Commands run one after another: a second right-click elsewhere in the same placement plans
  // against the list the first one left, so it never sends a second request for that placement.
  let queue: Promise<unknown> = Promise.resolve();

  /** True when the pane is in view afterwards (or there is no way to ask: nothing else to do). */
  async function showPane(): Promise<boolean> {
    if (!deps.showTaskpane) return true;
    try {
      return await deps.showTaskpane();
    } catch {
      return false;
    }
  }

  function askPane(
    pane: (context: ActiveContext) => Promise<CommandOutcome>,
    context: ActiveContext,
  ): Promise<CommandOutcome> {
    const answer = pane(context);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silent = new Promise<CommandOutcome>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            message: "The Reports pane did not answer. Open it and check the report's status.",
          }),
        deps.paneTimeoutMs ?? PANE_TIMEOUT_MS,
      );
    });
    return Promise.race([answer, silent]).finally(() => clearTimeout(timer));
  }

  async function disconnectHere(context: ActiveContext): Promise<RunResult> {
    const pane = await deps.pane?.(deps.listenerWaitMs ?? LISTENER_WAIT_MS);
    if (pane) {
      // The pane handles the command, hidden or not; whether it is seen decides the dialog.
      const showing = showPane();
      const outcome = await askPane(pane, context);
      return { outcome, shown: true, visible: await showing };
    }
    const gateway = host.platform;
    // The placement is on the active sheet: the message names it as that sheet is called now.
    const activeSheet = { id: context.sheetId ?? null, name: context.sheetName };
    const result = await runDisconnect(
      { at: context },
      {
        listReports: async () => (await gateway.listWorkbookReports(context.workbookId)).reports,
        disconnect: (p, input) => gateway.disconnect(p.report.deploymentId, p.report.id, input),
        sheets: () => [activeSheet],
      },
    );
    return { outcome: disconnectOutcome(result, failureMessage), shown: false };
  }

  async function run(): Promise<RunResult | null> {
    const context = await host.activeContext();
    const key = cellKey(context);
    const running = inFlight.get(key);
    if (running) {
      await running;
      return null; // the first run reports it
    }
    const result = queue.catch(() => undefined).then(() => disconnectHere(context));
    queue = result;
    inFlight.set(key, result);
    try {
      return await result;
    } finally {
      inFlight.delete(key);
    }
  }

  return async function disconnectReportHere(event: CommandEvent): Promise<void> {
    try {
      const result: RunResult | null = await run().catch((error: unknown) => ({
        outcome: { ok: false, message: failureMessage(error) },
        shown: false,
      }));
      if (!result) return;
      if (!result.shown) {
        try {
          await deps.notify(result.outcome);
        } catch {
          // The page could not show it; the dialog below may still.
        }
      }
      const visible = result.visible ?? (await showPane());
      if (!visible) {
        try {
          await deps.showOutside?.(result.outcome);
        } catch {
          // Nothing more to tell the user with; completing the event below still matters.
        }
      }
    } finally {
      event.completed();
    }
  };
}
