/**
 * What the sidebar and the server say to each other while a report is placed in Google Sheets
 * (docs/google-sheets.md, "Place a report here in Google Sheets"). One place is one or more
 * `placeReportStep` executions, each within Apps Script's 6 minutes, as a refresh is: each answers
 * the outcome, or the overwrite question to ask first, or where the next execution goes on. No Apps
 * Script names here: the sidebar imports these types.
 */
import type { PlaceOutcome } from "../../../core/place-flow.js";

/** Where the cells stopped being written at the end of an execution (see refresh-protocol.ts). */
export interface PlaceResume {
  /** Blocks already written; the next execution writes from this one. */
  nextBlock: number;
  /** Sheet rows already written (first and last), or null. */
  newRows: { from: number; to: number } | null;
  /** Pieces of the loaded data kept in the user's cache (0: none; the data is loaded again). */
  pieces: number;
  /** The overwrite check was made (and answered) in an earlier execution: not made again. */
  checked: boolean;
}

export interface PlaceStepRequest {
  /** Names this place's Stop mark and kept data in the user's cache (as a refresh run's id). */
  runId: string;
  /** The report to place: read again from the service by the server. */
  deploymentId: number;
  reportId: number;
  /** The active sheet (by id, else by name) and cell the user chose. */
  target: { sheetId: string | null; sheetName: string; cell: string };
  resume?: PlaceResume | null;
  /** The user's answer to the overwrite question. */
  overwrite?: boolean;
  /** Cancel was pressed: nothing is written if writing has not begun. */
  stop?: boolean;
}

/** An outcome without the item: the sidebar holds the item it asked for. */
export type SheetsPlaceOutcome = PlaceOutcome extends infer O
  ? O extends PlaceOutcome
    ? Omit<O, "item">
    : never
  : never;

export interface PlaceStepAnswer {
  /** The place's outcome, or null while work is left. */
  outcome: SheetsPlaceOutcome | null;
  /** A question for the user before anything is written (Overwrite / Cancel). */
  question: string | null;
  /** The call that goes on (with `overwrite` set when there is a question); null when done. */
  next: PlaceStepRequest | null;
}
