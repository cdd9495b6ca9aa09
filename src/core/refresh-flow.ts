/**
 * Refresh, as a flow written once (docs/architecture.md, "A flow"): for each placement of a plan,
 * load the report's data, lay it out (reportGrid), make sure it overwrites nothing that is not the
 * placement's without asking, write it in blocks within the host's limit, then record the refresh
 * with the checksum of what was written (platform-api.md, "Recording a refresh"), and say the
 * outcome. The program yields what it needs done; `runRefresh` (the pane, the Excel command) and
 * `runRefreshSync` (Apps Script) execute it over a host's cell writer and the clients.
 */

import type { LoadAnswer } from "./data-api.js";
import type { DataLoadProgress } from "./data-client.js";
import { revealInvisible } from "./display.js";
import { isPlatformError, PlatformError } from "./errors.js";
import { formatCount } from "./limits.js";
import { type CellRange, formatCell, quoteSheetName } from "./location.js";
import { reportName } from "./placement-view.js";
import { runProgram, runProgramSync } from "./program.js";
import {
  firstFilledCell,
  formatRange,
  type NotRefreshed,
  type NotRefreshedReason,
  overwriteQuestion,
  planBlocks,
  type RefreshItem,
  refreshedMessage,
  refreshRecord,
  writeExtent,
} from "./refresh-plan.js";
import { type DateFormatArea, type GridCell, type ReportGrid, reportGrid } from "./report-grid.js";
import { type ResultChecksum, resultChecksumSteps } from "./result-checksum.js";
import type { RefreshInput, Report } from "./schema.js";

/** Cells written in one host round trip: a block of a grid, from its top-left cell. */
export interface CellBlock {
  sheet: { id: string | null; name: string };
  /** The block's first cell, A1 ("B2"). */
  topLeft: string;
  values: GridCell[][];
  /** Dates in this block, relative to its first cell, each with its number format. */
  dateFormats: DateFormatArea[];
  /** How many of this block's first rows are titles (shown bold). */
  boldRows: number;
  /** Ranges ("B9:F12") whose contents are cleared in the same round trip, before the block is written. */
  clear: string[];
}

/** A range to read back: the sheet (by id, else name) and A1 ("B9:G12"). */
export interface CellRead {
  sheet: { id: string | null; name: string };
  range: string;
}

/** The largest request a host takes in one round trip (Excel on the web: 5 MB; the plan keeps 4). */
export interface WriteLimits {
  maxBlockBytes: number;
  /** Cells read back per round trip (Excel: a read is limited to 5,000,000 cells and 5 MB). */
  maxReadCells: number;
}

export const DEFAULT_WRITE_LIMITS: WriteLimits = { maxBlockBytes: 4 * 1024 * 1024, maxReadCells: 200_000 };

/**
 * A result laid out, split into blocks and hashed somewhere else than where the flow runs (the
 * Excel pane's and the preview's worker, src/hosts/refresh-worker.ts): everything the flow needs
 * of the grid but its values, which it asks for one block at a time as it writes them. What a
 * runner's `load` may answer instead of the report's data.
 */
export interface PreparedResult {
  prepared: true;
  rows: number;
  columns: number;
  headerRows: number;
  dateFormats: DateFormatArea[];
  /** Grid rows [from, to) of each block, planned as planBlocks plans them within the load's limits. */
  blocks: { from: number; to: number }[];
  /** The checksum of the whole grid (resultChecksum). */
  checksum: ResultChecksum;
  /** The values of grid rows [from, to). */
  values(from: number, to: number): Promise<GridCell[][]>;
}

function isPrepared(value: unknown): value is PreparedResult {
  return (value as { prepared?: unknown } | null)?.prepared === true;
}

