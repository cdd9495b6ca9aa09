/// <reference types="google-apps-script" />
/**
 * Refresh in Google Sheets, on the Apps Script side: one `refreshPlacementsStep` execution runs the
 * core's refresh flow (runRefreshSync: load, lay out, check, write in blocks, record) over the
 * sheet's cells, for the placements the sidebar names, and stops in time for Apps Script's
 * 6-minute limit (docs/google-sheets.md, "Refresh in Google Sheets"):
 *
 * - A placement other than an execution's first starts only with START_MS left; otherwise the
 *   answer names it as where the next execution begins.
 * - The data load stops with time to spare (the data client's own `remainingMs`). A placement that
 *   was not the execution's first is then loaded again in the next one; the first already had a
 *   whole execution, and its time-out is its outcome.
 * - Before each block, the time the block will take (measured on the blocks before it) and a margin
 *   must be left, and before the record, two fetches' worth (the record is tried twice). Otherwise
 *   the placement pauses: its loaded data is kept in the user's cache (in pieces within the 100 KB a
 *   value may hold), and the answer says which block comes next. The next execution writes from
 *   there without loading or checking again. An execution always writes at least its first block,
 *   so a run always moves on.
 * - Stop (a mark in the user's cache, or `stop` in the request) ends the run before the next
 *   placement and during a load; a placement whose cells are being written is finished first.
 *
 * The sidebar receives placement keys and answers back by key; the placements themselves are read
 * again from the service here, so that nothing the sidebar sends decides what is written where.
 */
import type { LoadAnswer } from "../../../core/data-api.js";
import type { SyncDataClient } from "../../../core/data-client.js";
import { isPlatformError, PlatformError } from "../../../core/errors.js";
import { DATA_POLL_MAX_MS, DATA_REQUEST_TIMEOUT_MS } from "../../../core/limits.js";
import { parseCell } from "../../../core/location.js";
import { placedReports, reportName, type SheetRef, splitByWorkbook } from "../../../core/placement-view.js";
import {
  type CellBlock,
  type CellRead,
  type RefreshOutcome,
  type RefreshProgress,
  runRefreshSync,
  type WriteLimits,
} from "../../../core/refresh-flow.js";
import { type NotRefreshed, planRefresh, type RefreshItem } from "../../../core/refresh-plan.js";
import type { RefreshInput, Report } from "../../../core/schema.js";
import type {
  RefreshResume,
  RefreshStatus,
  RefreshStepAnswer,
  RefreshStepRequest,
  SheetsRefreshOutcome,
} from "./refresh-protocol.js";

/** Apps Script ends an execution at 6 minutes ("Script runtime", Quotas for Google Services). */
export const EXECUTION_MS = 6 * 60_000;
/** Kept free at the end of every execution: the answer to the sidebar, the cache writes. */
export const SAFETY_MS = 20_000;
/** The record and its one retry, each at most one fetch (UrlFetchApp waits about 60 s). */
export const RECORD_MS = 2 * DATA_REQUEST_TIMEOUT_MS;
/** A placement after the execution's first starts only with this much left (deployment, token, a page). */
export const START_MS = 3 * DATA_REQUEST_TIMEOUT_MS;
/** What a block is assumed to take before one has been measured in this execution. */
export const FIRST_BLOCK_MS = 10_000;
/**
 * Blocks of about 1 MB (some 40,000 numbers): Apps Script documents no request limit for
 * `setValues`, so the block is sized for progress and for pausing often enough, not for a payload.
 */
export const SHEETS_WRITE_LIMITS: WriteLimits = { maxBlockBytes: 1024 * 1024, maxReadCells: 200_000 };

/** The user's cache: a run's progress, its Stop mark, its data between executions. */
const PREFIX = "reportingPlatform.refresh.";
/** How long a run's kept data and progress live (CacheService keeps a value at most 6 hours). */
export const CACHE_SECONDS = 3600;
/** Characters per cached piece: at most 3 bytes each in UTF-8, within CacheService's 100 KB a value. */
const PIECE_CHARS = 30_000;
/** At most this many pieces for one placement's data (CacheService caps a cache at 1,000 items). */
export const MAX_PIECES = 500;

