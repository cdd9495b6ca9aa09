/**
 * The sheet's grid: the ARIA grid pattern on a table, one Tab stop (the active cell), selection by
 * click, Shift-click, drag and Shift-Arrow as in Excel, placed ranges shaded, the cell menu, and
 * typing into a cell (Enter or Tab commits, Escape cancels).
 *
 * Virtualised (@tanstack/react-virtual), so a sheet of 50,000 rows scrolls as one of 40: only the
 * rows and columns in view, a few either side, and always the active cell's row and column (it
 * holds the focus) are in the DOM; spacer rows and cells give the table its whole size, so the
 * scrollbars, the sticky headers and the selection outline behave as over a full table. The grid
 * says its whole size with aria-rowcount and aria-colcount, and each row and cell its place with
 * aria-rowindex and aria-colindex (WAI-ARIA APG, "Data Grid").
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import {
  type CellRange,
  type CellRef,
  columnLetters,
  formatCell,
  parseCell,
  rangeContains,
} from "../../core/location.js";
import { GridCell, including, slots } from "./GridCell.js";
import { useCellEdit } from "./useCellEdit.js";
import {
  type PreviewSheet,
  type PreviewWorkbook,
  rangesOnRow,
  type ShadedRange,
  type SheetSize,
  shadeOf,
} from "./workbook.js";

/** Cell geometry in px (kept in step with workbook-grid.css). */
const COLUMN_WIDTH = 76;
const ROW_HEIGHT = 24;
const ROW_HEADER_WIDTH = 44;
/** Rows and columns drawn beyond those in view, either side. */
const OVERSCAN_ROWS = 10;
const OVERSCAN_COLUMNS = 3;

export interface GridProps {
  sheet: PreviewSheet;
  activeCell: string;
  selection: CellRange;
  values: ReadonlyMap<string, string> | undefined;
  shaded: readonly ShadedRange[];
  /** The rows and columns drawn (workbook.ts, `gridSize`). */
  size: SheetSize;
  /** Counts the ranges the pane selected: each is scrolled into view. */
  rangeSelections: number;
  workbook: PreviewWorkbook;
  onCellMenu: (cell: CellRef, x: number, y: number, from: HTMLElement) => void;
}