export type RefreshEffect =
  /** Answered with the report's data, or with a PreparedResult made within `limits`. */
  | { type: "load"; item: RefreshItem; limits: WriteLimits }
  | { type: "read"; read: CellRead }
  | { type: "confirm"; item: RefreshItem; question: string }
  | { type: "write"; item: RefreshItem; block: CellBlock; index: number; of: number }
  /** The values of grid rows [from, to) of a prepared result, answered with them. */
  | { type: "values"; item: RefreshItem; result: PreparedResult; from: number; to: number }
  | { type: "record"; item: RefreshItem; input: RefreshInput }
  | { type: "progress"; item: RefreshItem; phase: RefreshPhase; rows?: number; totalRows?: number | null };

export type RefreshPhase = "loading" | "waiting" | "writing" | "recording";

export type RefreshOutcome =
  | {
      status: "refreshed";
      item: RefreshItem;
      /** The report as the service recorded it. */
      report: Report;
      written: CellRange;
      message: string;
    }
  | (NotRefreshed & {
      status: "not-refreshed";
      item: RefreshItem;
      /** Rows already new when a write failed half way (sheet rows, first and last), else null. */
      newRows?: { from: number; to: number } | null;
      /** The cells were written but the record failed: they are new, the service does not know. */
      written?: CellRange | null;
    });

function notRefreshed(
  item: RefreshItem,
  reason: NotRefreshedReason,
  message: string,
  extra: { newRows?: { from: number; to: number } | null; written?: CellRange | null } = {},
): RefreshOutcome {
  return { status: "not-refreshed", item, placement: item.placement, reason, message, ...extra };
}

/** The part of each date area inside rows [from, to) of the grid, relative to the block. */
function dateAreasIn(areas: readonly DateFormatArea[], from: number, to: number): DateFormatArea[] {
  const out: DateFormatArea[] = [];
  for (const a of areas) {
    const top = Math.max(a.row, from);
    const bottom = Math.min(a.row + a.rows, to);
    if (top >= bottom) continue;
    out.push({ ...a, row: top - from, rows: bottom - top });
  }
  return out;
}

/** Splits `ranges` into reads of at most `maxCells` cells each, by rows. */
function readsOf(ranges: readonly CellRange[], maxCells: number): CellRange[] {
  const out: CellRange[] = [];
  for (const r of ranges) {
    const width = r.right - r.left + 1;
    const rows = Math.max(1, Math.floor(maxCells / width));
    for (let top = r.top; top <= r.bottom; top += rows) {
      out.push({ ...r, top, bottom: Math.min(r.bottom, top + rows - 1) });
    }
  }
  return out;
}

function failureReason(error: PlatformError): NotRefreshedReason {
  if (error.kind === "forbidden" || error.kind === "unauthorized") return "no-access";
  if (error.kind === "aborted") return "stopped";
  return "query-failed";
}

function reasonText(item: RefreshItem, error: PlatformError): string {
  const name = reportName(item.placement.report);
  if (error.kind === "aborted") return `Not refreshed: stopped before ${name} was written.`;
  if (error.kind === "forbidden" || error.kind === "unauthorized") {
    return `Not refreshed: no access to the data of ${name}. ${error.message}`;
  }
  return `Not refreshed: the query of ${name} failed. ${error.message}`;
}

/**
 * One placement's refresh, as a program of effects. `answer` may be given (a host that loaded the
 * data already); otherwise a "load" effect asks for it.
 */
