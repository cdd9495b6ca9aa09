/**
 * What the pane does with connect-workbook (loaded when first needed, never on the first screen):
 * Undo of a disconnect (core/undo-disconnect.ts), the address of a placement whose sheet was
 * renamed corrected once (core/placement-moves.ts), and Move here for a placement that is Not found.
 * Every decision and every word is the core's; this module calls the host and keeps the answers.
 */
import { isPlatformError, PlatformError } from "../src/core/errors.js";
import {
  addressCorrectedMessage,
  addressCorrectionFailedMessage,
  addressCorrections,
  movedHereMessage,
  planMoveHere,
} from "../src/core/placement-moves.js";
import { type PlacedReport, placedReports, splitByWorkbook } from "../src/core/placement-view.js";
import type { Report } from "../src/core/schema.js";
import { removedPlacement, runUndoDisconnect } from "../src/core/undo-disconnect.js";
import type {
  ActiveContext,
  Outcome,
  SheetInfo,
  SpreadsheetHost,
  WorkbookSnapshot,
} from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";
import type { Notice } from "./usePaneState.js";

/** What these flows need of the pane's state. */
export interface PaneChanges {
  host: SpreadsheetHost;
  /** The list, sheets and context as they are now. */
  live(): { reports: Report[]; sheets: SheetInfo[]; context: ActiveContext | null };
  /** The settings' generation now; an answer is applied only if it has not changed since. */
  epoch(): number;
  stillCurrent(epoch: number): boolean;
  applySnapshot(snapshot: WorkbookSnapshot): void;
  /** The report as the service answered it, in the list (added when the list no longer holds it). */
  applyReport(report: Report): void;
  /** This workbook's reports replaced by `reports` (a list read again). */
  applyReports(reports: Report[]): void;
  notify(notice: Notice): void;
  /** The restored placement, for focus. */
  restored(key: string): void;
  /** The Undo action offered for a disconnect of `placement`. */
  undoAction(placement: PlacedReport): NonNullable<Notice["action"]>;
  /** Kept for the pane's life: the Undos running, and the address corrections asked for. */
  memory: { undoing: Set<string>; corrected: Set<string> };
}

/** Undo of the disconnect of `placement` (its fields as they were before the DELETE). */
export async function undoDisconnect(pane: PaneChanges, placement: PlacedReport): Promise<Outcome> {
  const running = pane.memory.undoing;
  if (running.has(placement.key)) return { ok: false, message: "The Undo is already running." };
  running.add(placement.key);
  const epoch = pane.epoch();
  try {
    const outcome = await runUndoDisconnect(
      removedPlacement(placement),
      {
        listReports: async () => {
          const snapshot = await pane.host.loadWorkbook();
          if (pane.stillCurrent(epoch)) pane.applySnapshot(snapshot);
          return snapshot.reports;
        },
        connect: (d, r, input) => pane.host.platform.connectReportToWorkbook(d, r, input),
      },
      pane.live().sheets,
    );
    if (pane.stillCurrent(epoch)) {
      if (outcome.reports) pane.applyReports(outcome.reports);
      if (outcome.report) pane.applyReport(outcome.report);
    }
    pane.notify({
      intent: outcome.ok ? "success" : outcome.canRetry ? "warning" : "error",
      message: outcome.message,
      ...(outcome.canRetry ? { action: pane.undoAction(placement) } : {}),
    });
    if (outcome.ok && outcome.placementKey && pane.stillCurrent(epoch)) pane.restored(outcome.placementKey);
    return { ok: outcome.ok, message: outcome.message };
  } finally {
    running.delete(placement.key);
  }
}

/**
 * Corrects, once, the address of every placement of this workbook whose sheet id is found under a
 * new name (addressOnly), and says so. A failed correction is tried again at the next load.
 */
export async function correctRenamedSheets(pane: PaneChanges): Promise<void> {
  const { reports, sheets, context } = pane.live();
  if (!context) return;
  const here = splitByWorkbook(placedReports(reports), context.workbookId).here;
  const epoch = pane.epoch();
  // Each placement once per sheet name in the pane's life.
  const corrected = pane.memory.corrected;
  for (const correction of addressCorrections(here, sheets)) {
    const once = `${correction.placement.key}\u0000${correction.sheetName}`;
    if (corrected.has(once)) continue;
    corrected.add(once);
    const { report } = correction.placement;
    try {
      const answer = await pane.host.platform.connectReportToWorkbook(
        report.deploymentId,
        report.id,
        correction.input,
      );
      if (!pane.stillCurrent(epoch)) return;
      pane.applyReport(answer);
      pane.notify({ intent: "info", message: addressCorrectedMessage(correction) });
    } catch (error) {
      corrected.delete(once);
      if (!pane.stillCurrent(epoch)) return;
      const failure = isPlatformError(error) ? error : new PlatformError("server", errorMessage(error));
      pane.notify({ intent: "warning", message: addressCorrectionFailedMessage(correction, failure) });
    }
  }
}

/** Move here: the record of a Not found placement moved to the active cell (addressOnly). */
export async function moveHere(pane: PaneChanges, placement: PlacedReport): Promise<Outcome> {
  const { reports, context } = pane.live();
  if (!context) {
    const message = "The workbook is not loaded yet. Try again in a moment.";
    pane.notify({ intent: "warning", message });
    return { ok: false, message };
  }
  const plan = planMoveHere(placement, context, placedReports(reports));
  if (plan.kind === "refused") {
    pane.notify({ intent: "warning", message: plan.message });
    return { ok: false, message: plan.message };
  }
  const epoch = pane.epoch();
  const { report } = placement;
  try {
    const answer = await pane.host.platform.connectReportToWorkbook(
      report.deploymentId,
      report.id,
      plan.input,
    );
    if (pane.stillCurrent(epoch)) pane.applyReport(answer);
    const message = movedHereMessage(plan);
    pane.notify({ intent: "success", message });
    return { ok: true, message };
  } catch (error) {
    const message = `Not moved: ${errorMessage(error)}`;
    pane.notify({ intent: "error", message });
    return { ok: false, message };
  }
}
