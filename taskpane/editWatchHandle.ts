/**
 * The pane's hand-edit notes (editWatch.ts) as a store the list reads, and the lazily loaded part
 * that keeps them (HandEditsWatch.tsx: when to compare, the comparison's code, the checksum's
 * SHA-256): not on the first screen. A host without `readCells` has no store, and shows no "Edited".
 */
import { useSyncExternalStore } from "react";
import type { EditNote } from "../src/core/hand-edits.js";

export type { EditNote };

export interface EditNotes {
  getSnapshot(): ReadonlyMap<string, EditNote>;
  subscribe(listener: () => void): () => void;
  /** The notes now (HandEditsWatch sets them). */
  set(notes: ReadonlyMap<string, EditNote>): void;
}

const NONE: ReadonlyMap<string, EditNote> = new Map();

export function createEditNotes(): EditNotes {
  let notes = NONE;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => notes,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      notes = next;
      for (const l of [...listeners]) l();
    },
  };
}

const NO_NOTES = createEditNotes();

/** The notes, read in a component. */
export function useEditNotes(notes: EditNotes | null | undefined): ReadonlyMap<string, EditNote> {
  const source = notes ?? NO_NOTES;
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
}