export function* refreshProgram(
  item: RefreshItem,
  limits: WriteLimits = DEFAULT_WRITE_LIMITS,
): Generator<RefreshEffect, RefreshOutcome, unknown> {
  const name = reportName(item.placement.report);
  const where = (range: CellRange) =>
    `${quoteSheetName(revealInvisible(item.sheet.name))}!${formatRange(range)}`;

  // 1. The data, laid out (here, or by the runner: a PreparedResult). Nothing is written before both are done.
  let grid: ReportGrid | PreparedResult;
  try {
    yield { type: "progress", item, phase: "loading" };
    const answer = (yield { type: "load", item, limits }) as LoadAnswer | PreparedResult;
    grid = isPrepared(answer) ? answer : reportGrid(item.placement.report, answer);
  } catch (e) {
    const error = isPlatformError(e) ? e : new PlatformError("invalid-response", String(e));
    return notRefreshed(item, failureReason(error), reasonText(item, error));
  }

  // 2. Cells the new result newly covers must be empty, or the user says to overwrite them.
  const extent = writeExtent(item, grid.rows, grid.columns);
  for (const range of readsOf(extent.taken, limits.maxReadCells)) {
    let values: unknown[][];
    try {
      values = (yield {
        type: "read",
        read: { sheet: item.sheet, range: formatRange(range) },
      }) as unknown[][];
    } catch (e) {
      const error = isPlatformError(e)
        ? e
        : new PlatformError("server", e instanceof Error ? e.message : String(e));
      return notRefreshed(
        item,
        "write-failed",
        `Not refreshed: the cells around ${name} could not be read. ${error.message}`,
      );
    }
    const filled = firstFilledCell(range, values);
    if (filled) {
      const yes = (yield {
        type: "confirm",
        item,
        question: overwriteQuestion(item, extent.taken, filled),
      }) as boolean;
      if (!yes) {
        return notRefreshed(
          item,
          "would-overwrite",
          `Not refreshed: the new result of ${name} would overwrite ${where(range)} (${filled} is not empty).`,
        );
      }
      break;
    }
  }

  // 3. The cells, in blocks within the host's limit; the cleared part of the old extent with the first.
  // The checksum is hashed block by block as each is written (its chunks are rows), so that no one
  // step hashes the whole grid: on a page's one thread, input waits for each step.
  const prepared = isPrepared(grid) ? grid : null;
  const local = isPrepared(grid) ? null : grid;
  const blocks = prepared ? prepared.blocks : planBlocks(local!.values, limits.maxBlockBytes);
  const checksum = local ? resultChecksumSteps(local.values) : null;
  let written = 0;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    yield { type: "progress", item, phase: "writing", rows: written, totalRows: grid.rows };
    try {
      const values = prepared
        ? ((yield { type: "values", item, result: prepared, from: b.from, to: b.to }) as GridCell[][])
        : local!.values.slice(b.from, b.to);
      const block: CellBlock = {
        sheet: item.sheet,
        topLeft: formatCell({ col: item.anchor.col, row: item.anchor.row + b.from }),
        values,
        dateFormats: dateAreasIn(grid.dateFormats, b.from, b.to),
        boldRows: Math.max(0, Math.min(grid.headerRows, b.to) - b.from),
        clear: i === 0 ? extent.cleared.map(formatRange) : [],
      };
      yield { type: "write", item, block, index: i, of: blocks.length };
    } catch (e) {
      const error = isPlatformError(e)
        ? e
        : new PlatformError("server", e instanceof Error ? e.message : String(e));
      const newRows = written > 0 ? { from: item.anchor.row, to: item.anchor.row + written - 1 } : null;
      const already = newRows
        ? ` Rows ${newRows.from}-${newRows.to} already hold the new result; the rest still shows the old one.`
        : " Nothing was written.";
      return notRefreshed(
        item,
        "write-failed",
        `Not refreshed: writing ${name} at ${where(extent.range)} failed (${error.message}).${already} Nothing was recorded: refresh it again.`,
        { newRows },
      );
    }
    written = b.to;
    checksum?.hashThrough(written);
  }

  // 4. The record, with the checksum of what was written; tried once more if it fails.
  const input = refreshRecord(item, extent.range, prepared ? prepared.checksum : checksum!.finish());
  yield { type: "progress", item, phase: "recording" };
  let lastError: PlatformError | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const report = (yield { type: "record", item, input }) as Report;
      return {
        status: "refreshed",
        item,
        report,
        written: extent.range,
        message: refreshedMessage(item, extent.range),
      };
    } catch (e) {
      lastError = isPlatformError(e) ? e : new PlatformError("server", String(e));
      if (lastError.kind === "aborted") break;
    }
  }
  return notRefreshed(
    item,
    "record-failed",
    `The cells of ${name} at ${where(extent.range)} were refreshed, but the service could not record it (${lastError?.message ?? "no answer"}): it still shows the old state. Refresh it again to record it.`,
    { written: extent.range },
  );
}