export function Grid({
  sheet,
  activeCell,
  selection,
  values,
  shaded,
  size,
  rangeSelections,
  workbook,
  onCellMenu,
}: GridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLTableElement>(null);
  const [focusWithin, setFocusWithin] = useState(false);

  const active = parseCell(activeCell) ?? { col: 1, row: 1 };

  const rows = useVirtualizer({
    count: size.rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // The column headers' row sits above the first row, and stays over the rows scrolled under it.
    paddingStart: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
    overscan: OVERSCAN_ROWS,
    rangeExtractor: (range) => including(range, active.row - 1),
  });
  const columns = useVirtualizer({
    horizontal: true,
    count: size.columns,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => COLUMN_WIDTH,
    paddingStart: ROW_HEADER_WIDTH,
    scrollPaddingStart: ROW_HEADER_WIDTH,
    overscan: OVERSCAN_COLUMNS,
    rangeExtractor: (range) => including(range, active.col - 1),
  });

  const cellElement = useCallback(
    (address: string) => gridRef.current?.querySelector<HTMLElement>(`[data-cell="${address}"]`) ?? null,
    [],
  );

  /** Scrolls the grid the least that shows the cell whole, clear of the sticky headers. */
  const scrollToCell = useCallback(
    (cell: CellRef) => {
      rows.scrollToIndex(cell.row - 1, { align: "auto" });
      columns.scrollToIndex(cell.col - 1, { align: "auto" });
    },
    [rows, columns],
  );

  // The active cell is kept in view, however it moved: a click, a key, another sheet's tab, or the
  // pane selecting a placement's range (Locate, a list item) through the host, also again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the sheet's id and the count of ranges selected are triggers, not inputs
  useEffect(() => {
    const cell = parseCell(activeCell);
    if (cell) scrollToCell(cell);
  }, [activeCell, sheet.id, rangeSelections, scrollToCell]);

  const focusCell = useCallback(
    (address: string) => cellElement(address)?.focus({ preventScroll: true }),
    [cellElement],
  );
  const reveal = useCallback(
    (address: string) => {
      const cell = parseCell(address);
      if (cell) scrollToCell(cell);
    },
    [scrollToCell],
  );
  const editing = useCellEdit(workbook, activeCell, sheet.id, focusCell, reveal);
  const { edit } = editing;
  const editOpen = edit !== null;

  // Focus follows the active cell while the grid has focus (roving tabindex). The active cell's row
  // and column are always drawn, so it is in the DOM wherever the grid is scrolled.
  useEffect(() => {
    if (!focusWithin || editOpen) return;
    // Where the focus is now, not the state: a menu opened in the same event (a right-click that
    // selected the cell first, ContextMenu.tsx) has taken it, and the grid's blur is not yet rendered.
    if (!gridRef.current?.contains(document.activeElement)) return;
    const cell = cellElement(activeCell);
    if (cell && document.activeElement !== cell) cell.focus({ preventScroll: true });
  }, [activeCell, focusWithin, cellElement, editOpen]);

  // Shift-Arrow moves the range's far end, not the focus: keep that end in view, as Excel does.
  useEffect(() => {
    if (!focusWithin) return;
    const start = parseCell(activeCell);
    if (!start) return;
    const end = {
      col: start.col === selection.left ? selection.right : selection.left,
      row: start.row === selection.top ? selection.bottom : selection.top,
    };
    if (end.col === start.col && end.row === start.row) return;
    scrollToCell(end);
  }, [selection, activeCell, focusWithin, scrollToCell]);

  const onKeyDown = (event: ReactKeyboardEvent) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      Enter: [event.shiftKey ? -1 : 1, 0],
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      workbook.moveBy(move[0], move[1], event.shiftKey && event.key !== "Enter");
      return;
    }
    if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
      event.preventDefault();
      const target = event.target as HTMLElement;
      const box = target.getBoundingClientRect();
      const [col, row] = [target.dataset.col, target.dataset.row].map(Number);
      if (col && row) onCellMenu({ col, row }, box.left + box.width / 2, box.bottom, target);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "F2") {
      event.preventDefault();
      editing.start("edit", workbook.cellEditText(workbook.getSnapshot().activeCell));
    } else if (event.key === "Delete") {
      event.preventDefault();
      workbook.clearSelection();
    } else if (event.key === "Backspace") {
      event.preventDefault();
      editing.start("enter", "");
    } else if (event.key.length === 1) {
      // A character typed on a cell starts an edit that replaces it, as in Excel.
      event.preventDefault();
      editing.start("enter", event.key);
    }
  };

  const cellAt = (event: ReactMouseEvent): { cell: CellRef; element: HTMLElement } | null => {
    const element = (event.target as HTMLElement).closest<HTMLElement>("[data-cell]");
    return element
      ? { cell: { col: Number(element.dataset.col), row: Number(element.dataset.row) }, element }
      : null;
  };

  /** Focus goes to the active cell, wherever the pointer is: the grid's one Tab stop. */
  const focusActive = (): HTMLElement | null => {
    const element = cellElement(workbook.getSnapshot().activeCell);
    element?.focus({ preventScroll: true });
    return element;
  };

  // A drag selects from where the button went down; it ends when the button comes up, anywhere. It
  // extends the selection only once the pointer has moved: the browser also says the pointer is over
  // another cell when the grid moves under a still pointer (a cell revealed as the button goes down
  // scrolls it), and that is no drag.
  const dragging = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  useEffect(() => {
    const up = () => {
      dragging.current = null;
    };
    document.addEventListener("mouseup", up);
    return () => document.removeEventListener("mouseup", up);
  }, []);

  const isEditorEvent = (event: ReactMouseEvent) => (event.target as HTMLElement).tagName === "INPUT";

  const onMouseDown = (event: ReactMouseEvent) => {
    // A click in the cell being edited places the caret.
    if (isEditorEvent(event)) return;
    const hit = cellAt(event);
    if (!hit) return;
    // A click elsewhere commits the edit first, as in Excel.
    editing.end(true);
    // The browser would focus the cell under the pointer; the active cell takes focus instead.
    event.preventDefault();
    if (event.button === 0) {
      workbook.selectCell(hit.cell, event.shiftKey);
      dragging.current = { x: event.clientX, y: event.clientY, moved: false };
    }
    focusActive();
  };

  const onDoubleClick = (event: ReactMouseEvent) => {
    if (isEditorEvent(event) || !cellAt(event)) return;
    editing.start("edit", workbook.cellEditText(workbook.getSnapshot().activeCell));
  };

  const onMouseOver = (event: ReactMouseEvent) => {
    const drag = dragging.current;
    if (!drag) return;
    if ((event.buttons & 1) === 0) {
      dragging.current = null;
      return;
    }
    if (!drag.moved) {
      if (event.clientX === drag.x && event.clientY === drag.y) return;
      drag.moved = true;
    }
    const hit = cellAt(event);
    if (hit) workbook.selectCell(hit.cell, true);
  };

  const onContextMenu = (event: ReactMouseEvent) => {
    if (isEditorEvent(event)) return;
    const hit = cellAt(event);
    if (!hit) return;
    event.preventDefault();
    editing.end(true);
    // Like Excel: right-clicking inside the selection keeps it (the menu acts on the active cell);
    // outside it, the clicked cell is selected first.
    if (!rangeContains(selection, hit.cell)) workbook.selectCell(hit.cell);
    const activeElement = focusActive() ?? hit.element;
    onCellMenu(
      parseCell(workbook.getSnapshot().activeCell) ?? hit.cell,
      event.clientX,
      event.clientY,
      activeElement,
    );
  };

  const columnSlots = slots(
    columns.getVirtualItems().map((c) => c.index),
    size.columns,
  );
  const rowSlots = slots(
    rows.getVirtualItems().map((r) => r.index),
    size.rows,
  );
  // A spacer: no cell of the grid, only the width of the columns it stands for.
  const columnGap = (gap: number, key: string) => (
    <td key={key} aria-hidden="true" className="wb-gap" style={{ width: gap * COLUMN_WIDTH }} />
  );

  const headerCells: ReactNode[] = [
    <th key="corner" scope="col" className="wb-corner" aria-colindex={1}>
      <span className="wb-visually-hidden">Row</span>
    </th>,
  ];
  for (const slot of columnSlots) {
    if ("gap" in slot) {
      headerCells.push(columnGap(slot.gap, slot.key));
      continue;
    }
    const col = slot.index + 1;
    const inSelection = col >= selection.left && col <= selection.right;
    headerCells.push(
      <th
        key={col}
        scope="col"
        aria-colindex={col + 1}
        className={inSelection ? "wb-colhead wb-head-on" : "wb-colhead"}
      >
        {columnLetters(col)}
      </th>,
    );
  }

  const body: ReactNode[] = [];
  for (const slot of rowSlots) {
    if ("gap" in slot) {
      body.push(
        // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row, never focused: no cell of the grid, only the height of the rows it stands for
        <tr
          key={slot.key}
          aria-hidden="true"
          className="wb-gap-row"
          style={{ height: slot.gap * ROW_HEIGHT }}
        >
          <td colSpan={columnSlots.length + 1} />
        </tr>,
      );
      continue;
    }
    const row = slot.index + 1;
    const onRow = rangesOnRow(shaded, row);
    const rowSelected = row >= selection.top && row <= selection.bottom;
    const cells: ReactNode[] = [
      <th
        key="h"
        scope="row"
        aria-colindex={1}
        className={rowSelected ? "wb-rowhead wb-head-on" : "wb-rowhead"}
      >
        {row}
      </th>,
    ];
    for (const columnSlot of columnSlots) {
      if ("gap" in columnSlot) {
        cells.push(columnGap(columnSlot.gap, columnSlot.key));
        continue;
      }
      const col = columnSlot.index + 1;
      const address = formatCell({ col, row });
      const isActive = address === activeCell;
      cells.push(
        <GridCell
          key={address}
          col={col}
          row={row}
          address={address}
          value={values?.get(address)}
          shade={onRow.length > 0 ? shadeOf(onRow, col) : undefined}
          selected={rangeContains(selection, { col, row })}
          active={isActive}
          edit={isActive && edit?.address === address ? editing : null}
        />,
      );
    }
    body.push(
      <tr key={row} aria-rowindex={row + 1}>
        {cells}
      </tr>,
    );
  }

  const outline = {
    left: ROW_HEADER_WIDTH + (selection.left - 1) * COLUMN_WIDTH,
    top: ROW_HEIGHT + (selection.top - 1) * ROW_HEIGHT,
    width: (selection.right - selection.left + 1) * COLUMN_WIDTH,
    height: (selection.bottom - selection.top + 1) * ROW_HEIGHT,
  };

  return (
    <div className="wb-grid-scroll" ref={scrollRef}>
      <div className="wb-grid-wrap">
        <table
          ref={gridRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a spreadsheet is the ARIA grid pattern, and a table is its markup (WAI-ARIA APG, "Data Grid")
          role="grid"
          aria-label={`${sheet.name} cells`}
          // The whole sheet, header row and column included, though only part of it is drawn.
          aria-rowcount={size.rows + 1}
          aria-colcount={size.columns + 1}
          className="wb-grid"
          style={{ width: ROW_HEADER_WIDTH + size.columns * COLUMN_WIDTH }}
          onMouseDown={onMouseDown}
          onMouseOver={onMouseOver}
          onDoubleClick={onDoubleClick}
          onContextMenu={onContextMenu}
          onKeyDown={onKeyDown}
          onFocus={() => setFocusWithin(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusWithin(false);
          }}
        >
          <thead>
            <tr aria-rowindex={1}>{headerCells}</tr>
          </thead>
          <tbody>{body}</tbody>
        </table>
        <div className="wb-selection-outline" style={outline} aria-hidden="true" />
      </div>
    </div>
  );
}
