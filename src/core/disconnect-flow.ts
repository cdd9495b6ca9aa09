/**
 * "Disconnect report here", as a flow written once (docs/architecture.md, "Disconnect report here,
 * from the selection to the DELETE"; the disconnect rules of docs/platform-api.md): the plan (the
 * placement under the cell and the input that removes exactly it, from the workbook's list, or a
 * placement already chosen from the list with its input), the DELETE, the recovery when its answer
 * is lost (the list reloaded tells whether it was applied), and the outcome in words
 * (disconnect-plan.ts decides each of these). The program yields what it needs done;
 * `runDisconnect` (the task pane, the Excel right-click command) and `runDisconnectSync` (the Apps
 * Script menu) execute it over the host's functions.
 */

import {
  type DisconnectPlan,
  disconnectMayHaveApplied,
  disconnectOutcomeAfterReload,
  disconnectOutcomeMessage,
  planDisconnectAt,
} from "./disconnect-plan.js";
import { isPlatformError, type PlatformError } from "./errors.js";
import type { Outcome } from "./messages.js";
import { type PlacedReport, placedReports, type SheetRef } from "./placement-view.js";
import type { PlacementAt } from "./placements.js";
import { runProgram, runProgramSync } from "./program.js";
import type { DisconnectInput, Report } from "./schema.js";

// The plan, with the flow, in the one module the task pane loads when it first disconnects.
export { planDisconnectAt };

/**
 * What to disconnect: the placement under a cell (planned from `placed`, the list in hand, or from
 * the workbook's list read first when none is given), or a placement chosen from the list with the
 * input that removes it (toDisconnectInput).
 */
export type DisconnectRequest =
  | { at: PlacementAt; placed?: readonly PlacedReport[] }
  | { placement: PlacedReport; input: DisconnectInput };

export type DisconnectEffect =
  /** The workbook's reports as the service has them now, to plan with. Answered with Report[]. */
  | { type: "list" }
  /** The service's DELETE of the placement (disconnect rules 1-10). Answered with the report after it. */
  | { type: "disconnect"; placement: PlacedReport; input: DisconnectInput }
  /**
   * The DELETE's answer was lost (`error`), not necessarily the DELETE: the workbook's reports as
   * they are now, to see whether it was applied. Answered with Report[]; a failure is an answer too
   * (the outcome then says the list could not be reloaded).
   */
  | { type: "reload"; placement: PlacedReport; error: PlatformError }
  /** The workbook's sheets as they are now, so the outcome names a renamed sheet as it is called now. */
  | { type: "sheets" };

export type DisconnectResult =
  /** Nothing is under the cell: nothing was sent. */
  | { status: "nothing-here"; placement: null; outcome: Outcome }
  /** The service answered: `returned` is the report as it stands after the call. */
  | {
      status: "answered";
      placement: PlacedReport;
      input: DisconnectInput;
      returned: Report;
      outcome: Outcome;
    }
  /**
   * The answer was lost (`error`) and the list was reloaded: `reports` as it shows them, or null
   * when the reload failed too.
   */
  | {
      status: "reloaded";
      placement: PlacedReport;
      input: DisconnectInput;
      error: PlatformError;
      reports: Report[] | null;
      outcome: Outcome;
    }
  /**
   * The DELETE failed and cannot have been applied (a refused key, a 404, a 503), or, with
   * `placement` null, the list to plan with could not be read (nothing was sent). The host words
   * `error` as it words any failure.
   */
  | { status: "failed"; placement: PlacedReport | null; input: DisconnectInput | null; error: unknown };

/**
 * What the user is told: the flow's outcome, or, for a failure, `failure(error)` (each host words
 * a failure as it words any other: the pane, the Excel command and the Apps Script menu differ).
 */
export function disconnectOutcome(result: DisconnectResult, failure: (error: unknown) => string): Outcome {
  return result.status === "failed" ? { ok: false, message: failure(result.error) } : result.outcome;
}