/** What runs a refresh: the host's cells, the data, the service, and the user. */
export interface RefreshRunner {
  /**
   * The report's data; or, laid out elsewhere within `limits` (a worker), a PreparedResult. The
   * limits are the run's (RunOptions.limits).
   */
  load(
    item: RefreshItem,
    onProgress: (p: DataLoadProgress) => void,
    signal?: AbortSignal,
    limits?: WriteLimits,
  ): Promise<LoadAnswer | PreparedResult>;
  read(read: CellRead): Promise<unknown[][]>;
  write(block: CellBlock): Promise<void>;
  record(item: RefreshItem, input: RefreshInput, signal?: AbortSignal): Promise<Report>;
  /** Asked before cells that are not the placement's are overwritten; false leaves it unrefreshed. */
  confirmOverwrite(item: RefreshItem, question: string): Promise<boolean>;
}

export interface RefreshProgress {
  item: RefreshItem;
  phase: RefreshPhase;
  rows?: number;
  totalRows?: number | null;
}

/** A progress effect as the caller hears it, for the placement being refreshed: both runners say it so. */
function progressOf(
  item: RefreshItem,
  effect: { phase: RefreshPhase; rows?: number; totalRows?: number | null },
): RefreshProgress {
  return { item, phase: effect.phase, rows: effect.rows, totalRows: effect.totalRows };
}

export interface RunOptions {
  limits?: WriteLimits;
  /**
   * Stop: a load in progress is abandoned at once; a placement being written is finished (no
   * placement is left half written) and the ones after it are not refreshed ("stopped").
   */
  signal?: AbortSignal;
  onProgress?: (progress: RefreshProgress) => void;
  /** Each placement's outcome as soon as it is known (Refresh all's rows). */
  onOutcome?: (outcome: RefreshOutcome) => void;
}

function stoppedOutcome(item: RefreshItem): RefreshOutcome {
  return notRefreshed(item, "stopped", `Not refreshed: stopped before ${reportName(item.placement.report)}.`);
}

