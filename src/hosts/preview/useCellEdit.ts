/**
 * Typing into the grid's active cell, as in Excel: a character typed on the cell (or Backspace)
 * starts an edit that replaces its value, F2 or a double click one that starts from it; **Enter**
 * commits and moves down (Shift+Enter up), **Tab** commits and moves right (Shift+Tab left),
 * **Escape** cancels, a click on another cell or leaving the grid commits. An edit started by typing
 * is in Excel's Enter mode (an arrow key commits and moves); after F2 or a double click the arrows
 * move the caret. What is committed goes to the workbook (`editCell`: numbers become numbers).
 */
import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import type { PreviewWorkbook } from "./workbook.js";

/** An edit in progress, at the cell it started on, with the text it started from. */
export interface CellEdit {
  address: string;
  initial: string;
  mode: "enter" | "edit";
}

export interface CellEditing {
  /** The edit in progress, or null. */
  edit: CellEdit | null;
  /** The input drawn in the cell being edited. */
  inputRef: RefObject<HTMLInputElement | null>;
  /** Starts an edit of the active cell. */
  start(mode: CellEdit["mode"], initial: string): void;
  /**
   * Ends the edit, if one is open: commits what was typed (or not), then moves the active cell. The
   * focus goes back to the cell unless `stay` (the focus has gone elsewhere: the pane, the toolbar).
   */
  end(commit: boolean, move?: readonly [number, number], stay?: boolean): void;
  /** The input's keys: Enter, Tab, Escape, and the arrows in Enter mode. */
  onInputKeyDown(event: KeyboardEvent<HTMLInputElement>): void;
}

const ARROWS: Record<string, readonly [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/**
 * `focusCell` puts the focus back on a cell when an edit ends, before its input leaves the DOM, so
 * the focus stays in the grid; `reveal` scrolls the cell being edited into view.
 */
export function useCellEdit(
  workbook: PreviewWorkbook,
  activeCell: string,
  sheetId: string,
  focusCell: (address: string) => void,
  reveal: (address: string) => void,
): CellEditing {
  const [edit, setEdit] = useState<CellEdit | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // The edit as it is now, for the handlers that end it (a blur may come before React re-renders).
  const editRef = useRef<CellEdit | null>(null);
  editRef.current = edit;

  // An edit ends, uncommitted, when the active cell or the sheet changes under it (the pane
  // selected a placement's range meanwhile).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the sheet's id is a trigger, not an input
  useEffect(() => {
    const open = editRef.current;
    if (open && open.address !== activeCell) setEdit(null);
  }, [activeCell, sheetId]);

  // A new edit takes the focus, the caret after its text, before the next key arrives.
  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!edit || !input) return;
    input.focus({ preventScroll: true });
    input.setSelectionRange(input.value.length, input.value.length);
  }, [edit]);

  const start = useCallback(
    (mode: CellEdit["mode"], initial: string) => {
      const address = workbook.getSnapshot().activeCell;
      reveal(address);
      setEdit({ address, initial, mode });
    },
    [workbook, reveal],
  );

  const end = useCallback(
    (commit: boolean, move?: readonly [number, number], stay = false) => {
      const open = editRef.current;
      if (!open) return;
      const text = inputRef.current?.value ?? open.initial;
      editRef.current = null;
      setEdit(null);
      if (!stay) focusCell(open.address);
      if (commit) workbook.editCell(open.address, text);
      if (move) workbook.moveBy(move[0], move[1]);
    },
    [workbook, focusCell],
  );

  const onInputKeyDown = useCallback(
    (event: KeyboardEvent<HTMLInputElement>) => {
      // The grid's own keys (arrows, typing, the menu key) are not for the cell being edited.
      event.stopPropagation();
      const open = editRef.current;
      if (!open) return;
      let commit = true;
      let move: readonly [number, number] | undefined;
      if (event.key === "Enter") move = [event.shiftKey ? -1 : 1, 0];
      else if (event.key === "Tab") move = [0, event.shiftKey ? -1 : 1];
      else if (event.key === "Escape") commit = false;
      else if (open.mode === "enter" && ARROWS[event.key]) move = ARROWS[event.key];
      else return;
      event.preventDefault();
      end(commit, move);
    },
    [end],
  );

  return { edit, inputRef, start, end, onInputKeyDown };
}