export const RUN_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;

export type Cache = Pick<
  GoogleAppsScript.Cache.Cache,
  "get" | "put" | "putAll" | "getAll" | "removeAll" | "remove"
>;

export interface HostCells {
  write(block: CellBlock): void;
  read(read: CellRead): unknown[][];
  /** Grows the sheet to hold rows to `bottom` and columns to `right`, or refuses (10 million cells). */
  prepare(sheet: { id: string | null; name: string }, bottom: number, right: number): void;
}

export interface StepDeps {
  platform: { recordRefresh(deploymentId: number, reportId: number, input: RefreshInput): Report };
  data: Pick<SyncDataClient, "loadReport">;
  /** This spreadsheet's reports as the service lists them now. */
  reports: Report[];
  workbookId: string;
  sheets: SheetRef[];
  cells: HostCells;
  cache: Cache | null;
  /** Milliseconds left in this execution (6 minutes from its start). */
  remaining(): number;
  now(): number;
}

export function cacheKey(runId: string, part: string): string {
  return `${PREFIX}${runId}.${part}`;
}

/** The Stop mark `stopRefresh` leaves for a run (read by the execution that runs it). */
export function markStopped(cache: Cache | null, runId: string): void {
  cache?.put(cacheKey(runId, "stop"), "1", 600);
}

export function readStatus(cache: Cache | null, runId: string): RefreshStatus | null {
  const text = cache?.get(cacheKey(runId, "status"));
  if (!text) return null;
  try {
    return JSON.parse(text) as RefreshStatus;
  } catch {
    return null;
  }
}

/** Where a refresh or a place stopped, as the sidebar sends it back: checked, or `bad`'s error. */
export function readResume(
  value: unknown,
  bad: (what: string) => Error,
): { nextBlock: number; pieces: number; checked: boolean; newRows: { from: number; to: number } | null } {
  const s = value as Record<string, unknown>;
  const whole = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
  const rows =
    typeof s === "object" && s !== null ? (s.newRows as { from?: unknown; to?: unknown } | null) : null;
  if (
    typeof s !== "object" ||
    s === null ||
    !whole(s.nextBlock) ||
    !whole(s.pieces) ||
    (s.pieces as number) > MAX_PIECES ||
    typeof s.checked !== "boolean" ||
    (rows != null && !(whole(rows.from) && whole(rows.to)))
  ) {
    throw bad("where it stopped is malformed");
  }
  return {
    nextBlock: s.nextBlock as number,
    pieces: s.pieces as number,
    checked: s.checked as boolean,
    newRows: rows ? { from: rows.from as number, to: rows.to as number } : null,
  };
}

/** Checks what the sidebar sent: a clear error for anything else. */
export function checkStepRequest(request: unknown): RefreshStepRequest {
  const bad = (what: string) =>
    new PlatformError("bad-request", `The refresh could not go on (${what}). Close and reopen the sidebar.`);
  if (!request || typeof request !== "object") throw bad("no request");
  const r = request as Record<string, unknown>;
  if (typeof r.runId !== "string" || !RUN_ID_PATTERN.test(r.runId)) throw bad("its run id is malformed");
  if (
    !Array.isArray(r.keys) ||
    r.keys.length > 5_000 ||
    !r.keys.every((k) => typeof k === "string" && k.length > 0 && k.length <= 2_000)
  ) {
    throw bad("its placements are not a list of keys");
  }
  const keys = r.keys as string[];
  let resume: RefreshResume | null = null;
  if (r.resume != null) {
    const at = readResume(r.resume, bad);
    if ((r.resume as { key?: unknown }).key !== keys[0]) throw bad("where it stopped is malformed");
    resume = { key: keys[0] as string, ...at };
  }
  if (r.overwrite !== undefined && typeof r.overwrite !== "boolean") throw bad("the answer is not yes or no");
  if (r.stop !== undefined && typeof r.stop !== "boolean") throw bad("Stop is not yes or no");
  return {
    runId: r.runId,
    keys,
    resume,
    ...(r.overwrite === undefined ? {} : { overwrite: r.overwrite as boolean }),
    ...(r.stop ? { stop: true } : {}),
  };
}

