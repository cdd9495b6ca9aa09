/**
 * Hand edits as the pane checks them (docs/pane.md, "Edited"; docs/decisions.md, "When hand edits
 * are checked"): each Up to date placement with a checksum of this add-in's version is read once
 * per list load, and again when the user leaves its range (never on a selection move inside it), or
 * when its checksum changed (a refresh or a place wrote it). What to compare and what to say is the
 * core's (src/core/hand-edits.ts); this reads through the host and keeps the notes. Loaded with the
 * first check (editWatchHandle.ts), not with the first screen.
 */
import {
  type EditCheck,
  type EditNote,
  editCheckOf,
  editNote,
  editNoteOfChecksum,
  pendingEditNote,
} from "../src/core/hand-edits.js";
import type { CellRange } from "../src/core/location.js";
import type { PlacedReport, SheetRef } from "../src/core/placement-view.js";
import { formatRange } from "../src/core/refresh-plan.js";
import { type ChecksumCell, resultChecksumSteps } from "../src/core/result-checksum.js";
import type { SpreadsheetHost } from "../src/hosts/host.js";
import { errorMessage } from "./errorMessage.js";

/** Cells read per host round trip when a large range is compared lazily. */
export const LAZY_READ_CELLS = 50_000;

export interface EditWatch {
  getSnapshot(): ReadonlyMap<string, EditNote>;
  subscribe(listener: () => void): () => void;
  /** A list load: every placement compared again. */
  checkAll(here: readonly PlacedReport[], sheets: readonly SheetRef[]): Promise<void>;
  /** The list changed without a load (a refresh recorded, a report placed): new or rewritten placements only. */
  checkChanged(here: readonly PlacedReport[], sheets: readonly SheetRef[]): Promise<void>;
  /** The user left this placement's range: it alone is compared again. */
  recheck(key: string, here: readonly PlacedReport[], sheets: readonly SheetRef[]): Promise<void>;
  /** Resolves when the large ranges queued so far are compared. */
  idle(): Promise<void>;
}

/**
 * What makes a placement's comparison stale: where it is, the checksum it is compared with, and when
 * it was last written. A refresh that writes the same result over hand edits records the very same
 * checksum: only its time says the cells were written again.
 */
function signature(p: PlacedReport): string {
  return JSON.stringify([
    p.syncStatus,
    p.anchorCell,
    p.endResultCell,
    p.resultLocation,
    p.refreshedAt,
    p.resultChecksum,
  ]);
}

/** Waits a macrotask: the pane handles input between the reads of a large range. */
const yieldToInput = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createEditWatch(host: Pick<SpreadsheetHost, "readCells">): EditWatch {
  let notes: ReadonlyMap<string, EditNote> = new Map();
  const signatures = new Map<string, string>();
  const listeners = new Set<() => void>();
  // Each placement's latest check: an older one still reading is void when it answers.
  const generation = new Map<string, number>();
  let lazyQueue: Promise<void> = Promise.resolve();

  const set = (key: string, note: EditNote | null) => {
    const next = new Map(notes);
    if (note && note.kind !== "unchanged") next.set(key, note);
    else next.delete(key);
    notes = next;
    for (const l of [...listeners]) l();
  };

  async function read(check: Extract<EditCheck, { kind: "read" }>): Promise<unknown[][]> {
    const readCells = host.readCells!.bind(host);
    if (!check.lazy) return readCells({ sheet: check.sheet, range: formatRange(check.range) });
    // A large range: in slices of rows, input handled between them.
    const width = check.range.right - check.range.left + 1;
    const step = Math.max(1, Math.floor(LAZY_READ_CELLS / width));
    const rows: unknown[][] = [];
    for (let top = check.range.top; top <= check.range.bottom; top += step) {
      const slice: CellRange = { ...check.range, top, bottom: Math.min(check.range.bottom, top + step - 1) };
      await yieldToInput();
      rows.push(...(await readCells({ sheet: check.sheet, range: formatRange(slice) })));
    }
    return rows;
  }

  /**
   * The note of a large range: its cells hashed a slice of rows at a time (as many cells as one
   * read), input handled between the slices, then compared; the same note as `editNote`.
   */
  async function noteInSteps(
    p: PlacedReport,
    check: Extract<EditCheck, { kind: "read" }>,
  ): Promise<EditNote> {
    const values = (await read(check)) as ChecksumCell[][];
    const steps = resultChecksumSteps(values);
    const width = check.range.right - check.range.left + 1;
    const step = Math.max(1, Math.floor(LAZY_READ_CELLS / width));
    for (let rows = step; rows < values.length; rows += step) {
      await yieldToInput();
      steps.hashThrough(rows);
    }
    await yieldToInput();
    return editNoteOfChecksum(p, check, steps.finish());
  }

  async function compare(p: PlacedReport, sheets: readonly SheetRef[]): Promise<void> {
    const mine = (generation.get(p.key) ?? 0) + 1;
    generation.set(p.key, mine);
    signatures.set(p.key, signature(p));
    const check = editCheckOf(p, sheets);
    if (check.kind === "skip") return set(p.key, null);
    if (check.kind === "known") return set(p.key, check.note);
    const run = async () => {
      if (generation.get(p.key) !== mine) return;
      let note: EditNote;
      try {
        note = check.lazy ? await noteInSteps(p, check) : editNote(p, check, (await read(check)) as never);
      } catch (error) {
        note = {
          kind: "cannot-tell",
          text: `Hand edits: cannot tell (its cells could not be read: ${errorMessage(error)})`,
        };
      }
      if (generation.get(p.key) === mine) set(p.key, note);
    };
    if (!check.lazy) return run();
    // Past the size limit: compared after the others, one at a time, and the row says so meanwhile.
    set(p.key, pendingEditNote(check.cells));
    lazyQueue = lazyQueue.then(run, run);
  }

  /** One placement after the other (one host round trip at a time); the large ones queued after. */
  async function checkEach(list: readonly PlacedReport[], sheets: readonly SheetRef[]): Promise<void> {
    if (!host.readCells) return;
    for (const p of list) await compare(p, sheets);
  }

  return {
    getSnapshot: () => notes,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async checkAll(here, sheets) {
      // Placements no longer listed lose their notes.
      const keys = new Set(here.map((p) => p.key));
      if ([...notes.keys()].some((k) => !keys.has(k))) {
        notes = new Map([...notes].filter(([k]) => keys.has(k)));
        for (const l of [...listeners]) l();
      }
      await checkEach(here, sheets);
    },
    async checkChanged(here, sheets) {
      await checkEach(
        here.filter((p) => signatures.get(p.key) !== signature(p)),
        sheets,
      );
    },
    idle: () => lazyQueue,
    async recheck(key, here, sheets) {
      const p = here.find((x) => x.key === key);
      if (p) await checkEach([p], sheets);
    },
  };
}
