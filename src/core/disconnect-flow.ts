/**
 * "Disconnect report here", written once for the task pane, the Excel right-click command and the
 * Apps Script menu (docs/architecture.md, "Disconnect report here, from the selection to the
 * DELETE"; the disconnect rules of docs/platform-api.md), so every host does and says the same:
 *
 * - the plan: which placement "Disconnect report here" removes and with which input (the
 *   placement under the cell, from the workbook's list, or a placement already chosen from the list
 *   with its input);
 * - the flow: the DELETE, and the recovery when its answer is lost (the list reloaded tells whether
 *   it was applied);
 * - the outcome in words, judged from the service's answer (or, when it was lost, from the list
 *   reloaded).
 *
 * The program yields what it needs done; `runDisconnect` (the task pane, the Excel right-click
 * command) and `runDisconnectSync` (the Apps Script menu) execute it over the host's functions.
 * The task pane loads this module when it first disconnects (one lazy chunk, `disconnect-flow` in
 * tooling/excel/build.ts).
 */

import { revealInvisible } from "./display.js";
import { isPlatformError, type PlatformError } from "./errors.js";
import { quoteSheetName } from "./location.js";
import type { Outcome } from "./messages.js";
import {
  describePlacementIn,
  type PlacedReport,
  placedReports,
  placementKey,
  reportName,
  type SheetRef,
} from "./placement-view.js";
import { findPlacementAt, type PlacementAt, placementsOf, toDisconnectInput } from "./placements.js";
import { runProgram, runProgramSync } from "./program.js";
import type { DisconnectInput, Report } from "./schema.js";

// The plan: the placement under the cell, and what the user is told afterwards.

export type DisconnectPlan =
  | { kind: "disconnect"; placement: PlacedReport; input: DisconnectInput; label: string }
  | { kind: "nothing-here"; message: string };

/**
 * What "Disconnect report here" does at `at`: the placement under the cell and the input that
 * removes exactly it, or a message that there is nothing to disconnect. `placed` should be a list
 * kept as one array (the lookup index is cached per array).
 */
export function planDisconnectAt(placed: readonly PlacedReport[], at: PlacementAt): DisconnectPlan {
  const placement = findPlacementAt(placed, at);
  if (!placement) {
    return {
      kind: "nothing-here",
      message: `No report is placed at ${describeCell(at)}. Select a cell inside a placed report, then try again.`,
    };
  }
  return {
    kind: "disconnect",
    placement,
    input: toDisconnectInput(placement, at),
    // The placement is on the active sheet: named as that sheet is called now.
    label: describePlacementIn(placement, [{ id: at.sheetId ?? null, name: at.sheetName }]),
  };
}

function describeCell(at: PlacementAt): string {
  return `${quoteSheetName(revealInvisible(at.sheetName))}!${at.cell.replace(/\$/g, "").toUpperCase()}`;
}

/** Whether `report` still holds the placement (by key, or by placement id). */
function holdsPlacement(report: Report, placement: PlacedReport): boolean {
  return placementsOf(report).some(
    (p) => placementKey(report, p) === placement.key || (placement.id != null && p.id === placement.id),
  );
}

/**
 * The toast after a disconnect: what happened, judged from the report the service returned.
 * "Disconnected" only when the answer is the report asked for and the placement is gone from it;
 * another report (a redirect, a confused proxy) proves nothing. `sheets`: the workbook's sheets as
 * they are now, so a renamed sheet is named as it is called now (`describePlacementIn`).
 */
export function disconnectOutcomeMessage(
  placement: PlacedReport,
  returned: Report,
  sheets: readonly SheetRef[] = [],
): Outcome {
  const where = describePlacementIn(placement, sheets);
  const asked = placement.report;
  if (returned.id !== asked.id || returned.deploymentId !== asked.deploymentId) {
    return {
      ok: false,
      message: `The service answered with another report (${reportName(returned)}, id ${returned.id}) instead of ${reportName(asked)}: it is not known whether ${where} was disconnected. Press Reload list to see.`,
    };
  }
  if (holdsPlacement(returned, placement)) {
    return {
      ok: false,
      message: `The service kept ${reportName(returned)} at ${where}: it did not recognise the placement. Press Reload list and try again.`,
    };
  }
  return {
    ok: true,
    message: `Disconnected ${reportName(returned)} from ${where}; the cells keep their values.`,
  };
}

/**
 * Whether a failed disconnect may still have been applied: the request may have reached the
 * service (a time-out, a broken connection, a 5xx other than 503, an answer that could not be read).
 * Then the list is reloaded, and `disconnectOutcomeAfterReload` says what it shows.
 */
export function disconnectMayHaveApplied(error: PlatformError): boolean {
  return (
    error.kind === "timeout" ||
    error.kind === "network" ||
    error.kind === "invalid-response" ||
    (error.kind === "server" && error.status !== 503)
  );
}

/**
 * What a reloaded list says about a disconnect whose answer was lost (`reports`: null when the
 * reload failed too; `sheets` as for `disconnectOutcomeMessage`).
 */
export function disconnectOutcomeAfterReload(
  placement: PlacedReport,
  error: PlatformError,
  reports: readonly Report[] | null,
  sheets: readonly SheetRef[] = [],
): Outcome {
  const where = describePlacementIn(placement, sheets);
  const name = reportName(placement.report);
  // "Try again" would mislead before the reload says whether it is needed.
  const failure = error.message.replace(/\s*Try again[^.]*\.$/, "");
  if (reports === null) {
    return {
      ok: false,
      message: `${failure} The disconnect of ${name} from ${where} may still have been applied, and the list could not be reloaded: press Reload list to see.`,
    };
  }
  const report = reports.find(
    (r) => r.id === placement.report.id && r.deploymentId === placement.report.deploymentId,
  );
  if (report && holdsPlacement(report, placement)) {
    return {
      ok: false,
      message: `${failure} The list was reloaded: ${name} is still at ${where}, so nothing was disconnected. Try again.`,
    };
  }
  return {
    ok: true,
    message: `${failure} The list was reloaded: ${name} is no longer at ${where}, so the disconnect was applied; the cells keep their values.`,
  };
}

// The flow: the plan, the DELETE, the list reloaded when its answer was lost, the outcome.

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
