/**
 * Hand edits (docs/pane.md, "Edited"; platform-api.md, "Hand edits"): which placements the pane
 * compares with their `resultChecksum`, what it reads for that, and what it says. Only an Up to date
 * placement is compared (an Out of date one is expected to differ from the report's data, and a
 * refresh rewrites it anyway), only with a checksum of this add-in's version (another version is
 * "cannot tell", never "Edited"), and only over the cells it covers now. The reading is the host's,
 * the comparison is `editedRows` (result-checksum.ts).
 */
import { revealInvisible } from "./display.js";
import { type CellRange, quoteSheetName } from "./location.js";
import { locatePlacement, type PlacedReport, reportName, type SheetRef } from "./placement-view.js";
import { placementRange } from "./placements.js";
import { formatRange } from "./refresh-plan.js";
import {
  type ChecksumCell,
  describeEditedRows,
  type EditedRows,
  editedRows,
  editedRowsOfChecksum,
  RESULT_CHECKSUM_VERSION,
  type ResultChecksum,
  type RowRange,
} from "./result-checksum.js";

/**
 * Ranges up to this many cells are read when the list loads; larger ones are compared lazily (after
 * the others, one at a time, when the pane is idle) and their row says so meanwhile.
 */
export const EAGER_EDIT_CHECK_CELLS = 100_000;

/** What to do about one placement's hand edits. */
export type EditCheck =
  /** Not compared: not Up to date, no checksum, no known extent, or its sheet is not here. */
  | { kind: "skip" }
  /** Compared without reading: its checksum is of another version. */
  | { kind: "known"; note: EditNote }
  /** Read these cells, then `editNote`. */
  | {
      kind: "read";
      sheet: { id: string | null; name: string };
      range: CellRange;
      cells: number;
      /** Past EAGER_EDIT_CHECK_CELLS: compared lazily. */
      lazy: boolean;
    };

/** What a placement's row says about hand edits. */
export type EditNote =
  | { kind: "unchanged" }
  | {
      kind: "edited";
      /** Grid rows (0-based), adjacent ones merged. */
      rows: RowRange[];
      /** "rows 4-6 edited" (sheet rows). */
      text: string;
      /** The sheet rows edited, first to last, across the placement's columns: what Locate selects. */
      locate: { sheetId: string | null; sheetName: string; range: string };
    }
  /** The cells now span another extent, or the checksum cannot be read: not "Edited". */
  | { kind: "cannot-tell"; text: string }
  /** Past the size limit, not compared yet. */
  | { kind: "pending"; text: string };

function checksumVersion(value: unknown): number | null {
  if (!value || typeof value !== "object") return null;
  const v = (value as { v?: unknown }).v;
  return typeof v === "number" ? v : null;
}

/** What the pane does about `p`'s hand edits, given the workbook's sheets now. */
export function editCheckOf(p: PlacedReport, sheets: readonly SheetRef[]): EditCheck {
  if (p.syncStatus !== "UP_TO_DATE" || !p.resultChecksum) return { kind: "skip" };
  const v = checksumVersion(p.resultChecksum);
  if (v !== RESULT_CHECKSUM_VERSION) {
    return {
      kind: "known",
      note: {
        kind: "cannot-tell",
        text: `Hand edits: cannot tell (its fingerprint is of version ${v ?? "?"}; this add-in reads version ${RESULT_CHECKSUM_VERSION}).`,
      },
    };
  }
  const range = placementRange(p);
  if (!range) return { kind: "skip" };
  const where = locatePlacement(p, sheets);
  if (where.note?.kind === "missing" || where.note?.kind === "recreated") return { kind: "skip" };
  const cells = (range.bottom - range.top + 1) * (range.right - range.left + 1);
  return {
    kind: "read",
    sheet: { id: where.sheetId, name: where.sheetName },
    range,
    cells,
    lazy: cells > EAGER_EDIT_CHECK_CELLS,
  };
}

/** The row of a placement whose range is past the size limit, until it is compared. */
export function pendingEditNote(cells: number): EditNote {
  return {
    kind: "pending",
    text: `Hand edits: checking… (a large range of ${cells.toLocaleString("en-US")} cells, compared after the others)`,
  };
}

/**
 * The note for `p` given the checksum of the cells read back from `check.range`, made beforehand in
 * steps (resultChecksumSteps): the same note as `editNote` of those cells.
 */
export function editNoteOfChecksum(
  p: PlacedReport,
  check: Extract<EditCheck, { kind: "read" }>,
  current: ResultChecksum,
): EditNote {
  return noteOf(editedRowsOfChecksum(p.resultChecksum, current), check);
}

/** The note for `p` given the cells read back from `check.range`. */
export function editNote(
  p: PlacedReport,
  check: Extract<EditCheck, { kind: "read" }>,
  values: readonly (readonly ChecksumCell[])[],
): EditNote {
  return noteOf(editedRows(p.resultChecksum, values), check);
}

function noteOf(result: EditedRows, check: Extract<EditCheck, { kind: "read" }>): EditNote {
  switch (result.status) {
    case "unchanged":
      return { kind: "unchanged" };
    case "cannot-tell":
      return { kind: "cannot-tell", text: `Hand edits: cannot tell (${result.reason}).` };
    case "resized":
      return {
        kind: "cannot-tell",
        text: `Hand edits: cannot tell (the fingerprint covers ${result.written.rows} × ${result.written.columns} cells, the placement ${result.now.rows} × ${result.now.columns}).`,
      };
    case "edited": {
      const { range } = check;
      const first = result.rows[0]!;
      const last = result.rows[result.rows.length - 1]!;
      const locate: CellRange = {
        top: range.top + first.from,
        bottom: range.top + last.to,
        left: range.left,
        right: range.right,
      };
      return {
        kind: "edited",
        rows: result.rows,
        text: `${describeEditedRows(result.rows, range.top)} edited`,
        locate: { sheetId: check.sheet.id, sheetName: check.sheet.name, range: formatRange(locate) },
      };
    }
  }
}

/** Asked before a refresh overwrites a placement edited by hand. */
export function editedRefreshQuestion(p: PlacedReport, note: Extract<EditNote, { kind: "edited" }>): string {
  const rows = note.text.replace(/ edited$/, "");
  return `Refresh will overwrite your edits in ${rows} of ${reportName(p.report)} (${quoteSheetName(revealInvisible(note.locate.sheetName))}!${note.locate.range}).`;
}

/** The outcome of a refresh the user declined to keep their edits. */
export function editsKeptMessage(p: PlacedReport, note: Extract<EditNote, { kind: "edited" }>): string {
  return `Not refreshed: your edits in ${note.text.replace(/ edited$/, "")} of ${reportName(p.report)} were kept.`;
}
