/// <reference types="google-apps-script" />
/**
 * "Place a report here" in Google Sheets, on the Apps Script side: one `placeReportStep` execution
 * runs the core's place flow (runPlaceSync: load, lay out, ask before overwriting, write in blocks,
 * then `connect-workbook`) over the sheet's cells, and stops in time for Apps Script's 6-minute
 * limit exactly as a refresh does (refresh.ts; docs/google-sheets.md, "Place a report here in
 * Google Sheets"):
 *
 * - The overwrite question: Apps Script cannot wait for the user. When the result would take cells
 *   that are not empty, nothing is written, the loaded data is kept in the user's cache, and the
 *   answer carries the question; the sidebar asks and calls again with the answer.
 * - Before each block there must be time for it (measured on the blocks before it), and before
 *   `connect-workbook` two fetches' worth; otherwise the place pauses: its data is kept, and the
 *   answer says which block comes next. An execution that goes on writes at least one block.
 * - Cancel (the Stop mark `stopRefresh` leaves for the run's id, or `stop` in the request) places
 *   nothing before writing has begun; once it has, the placement is finished and recorded.
 *
 * The sidebar names the report by its ids and the target by sheet and cell; the report is read again
 * from the service and the sheet looked up here, and the core plans the place again (planPlace), so
 * nothing the sidebar sends decides what is written where beyond the cell the user chose.
 */
import type { LoadAnswer } from "../../../core/data-api.js";
import type { SyncDataClient } from "../../../core/data-client.js";
import { PlatformError } from "../../../core/errors.js";
import { parseCell } from "../../../core/location.js";
import { type PlaceOutcome, planPlace, runPlaceSync } from "../../../core/place-flow.js";
import { placedReports, type SheetRef, splitByWorkbook } from "../../../core/placement-view.js";
import type { ConnectWorkbookInput, Report } from "../../../core/schema.js";
import type { PlaceResume, PlaceStepAnswer, PlaceStepRequest, SheetsPlaceOutcome } from "./place-protocol.js";
import {
  BlockPacer,
  type Cache,
  cacheKey,
  forgetData,
  type HostCells,
  keepData,
  keptData,
  PAUSE_MESSAGE,
  RUN_ID_PATTERN,
  readResume,
  SHEETS_WRITE_LIMITS,
} from "./refresh.js";

export interface PlaceDeps {
  platform: {
    getReport(deploymentId: number, reportId: number): Report;
    connectReportToWorkbook(deploymentId: number, reportId: number, input: ConnectWorkbookInput): Report;
  };
  data: Pick<SyncDataClient, "loadReport">;
  /** This spreadsheet's reports as the service lists them now (read only for a place's first call). */
  listHere(): Report[];
  workbookId: string;
  workbookName: string;
  sheets: SheetRef[];
  cells: HostCells;
  cache: Cache | null;
  /** Milliseconds left in this execution (6 minutes from its start). */
  remaining(): number;
  now(): number;
}

const bad = (what: string) =>
  new PlatformError("bad-request", `The report could not be placed (${what}). Close and reopen the sidebar.`);

/** Checks what the sidebar sent: a clear error for anything else. */
export function checkPlaceRequest(request: unknown): PlaceStepRequest {
  if (!request || typeof request !== "object") throw bad("no request");
  const r = request as Record<string, unknown>;
  const id = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n > 0;
  const _whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  if (typeof r.runId !== "string" || !RUN_ID_PATTERN.test(r.runId)) throw bad("its run id is malformed");
  if (!id(r.deploymentId) || !id(r.reportId)) throw bad("the report's id is malformed");
  const t = r.target as Record<string, unknown> | null | undefined;
  if (
    !t ||
    typeof t !== "object" ||
    !(t.sheetId === null || (typeof t.sheetId === "string" && t.sheetId.length <= 100)) ||
    typeof t.sheetName !== "string" ||
    t.sheetName.length > 1000 ||
    typeof t.cell !== "string" ||
    !parseCell(t.cell)
  ) {
    throw bad("the cell to place it at is malformed");
  }
  const resume: PlaceResume | null = r.resume != null ? readResume(r.resume, bad) : null;
  if (r.overwrite !== undefined && typeof r.overwrite !== "boolean") throw bad("the answer is not yes or no");
  if (r.stop !== undefined && typeof r.stop !== "boolean") throw bad("Cancel is not yes or no");
  return {
    runId: r.runId,
    deploymentId: r.deploymentId as number,
    reportId: r.reportId as number,
    target: { sheetId: t.sheetId as string | null, sheetName: t.sheetName, cell: t.cell },
    resume,
    ...(r.overwrite === undefined ? {} : { overwrite: r.overwrite as boolean }),
    ...(r.stop ? { stop: true } : {}),
  };
}

function withoutItem(outcome: PlaceOutcome): SheetsPlaceOutcome {
  const { item: _item, ...rest } = outcome;
  return rest as SheetsPlaceOutcome;
}

