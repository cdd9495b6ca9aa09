/**
 * Undo of a disconnect, as one flow written once (docs/architecture.md, "A flow"): the placement
 * removed is re-created exactly as it was (its address, sheet id, extent, workbook name, host and
 * result checksum, kept from before the DELETE) with `PUT .../connect-workbook` without a
 * `placementId` (which creates: platform-api.md "Placing a report"). The cells were never touched
 * by the disconnect, so nothing is written.
 *
 * Before it asks, the flow looks at the workbook's placements as they are now: when the list
 * changed elsewhere it still restores exactly that placement, or says why not (a placement is
 * there again, another report now covers its cells, the report is gone, no access). A lost answer
 * is judged from the list reloaded, as a disconnect's is.
 *
 * The program yields what it needs done; `runUndoDisconnect` (the pane) and `runUndoDisconnectSync`
 * (Apps Script) execute it.
 */
import { disconnectMayHaveApplied } from "./disconnect-flow.js";
import { describePlacement } from "./display.js";
import { isPlatformError, PlatformError } from "./errors.js";
import type { PlacedReport, SheetRef } from "./placement-view.js";
import { placedReports, placementKey, reportName } from "./placement-view.js";
import { findPlacementAt, placementAnchor, placementSheetName, placementsOf } from "./placements.js";
import { runProgram, runProgramSync } from "./program.js";
import type { ConnectWorkbookInput, Report, ReportPlacement } from "./schema.js";
import { ReportPlacementSchema } from "./schema.js";
import * as z from "./zod.js";

/** What Undo needs of a removed placement: its report, and its fields as they were before the DELETE. */
export interface RemovedPlacement {
  deploymentId: number;
  reportId: number;
  /** The report's name, for the messages. */
  reportName: string;
  placement: ReportPlacement;
}

/** The record kept for Undo when `placed` is disconnected (its own fields, not the report's). */
export function removedPlacement(placed: PlacedReport): RemovedPlacement {
  const { report, key: _key, ...placement } = placed;
  return { deploymentId: report.deploymentId, reportId: report.id, reportName: report.name, placement };
}

/** Reads a record kept outside the pane (Apps Script's cache): null when it is not one. */
export const RemovedPlacementSchema = z.object({
  deploymentId: z.int(),
  reportId: z.int(),
  reportName: z.string(),
  placement: ReportPlacementSchema,
});

/**
 * The connect-workbook body that re-creates `removed`: no placementId (a new placement), every
 * field of its address, its extent and its checksum as stored before the disconnect.
 */
export function restoreInput(removed: RemovedPlacement): ConnectWorkbookInput {
  const p = removed.placement;
  const input: ConnectWorkbookInput = { externalWorkbookId: p.workbookId, resultLocation: p.resultLocation };
  if (p.sheetId) input.sheetId = p.sheetId;
  if (p.sheetName) input.sheetName = p.sheetName;
  if (p.anchorCell) input.anchorCell = p.anchorCell;
  if (p.endResultCell) input.endResultCell = p.endResultCell;
  if (p.workbookName) input.workbookName = p.workbookName;
  if (p.host) input.host = p.host;
  if (p.resultChecksum) input.resultChecksum = p.resultChecksum;
  return input;
}

export type UndoEffect =
  /** This workbook's reports as they are now. */
  { type: "list" } | { type: "connect"; deploymentId: number; reportId: number; input: ConnectWorkbookInput };

export interface UndoOutcome {
  ok: boolean;
  message: string;
  /** The report as the service answered it (the restored placement in it), when it did. */
  report: Report | null;
  /** This workbook's reports when they were read again (after a lost answer), else null. */
  reports: Report[] | null;
  /** The restored placement's key in the list (`placementKey`), when it is back. */
  placementKey: string | null;
  /** Undo may be tried again (nothing was restored, and nothing stands in the way). */
  canRetry: boolean;
}

function sameSpot(a: ReportPlacement, b: ReportPlacement): boolean {
  return (
    a.workbookId === b.workbookId &&
    placementSheetName(a) === placementSheetName(b) &&
    placementAnchor(a) === placementAnchor(b)
  );
}

/** The placement of `report` at the removed placement's spot, if it has one. */
function atSpot(report: Report | undefined, removed: RemovedPlacement): ReportPlacement | undefined {
  return report ? placementsOf(report).find((p) => sameSpot(p, removed.placement)) : undefined;
}

function whereOf(removed: RemovedPlacement, sheets: readonly SheetRef[]): string {
  const p = removed.placement;
  const now = p.sheetId ? sheets.find((s) => s.id === p.sheetId)?.name : undefined;
  return describePlacement(p, now);
}

function findReport(reports: readonly Report[], removed: RemovedPlacement): Report | undefined {
  return reports.find((r) => r.id === removed.reportId && r.deploymentId === removed.deploymentId);
}

/**
 * Undo of one disconnect, as a program of effects. `sheets`: the workbook's sheets as they are now
 * (a renamed sheet is named as it is called now).
 */