/** Keeps a placement's loaded data in pieces; the number of pieces, or 0 when it cannot. */
export function keepData(cache: Cache | null, runId: string, answer: LoadAnswer): number {
  if (!cache) return 0;
  try {
    const text = JSON.stringify(answer);
    const pieces: Record<string, string> = {};
    let n = 0;
    for (let at = 0; at < text.length; n++) {
      let end = Math.min(text.length, at + PIECE_CHARS);
      // A character outside the BMP is two code units: never split it.
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
      pieces[cacheKey(runId, `data.${n}`)] = text.slice(at, end);
      at = end;
      if (n + 1 > MAX_PIECES) return 0;
    }
    cache.putAll(pieces, CACHE_SECONDS);
    return n;
  } catch {
    return 0;
  }
}

export function keptData(cache: Cache | null, runId: string, pieces: number): LoadAnswer | null {
  if (!cache || pieces === 0) return null;
  try {
    const keys = Array.from({ length: pieces }, (_, i) => cacheKey(runId, `data.${i}`));
    const found = cache.getAll(keys);
    let text = "";
    for (const key of keys) {
      const piece = found[key];
      if (typeof piece !== "string") return null;
      text += piece;
    }
    return JSON.parse(text) as LoadAnswer;
  } catch {
    return null;
  }
}

export function forgetData(cache: Cache | null, runId: string, pieces: number): void {
  if (!cache || pieces === 0) return;
  try {
    cache.removeAll(Array.from({ length: pieces }, (_, i) => cacheKey(runId, `data.${i}`)));
  } catch {
    // Expires on its own within the hour.
  }
}

function toSheets(outcome: RefreshOutcome): SheetsRefreshOutcome {
  const { item, ...rest } = outcome;
  const { placement: _placement, ...fields } = rest as typeof rest & { placement?: unknown };
  return { ...fields, key: item.placement.key } as SheetsRefreshOutcome;
}

function aborted(): PlatformError {
  return new PlatformError("aborted", "Stopped.");
}

/** The flow's own "stopped" outcome: the item run with a load that stops at once (nothing is sent). */
function stoppedOutcome(item: RefreshItem): RefreshOutcome {
  const never = () => {
    throw aborted();
  };
  return runRefreshSync([item], {
    load: never,
    read: never,
    write: never,
    record: never,
    overwrite: false,
  })[0]!;
}

/**
 * Writes a placement's blocks within the execution's time, for a refresh and a place alike: a block
 * is written only while the time left holds it (estimated from the blocks before, 1.5 times over),
 * else the execution stops before it (`pausedAt`), and the next one goes on from there. An
 * execution that goes on with a placement writes its first block whatever the estimate, so every
 * run moves on. The whole result's grid is made before its first cell (10 million cells).
 */
export class BlockPacer {
  /** The block the next execution begins with, once this one stopped before it. */
  pausedAt: { nextBlock: number } | null = null;
  /** The sheet rows already holding the new result (first and last), if any. */
  newRows: { from: number; to: number } | null;
  /** The result's rows, once the flow says (its progress while writing). */
  totalRows: number | null = null;
  private writes = 0;
  private wroteHere = 0;
  private msPerCell: number | null = null;

  constructor(
    private readonly o: {
      deps: Pick<StepDeps, "cells" | "remaining" | "now">;
      anchor: { row: number; col: number };
      /** Blocks written by the executions before (skipped). */
      skipTo: number;
      /** This execution goes on with a placement: its first block is written whatever the estimate. */
      mustMoveFirst: boolean;
      newRows: { from: number; to: number } | null;
      pause(): Error;
    },
  ) {
    this.newRows = o.newRows;
  }

