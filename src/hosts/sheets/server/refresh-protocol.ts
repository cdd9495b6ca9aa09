/**
 * What the sidebar and the server say to each other during a refresh in Google Sheets
 * (docs/google-sheets.md, "Refresh in Google Sheets"). One refresh is one or more
 * `refreshPlacementsStep` executions, each within Apps Script's 6 minutes: each answers the
 * outcomes it reached and, when work is left, the request that continues it. No Apps Script names
 * here: the sidebar imports these types.
 */
import type { RefreshOutcome, RefreshPhase } from "../../../core/refresh-flow.js";

/** Where a placement stopped being written at the end of an execution. */
export interface RefreshResume {
  /** The placement (its key): always the first of the request's keys. */
  key: string;
  /** Blocks already written; the next execution writes from this one. */
  nextBlock: number;
  /** Sheet rows already new (first and last), or null. */
  newRows: { from: number; to: number } | null;
  /** Pieces of the loaded data kept in the user's cache (0: none; the data is loaded again). */
  pieces: number;
  /** The overwrite check was made (and answered) in an earlier execution: not made again. */
  checked: boolean;
}

export interface RefreshStepRequest {
  /** Names this run's progress, Stop mark and kept data in the user's cache. */
  runId: string;
  /** Placements still to refresh, in order (placement keys). */
  keys: string[];
  resume?: RefreshResume | null;
  /** The user's answer to the overwrite question about the first key. */
  overwrite?: boolean;
  /** Stop was pressed: the placement being written is finished, the others are not started. */
  stop?: boolean;
}

/** An outcome, addressed by the placement's key (the sidebar holds the placement itself). */
export type SheetsRefreshOutcome = RefreshOutcome extends infer O
  ? O extends RefreshOutcome
    ? Omit<O, "item" | "placement"> & { key: string }
    : never
  : never;

export interface RefreshStepAnswer {
  /** The placements finished in this execution, in order. */
  outcomes: SheetsRefreshOutcome[];
  /** A question for the user before the first of `next.keys` is written (Overwrite / Cancel). */
  question: string | null;
  /** The call that goes on (with `overwrite` set when there is a question); null when all is done. */
  next: RefreshStepRequest | null;
}

/** What `refreshStatus` answers while a step runs: the placement and where it is. */
export interface RefreshStatus {
  key: string;
  phase: RefreshPhase;
  rows?: number;
  totalRows?: number | null;
}