export function* undoDisconnectProgram(
  removed: RemovedPlacement,
  sheets: readonly SheetRef[] = [],
): Generator<UndoEffect, UndoOutcome, unknown> {
  const name = reportName({ name: removed.reportName });
  const where = whereOf(removed, sheets);
  const outcome = (ok: boolean, message: string, extra: Partial<UndoOutcome> = {}): UndoOutcome => ({
    ok,
    message,
    report: null,
    reports: null,
    placementKey: null,
    canRetry: false,
    ...extra,
  });
  const restored = (report: Report, reports: Report[] | null = null): UndoOutcome | null => {
    const back = atSpot(report, removed);
    if (!back) return null;
    const stale =
      removed.placement.syncStatus === "CHANGED"
        ? " It was out of date before the disconnect: the service now records it as written at the report's current query, so refresh it to bring its cells up to date."
        : "";
    return outcome(true, `Undone: ${name} is placed at ${where} again.${stale}`, {
      report,
      reports,
      placementKey: placementKey(report, back),
    });
  };

  // 1. The workbook as it is now: nothing may stand where the placement goes back.
  let now: Report[];
  try {
    now = (yield { type: "list" }) as Report[];
  } catch (e) {
    const error = asPlatformError(e);
    return outcome(
      false,
      `Not undone: the workbook's placements could not be read first (${stripTryAgain(error.message)}). Nothing was changed: try Undo again.`,
      { canRetry: true },
    );
  }
  const mine = findReport(now, removed);
  if (atSpot(mine, removed)) {
    return outcome(
      false,
      `Not undone: ${name} is placed at ${where} again already (restored, or placed again since). Nothing was changed.`,
    );
  }
  const anchor = placementAnchor(removed.placement);
  const sheetName = placementSheetName(removed.placement);
  if (anchor && sheetName) {
    const other: PlacedReport | undefined = findPlacementAt(placedReports(now), {
      workbookId: removed.placement.workbookId,
      sheetId: removed.placement.sheetId ?? null,
      sheetName,
      cell: anchor,
    });
    if (other) {
      return outcome(
        false,
        `Not undone: ${reportName(other.report)} is placed at ${describePlacement(other)} now, over the cells ${name} had. Nothing was changed; disconnect that one first if ${name} should go back.`,
      );
    }
  }

  // 2. The placement, re-created.
  try {
    const report = (yield {
      type: "connect",
      deploymentId: removed.deploymentId,
      reportId: removed.reportId,
      input: restoreInput(removed),
    }) as Report;
    if (report.id !== removed.reportId || report.deploymentId !== removed.deploymentId) {
      return outcome(
        false,
        `The service answered with another report (${reportName(report)}, id ${report.id}) instead of ${name}: it is not known whether it was placed at ${where} again. Press Reload list to see.`,
      );
    }
    return (
      restored(report) ??
      outcome(
        false,
        `The service answered without ${name} at ${where}: it was not placed again. Press Reload list to see, then try again.`,
        { report },
      )
    );
  } catch (e) {
    const error = asPlatformError(e);
    if (error.kind === "not-found") {
      return outcome(
        false,
        `Not undone: ${name} is no longer in the deployment (deleted, or moved out of it), so it cannot be placed at ${where} again.`,
      );
    }
    if (error.kind === "forbidden" || error.kind === "unauthorized") {
      return outcome(false, `Not undone: no access to place ${name} at ${where} again. ${error.message}`);
    }
    if (disconnectMayHaveApplied(error)) {
      // The answer was lost, not necessarily the placement: the list read again tells.
      let again: Report[] | null = null;
      try {
        again = (yield { type: "list" }) as Report[];
      } catch {
        again = null;
      }
      const failure = stripTryAgain(error.message);
      if (again === null) {
        return outcome(
          false,
          `${failure} ${name} may have been placed at ${where} again, and the list could not be read: press Reload list to see.`,
        );
      }
      const report = findReport(again, removed);
      const back = report ? restored(report, again) : null;
      if (back) return { ...back, message: `${failure} The list was read again: ${back.message}` };
      return outcome(
        false,
        `${failure} The list was read again: ${name} is not at ${where}, so nothing was restored. Try Undo again.`,
        { reports: again, canRetry: true },
      );
    }
    return outcome(false, `Not undone: ${error.message}`, {
      canRetry: error.kind === "rate-limited" || error.kind === "server",
    });
  }
}

function asPlatformError(e: unknown): PlatformError {
  return isPlatformError(e) ? e : new PlatformError("server", e instanceof Error ? e.message : String(e));
}

/** "Try again" would mislead before the flow says whether it is needed. */
function stripTryAgain(message: string): string {
  return message.replace(/\s*Try again[^.]*\.$/, "");
}

/** What runs an Undo: this workbook's reports, and the service's connect-workbook. */
export interface UndoRunner {
  listReports(): Promise<Report[]>;
  connect(deploymentId: number, reportId: number, input: ConnectWorkbookInput): Promise<Report>;
}

export async function runUndoDisconnect(
  removed: RemovedPlacement,
  runner: UndoRunner,
  sheets: readonly SheetRef[] = [],
): Promise<UndoOutcome> {
  const program = undoDisconnectProgram(removed, sheets);
  const outcome = await runProgram(program, async (effect) => {
    return effect.type === "list"
      ? await runner.listReports()
      : await runner.connect(effect.deploymentId, effect.reportId, effect.input);
  });
  return outcome;
}

/** The same for Apps Script, where every call blocks. */
export interface SyncUndoRunner {
  listReports(): Report[];
  connect(deploymentId: number, reportId: number, input: ConnectWorkbookInput): Report;
}

export function runUndoDisconnectSync(
  removed: RemovedPlacement,
  runner: SyncUndoRunner,
  sheets: readonly SheetRef[] = [],
): UndoOutcome {
  const program = undoDisconnectProgram(removed, sheets);
  const outcome = runProgramSync(program, (effect) => {
    return effect.type === "list"
      ? runner.listReports()
      : runner.connect(effect.deploymentId, effect.reportId, effect.input);
  });
  return outcome;
}