  write(block: CellBlock): void {
    const { deps, anchor } = this.o;
    const index = this.writes++;
    if (index < this.o.skipTo) return;
    const rows = block.values.length;
    const cells = Math.max(1, rows * (block.values[0]?.length ?? 0));
    const estimate = this.msPerCell === null ? FIRST_BLOCK_MS : cells * this.msPerCell * 1.5;
    const mustMove = this.o.mustMoveFirst && this.wroteHere === 0;
    if (!mustMove && deps.remaining() < estimate + SAFETY_MS) {
      this.pausedAt = { nextBlock: index };
      throw this.o.pause();
    }
    const start = parseCell(block.topLeft);
    if (index === 0 && start && this.totalRows !== null) {
      deps.cells.prepare(
        block.sheet,
        anchor.row + this.totalRows - 1,
        anchor.col + (block.values[0]?.length ?? 1) - 1,
      );
    }
    const t0 = deps.now();
    deps.cells.write(block);
    this.wroteHere++;
    this.msPerCell = Math.max(this.msPerCell ?? 0, (deps.now() - t0) / cells);
    if (start) this.newRows = { from: anchor.row, to: start.row + rows - 1 };
  }

  /** Before the record: stopped already, or too little time left for it (the next execution records). */
  beforeRecord(): void {
    if (this.pausedAt) throw this.o.pause();
    if (this.o.deps.remaining() < RECORD_MS + SAFETY_MS) {
      this.pausedAt = { nextBlock: this.writes };
      throw this.o.pause();
    }
  }
}

/** Raised by the cells' runner to end an execution in time; the flow reports it only if it cannot be kept. */
export const PAUSE_MESSAGE =
  "Google Sheets stops an add-on's run after 6 minutes, and the data could not be kept to go on in the next run";