/** One execution of a place: its outcome, or the question to ask, or where the next one goes on. */
export function placeStep(request: PlaceStepRequest, deps: PlaceDeps): PlaceStepAnswer {
  const { runId, target } = request;
  const { cache } = deps;
  const resume = request.resume ?? null;
  const stopMarked = () => {
    if (request.stop) return true;
    try {
      return cache?.get(cacheKey(runId, "stop")) === "1";
    } catch {
      return false;
    }
  };

  // The sheet by its id (it may have been renamed since the pane read it), else by name.
  const sheet =
    (target.sheetId != null ? deps.sheets.find((s) => s.id === target.sheetId) : undefined) ??
    deps.sheets.find((s) => s.name === target.sheetName);
  if (!sheet) {
    forgetData(cache, runId, resume?.pieces ?? 0);
    throw new PlatformError(
      "not-found",
      `Not placed: the sheet "${target.sheetName}" is not in this spreadsheet any more. Press Reload list.`,
    );
  }
  const report = deps.platform.getReport(request.deploymentId, request.reportId);
  // A placement already under the cell refuses the place; checked before anything is written only
  // (once cells are written, the placement being made is this one).
  const here = resume ? [] : splitByWorkbook(placedReports(deps.listHere()), deps.workbookId).here;
  const plan = planPlace(
    report,
    {
      workbookId: deps.workbookId,
      workbookName: deps.workbookName,
      sheetId: sheet.id,
      sheetName: sheet.name,
      cell: target.cell,
      host: "GOOGLE_SHEETS",
    },
    here,
  );
  if (plan.kind === "refused") {
    forgetData(cache, runId, resume?.pieces ?? 0);
    throw new PlatformError("bad-request", plan.message);
  }
  const item = plan.item;
  const midWrite = resume !== null && resume.nextBlock > 0;
  if (!midWrite && stopMarked()) {
    // Cancel before the first cell: nothing is written (once writing has begun, it is finished).
    forgetData(cache, runId, resume?.pieces ?? 0);
    return {
      outcome: {
        status: "not-placed",
        reason: "stopped",
        message: `Not placed: cancelled before ${report.name} was written.`,
      },
      question: null,
      next: null,
    };
  }
  const skipTo = resume?.nextBlock ?? 0;
  const checked = resume?.checked ?? false;
  let answer: LoadAnswer | null = keptData(cache, runId, resume?.pieces ?? 0);
  if (!answer && midWrite) {
    const rows = resume?.newRows;
    return {
      outcome: {
        status: "not-placed",
        reason: "write-failed",
        newRows: rows ?? null,
        message: `Not placed: writing ${report.name} went on past one run of Google Sheets' 6 minutes, and Google no longer kept its data for the next one.${rows ? ` Rows ${rows.from}-${rows.to} were written; the rest was not.` : ""} Nothing was recorded: clear those rows, or place it again.`,
      },
      question: null,
      next: null,
    };
  }

  let question: string | null = null;
  let stoppedAtQuestion = false;
  const pause = () => new PlatformError("timeout", PAUSE_MESSAGE);
  // An execution that goes on with a place writes its first block whatever the estimate.
  const pacer = new BlockPacer({
    deps,
    anchor: item.anchor,
    skipTo,
    mustMoveFirst: resume !== null,
    newRows: resume?.newRows ?? null,
    pause,
  });
  const aborted = () => new PlatformError("aborted", "Cancelled.");

  const outcome = runPlaceSync(
    item,
    {
      load() {
        if (answer) return answer;
        if (stopMarked()) throw aborted();
        answer = deps.data.loadReport(report, {
          onProgress: () => {
            if (stopMarked()) throw aborted();
          },
        });
        return answer;
      },
      read: (read) => (checked ? [] : deps.cells.read(read)),
      write: (block) => pacer.write(block),
      connect(_it, input) {
        pacer.beforeRecord();
        return deps.platform.connectReportToWorkbook(report.deploymentId, report.id, input);
      },
      getReport() {
        if (pacer.pausedAt) throw pause();
        return deps.platform.getReport(report.deploymentId, report.id);
      },
      overwrite(text) {
        if (request.overwrite !== undefined) return request.overwrite;
        if (stopMarked()) {
          stoppedAtQuestion = true;
          return false;
        }
        question = text;
        return false;
      },
    },
    {
      limits: SHEETS_WRITE_LIMITS,
      onProgress: (p) => {
        if (p.phase === "writing" && p.totalRows != null) pacer.totalRows = p.totalRows;
      },
    },
  );

  if (question !== null) {
    // Kept, so that the answer does not load the data again (loaded again if the cache lost it).
    const pieces = answer ? keepData(cache, runId, answer) : 0;
    return {
      outcome: null,
      question,
      next: { ...request, resume: { nextBlock: 0, newRows: null, pieces, checked: false } },
    };
  }
  const at = pacer.pausedAt;
  if (at !== null && answer && !stoppedAtQuestion) {
    const pieces = resume?.pieces || keepData(cache, runId, answer);
    if (pieces > 0) {
      const { overwrite: _answered, ...rest } = request;
      const newRows = pacer.newRows;
      return {
        outcome: null,
        question: null,
        next: { ...rest, resume: { nextBlock: at.nextBlock, newRows, pieces, checked: true } },
      };
    }
  }
  forgetData(cache, runId, resume?.pieces ?? 0);
  return { outcome: withoutItem(outcome), question: null, next: null };
}
