/**
 * The disconnect plan shared by the task pane, the Excel right-click command and the Apps Script
 * menu: which placement "Disconnect report here" removes and with which input, and what the user
 * is told afterwards, judged from the service's answer (or, when it was lost, from the list
 * reloaded), so every host says the same thing.
 */
import { revealInvisible } from "./display.js";
import type { PlatformError } from "./errors.js";
import { quoteSheetName } from "./location.js";
import type { Outcome } from "./messages.js";
import {
  describePlacementIn,
  type PlacedReport,
  placementKey,
  reportName,
  type SheetRef,
} from "./placement-view.js";
import { findPlacementAt, type PlacementAt, placementsOf, toDisconnectInput } from "./placements.js";
import type { DisconnectInput, Report } from "./schema.js";

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