/** One execution of a refresh run: the outcomes reached, and where the next execution goes on. */
export function refreshStep(request: RefreshStepRequest, deps: StepDeps): RefreshStepAnswer {
  const { runId, keys } = request;
  const { cache } = deps;
  const stopMarked = () => {
    if (request.stop) return true;
    try {
      return cache?.get(cacheKey(runId, "stop")) === "1";
    } catch {
      return false;
    }
  };
  const status = (s: RefreshStatus) => {
    try {
      cache?.put(cacheKey(runId, "status"), JSON.stringify(s), CACHE_SECONDS);
    } catch {
      // Progress is a courtesy: the refresh goes on without it.
    }
  };

  const { here } = splitByWorkbook(placedReports(deps.reports), deps.workbookId);
  const plan = planRefresh(here, { kind: "all" }, deps.sheets);
  const items = new Map(plan.items.map((i) => [i.placement.key, i]));
  const cannot = new Map<string, NotRefreshed>(plan.notRefreshed.map((n) => [n.placement.key, n]));

  const outcomes: SheetsRefreshOutcome[] = [];
  let startedOne = false;
  const done = (): RefreshStepAnswer => {
    try {
      cache?.remove(cacheKey(runId, "status"));
    } catch {
      // Expires on its own.
    }
    return { outcomes, question: null, next: null };
  };

  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const resume = i === 0 ? (request.resume ?? null) : null;
    const item = items.get(key);
    if (!item) {
      const known = cannot.get(key);
      outcomes.push({
        key,
        status: "not-refreshed",
        reason: known?.reason ?? "sheet-gone",
        message:
          known?.message ??
          "Not refreshed: the service no longer lists this placement in this spreadsheet (it may have been disconnected). Press Reload list.",
      });
      continue;
    }
    const midWrite = resume !== null && resume.nextBlock > 0;
    if (stopMarked() && !midWrite) {
      forgetData(cache, runId, resume?.pieces ?? 0);
      outcomes.push(toSheets(stoppedOutcome(item)));
      continue;
    }
    if (startedOne && deps.remaining() < START_MS) {
      return {
        outcomes,
        question: null,
        next: { runId, keys: keys.slice(i), ...(request.stop ? { stop: true } : {}) },
      };
    }
    const first = !startedOne;
    startedOne = true;
    const result = refreshOne(item, resume, first, i === 0 ? request.overwrite : undefined);
    if (result.kind === "outcome") {
      outcomes.push(toSheets(result.outcome));
      continue;
    }
    const next: RefreshStepRequest = {
      runId,
      keys: keys.slice(i),
      resume: result.resume,
      ...(request.stop ? { stop: true } : {}),
    };
    return { outcomes, question: result.kind === "question" ? result.question : null, next };
  }
  return done();

  function refreshOne(
    item: RefreshItem,
    resume: RefreshResume | null,
    firstInExecution: boolean,
    answered: boolean | undefined,
  ):
    | { kind: "outcome"; outcome: RefreshOutcome }
    | { kind: "question"; question: string; resume: RefreshResume | null }
    | { kind: "pause"; resume: RefreshResume | null } {
    const key = item.placement.key;
    const skipTo = resume?.nextBlock ?? 0;
    const checked = resume?.checked ?? false;
    let answer: LoadAnswer | null = keptData(cache, runId, resume?.pieces ?? 0);
    if (!answer && skipTo > 0) {
      const rows = resume?.newRows;
      return {
        kind: "outcome",
        outcome: {
          status: "not-refreshed",
          item,
          placement: item.placement,
          reason: "write-failed",
          newRows: rows ?? null,
          message: `Not refreshed: writing ${reportName(item.placement.report)} went on past one run of Google Sheets' 6 minutes, and Google no longer kept its data for the next one.${rows ? ` Rows ${rows.from}-${rows.to} already hold the new result; the rest still shows the old one.` : ""} Nothing was recorded: refresh it again.`,
        },
      };
    }
    let pausedAtLoad = false;
    let question: string | null = null;
    let stoppedAtQuestion = false;
    const pause = () => new PlatformError("timeout", PAUSE_MESSAGE);
    const pacer = new BlockPacer({
      deps,
      anchor: item.anchor,
      skipTo,
      mustMoveFirst: firstInExecution && resume !== null,
      newRows: resume?.newRows ?? null,
      pause,
    });

    const outcome = runRefreshSync(
      [item],
      {
        load(it) {
          if (answer) return answer;
          if (stopMarked()) throw aborted();
          status({ key, phase: "loading" });
          try {
            answer = deps.data.loadReport(it.placement.report, {
              onProgress: (p) => {
                if (stopMarked()) throw aborted();
                status({ key, phase: p.phase, rows: p.rows, totalRows: p.totalRows });
              },
            });
          } catch (e) {
            // Out of this execution's time (the data client stops when a fetch, or a pause and a
            // fetch, would not fit): a placement that did not have a whole execution gets one.
            if (
              !firstInExecution &&
              isPlatformError(e) &&
              e.kind === "timeout" &&
              deps.remaining() < DATA_REQUEST_TIMEOUT_MS + DATA_POLL_MAX_MS + SAFETY_MS
            ) {
              pausedAtLoad = true;
            }
            throw e;
          }
          return answer;
        },
        read: (read) => (checked ? [] : deps.cells.read(read)),
        write: (block) => pacer.write(block),
        record(it, input) {
          pacer.beforeRecord();
          return deps.platform.recordRefresh(it.placement.report.deploymentId, it.placement.report.id, input);
        },
        overwrite(_it, text) {
          if (answered !== undefined) return answered;
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
        onProgress: (p: RefreshProgress) => {
          if (p.phase === "writing" && p.totalRows != null) pacer.totalRows = p.totalRows;
          if (p.phase !== "loading") status({ key, phase: p.phase, rows: p.rows, totalRows: p.totalRows });
        },
      },
    )[0]!;

    if (question !== null) {
      // Kept, so that the answer does not load the data again (loaded again if the cache lost it).
      const pieces = answer ? keepData(cache, runId, answer) : 0;
      return {
        kind: "question",
        question,
        resume: { key, nextBlock: 0, newRows: null, pieces, checked: false },
      };
    }
    if (stoppedAtQuestion) {
      forgetData(cache, runId, resume?.pieces ?? 0);
      return { kind: "outcome", outcome: stoppedOutcome(item) };
    }
    if (pausedAtLoad) return { kind: "pause", resume: null };
    const at = pacer.pausedAt;
    if (at !== null && answer) {
      const pieces = resume?.pieces || keepData(cache, runId, answer);
      if (pieces > 0) {
        const newRows = pacer.newRows;
        return { kind: "pause", resume: { key, nextBlock: at.nextBlock, newRows, pieces, checked: true } };
      }
    }
    forgetData(cache, runId, resume?.pieces ?? 0);
    return { kind: "outcome", outcome };
  }
}