/** One "Disconnect report here", as a program of effects. */
export function* disconnectProgram(
  request: DisconnectRequest,
): Generator<DisconnectEffect, DisconnectResult, unknown> {
  // 1. The plan: the placement and its input, from the list in hand or the one read now.
  let placed: readonly PlacedReport[] = [];
  if ("at" in request && !request.placed) {
    try {
      placed = placedReports((yield { type: "list" }) as Report[]);
    } catch (error) {
      return { status: "failed", placement: null, input: null, error };
    }
  }
  const plan: DisconnectPlan | { kind: "disconnect"; placement: PlacedReport; input: DisconnectInput } =
    "placement" in request
      ? { kind: "disconnect", ...request }
      : planDisconnectAt(request.placed ?? placed, request.at);
  if (plan.kind === "nothing-here") {
    return { status: "nothing-here", placement: null, outcome: { ok: false, message: plan.message } };
  }
  const { placement, input } = plan;

  // 2. The DELETE (http.ts retries it only after an answer that says it was not applied).
  let returned: Report;
  try {
    returned = (yield { type: "disconnect", placement, input }) as Report;
  } catch (error) {
    if (!isPlatformError(error) || !disconnectMayHaveApplied(error)) {
      return { status: "failed", placement, input, error };
    }
    // 3. The answer was lost, not necessarily the disconnect: the reloaded list tells.
    let reports: Report[] | null;
    try {
      reports = (yield { type: "reload", placement, error }) as Report[];
    } catch {
      reports = null;
    }
    const sheets = (yield { type: "sheets" }) as readonly SheetRef[];
    return {
      status: "reloaded",
      placement,
      input,
      error,
      reports,
      outcome: disconnectOutcomeAfterReload(placement, error, reports, sheets),
    };
  }

  // 4. The outcome, judged from the report the service returned.
  const sheets = (yield { type: "sheets" }) as readonly SheetRef[];
  return {
    status: "answered",
    placement,
    input,
    returned,
    outcome: disconnectOutcomeMessage(placement, returned, sheets),
  };
}

/** What runs a disconnect: the service, and the workbook's sheets. */
export interface DisconnectRunner {
  /**
   * The workbook's reports as the service has them now: to plan with ("list", only when no list is
   * in hand) and after a lost answer ("reload"; a host that keeps a list shows the reloaded one).
   */
  listReports(): Promise<readonly Report[]>;
  disconnect(placement: PlacedReport, input: DisconnectInput): Promise<Report>;
  /** The workbook's sheets as they are now (read after the answer, or after the reload). */
  sheets(): readonly SheetRef[] | Promise<readonly SheetRef[]>;
}

export async function runDisconnect(
  request: DisconnectRequest,
  runner: DisconnectRunner,
): Promise<DisconnectResult> {
  const program = disconnectProgram(request);
  const outcome = await runProgram(program, async (effect) => {
    let value: unknown;
    switch (effect.type) {
      case "list":
      case "reload":
        value = await runner.listReports();
        break;
      case "disconnect":
        value = await runner.disconnect(effect.placement, effect.input);
        break;
      case "sheets":
        value = await runner.sheets();
        break;
    }
    return value;
  });
  return outcome;
}

/** The same for Apps Script, where every call blocks. */
export interface SyncDisconnectRunner {
  listReports(): readonly Report[];
  disconnect(placement: PlacedReport, input: DisconnectInput): Report;
  sheets(): readonly SheetRef[];
}

export function runDisconnectSync(
  request: DisconnectRequest,
  runner: SyncDisconnectRunner,
): DisconnectResult {
  const program = disconnectProgram(request);
  const outcome = runProgramSync(program, (effect) => {
    let value: unknown;
    switch (effect.type) {
      case "list":
      case "reload":
        value = runner.listReports();
        break;
      case "disconnect":
        value = runner.disconnect(effect.placement, effect.input);
        break;
      case "sheets":
        value = runner.sheets();
        break;
    }
    return value;
  });
  return outcome;
}