/** Refreshes `items` in order (sheet by sheet, as planned), one after the other. */
export async function runRefresh(
  items: readonly RefreshItem[],
  runner: RefreshRunner,
  options: RunOptions = {},
): Promise<RefreshOutcome[]> {
  const outcomes: RefreshOutcome[] = [];
  for (const item of items) {
    if (options.signal?.aborted) {
      const o = stoppedOutcome(item);
      outcomes.push(o);
      options.onOutcome?.(o);
      continue;
    }
    const program = refreshProgram(item, options.limits);
    let writing = false;
    const outcome = await runProgram(
      program,
      async (effect) => {
        let value: unknown;
        switch (effect.type) {
          case "load":
            value = await runner.load(
              item,
              (p) => options.onProgress?.(progressOf(item, p)),
              options.signal,
              effect.limits,
            );
            break;
          case "values":
            value = await effect.result.values(effect.from, effect.to);
            break;
          case "read":
            value = await runner.read(effect.read);
            break;
          case "confirm":
            value = options.signal?.aborted
              ? false
              : await runner.confirmOverwrite(effect.item, effect.question);
            break;
          case "write":
            writing = true;
            value = await runner.write(effect.block);
            break;
          case "record":
            // Once written, the record goes out even after Stop: cells without a record show as edited.
            value = await runner.record(item, effect.input);
            break;
          case "progress":
            options.onProgress?.(progressOf(item, effect));
            break;
        }
        return value;
      },
      // Stopped before anything was written: this placement is left as it was.
      (effect) =>
        !writing && options.signal?.aborted && effect.type !== "progress" ? stoppedOutcome(item) : undefined,
    );
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return outcomes;
}

/** The same for Apps Script, where every call blocks. */
export interface SyncRefreshRunner {
  load(item: RefreshItem): LoadAnswer;
  read(read: CellRead): unknown[][];
  write(block: CellBlock): void;
  record(item: RefreshItem, input: RefreshInput): Report;
  /**
   * The answer given beforehand (the sidebar asked the user and called again), or a function that
   * answers with the question in hand (Apps Script cannot wait for the user: it may answer false
   * and hand the question to the sidebar, which calls again with the user's answer).
   */
  overwrite: boolean | ((item: RefreshItem, question: string) => boolean);
}

export function runRefreshSync(
  items: readonly RefreshItem[],
  runner: SyncRefreshRunner,
  options: {
    limits?: WriteLimits;
    onOutcome?: (outcome: RefreshOutcome) => void;
    onProgress?: (progress: RefreshProgress) => void;
  } = {},
): RefreshOutcome[] {
  const outcomes: RefreshOutcome[] = [];
  for (const item of items) {
    const program = refreshProgram(item, options.limits);
    const outcome = runProgramSync(program, (effect) => {
      let value: unknown;
      switch (effect.type) {
        case "load":
          value = runner.load(item);
          break;
        case "read":
          value = runner.read(effect.read);
          break;
        case "confirm":
          value =
            typeof runner.overwrite === "function"
              ? runner.overwrite(effect.item, effect.question)
              : runner.overwrite;
          break;
        case "write":
          runner.write(effect.block);
          break;
        case "values":
          // A synchronous load answers the data itself, never a prepared result.
          throw new Error("A prepared result needs the asynchronous runner.");
        case "record":
          value = runner.record(item, effect.input);
          break;
        case "progress":
          options.onProgress?.(progressOf(item, effect));
          break;
      }
      return value;
    });
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return outcomes;
}

/** What a refresh says when it is over: one placement's own outcome, or a count for several. */
export interface RefreshSummary {
  tone: "success" | "warning" | "error";
  message: string;
}

/**
 * The outcome of a run in words, the same in every host: a single placement's own message; for
 * several, "Refreshed 11 of 13 placements." with how many were stopped and how many were not
 * refreshed (the rows say why).
 */
export function refreshSummary(
  outcomes: readonly RefreshOutcome[],
  skipped: readonly NotRefreshed[],
): RefreshSummary {
  const refreshed = outcomes.filter((o) => o.status === "refreshed");
  const failed = [...outcomes.filter((o) => o.status === "not-refreshed"), ...skipped];
  if (outcomes.length + skipped.length === 1) {
    const only = outcomes[0] ?? skipped[0]!;
    return {
      tone: "status" in only && only.status === "refreshed" ? "success" : "error",
      message: only.message,
    };
  }
  const stopped = failed.filter((f) => f.reason === "stopped").length;
  const parts = [`Refreshed ${refreshed.length} of ${outcomes.length + skipped.length} placements.`];
  if (stopped > 0) parts.push(`Stopped: ${stopped} not started.`);
  if (failed.length - stopped > 0) parts.push(`${failed.length - stopped} not refreshed: the list says why.`);
  return {
    tone: failed.length === 0 ? "success" : refreshed.length > 0 ? "warning" : "error",
    message: parts.join(" "),
  };
}

/** A placement's row while it refreshes: "Refreshing… writing 12,000 of 50,000 rows". */
export function refreshProgressText(phase: string, rows?: number, total?: number | null): string {
  if (phase === "waiting") return "Refreshing… the service is preparing the data";
  if (phase === "writing" && total) {
    return `Refreshing… writing ${formatCount(Math.min(rows ?? 0, total))} of ${formatCount(total)} rows`;
  }
  if (phase === "recording") return "Refreshing… recording";
  return "Refreshing…";
}
