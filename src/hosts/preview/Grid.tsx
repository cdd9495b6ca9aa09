/**
 * The sheet's grid: the ARIA grid pattern on a table, one Tab stop (the active cell), selection by
 * click, Shift-click, drag and Shift-Arrow as in Excel, placed ranges shaded, and the cell menu.
 */
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { type CellRange, type CellRef, formatCell, parseCell, rangeContains } from "../../core/location.js";
import {
  COLUMN_NAMES,
  GRID_ROWS,
  type PreviewSheet,
  type PreviewWorkbook,
  rangeText,
  type ShadedRange,
  shadingByCell,
} from "./workbook.js";

/** Cell geometry in px (kept in step with preview.css). */
const COLUMN_WIDTH = 76;
const ROW_HEIGHT = 24;
const ROW_HEADER_WIDTH = 44;

export interface GridProps {
  sheet: PreviewSheet;
  activeCell: string;
  selection: CellRange;
  values: ReadonlyMap<string, string> | undefined;
  shaded: readonly ShadedRange[];
  workbook: PreviewWorkbook;
  onCellMenu: (cell: CellRef, x: number, y: number, from: HTMLElement) => void;
}

export function Grid({ sheet, activeCell, selection, values, shaded, workbook, onCellMenu }: GridProps) {
  const gridRef = useRef<HTMLTableElement>(null);
  const shadeOf = useMemo(() => shadingByCell(shaded), [shaded]);
  const [focusWithin, setFocusWithin] = useState(false);

  // Focus follows the active cell while the grid has focus (roving tabindex).
  useEffect(() => {
    if (!focusWithin) return;
    const cell = gridRef.current?.querySelector<HTMLElement>(`[data-cell="${activeCell}"]`);
    if (cell && document.activeElement !== cell) cell.focus({ preventScroll: false });
  }, [activeCell, focusWithin]);

  // Shift-Arrow moves the range's far end, not the focus: keep that end in view, as Excel does.
  useEffect(() => {
    if (!focusWithin) return;
    const active = parseCell(activeCell);
    if (!active) return;
    const end = formatCell({
      col: active.col === selection.left ? selection.right : selection.left,
      row: active.row === selection.top ? selection.bottom : selection.top,
    });
    if (end === activeCell) return;
    gridRef.current
      ?.querySelector<HTMLElement>(`[data-cell="${end}"]`)
      ?.scrollIntoView({ block: "nearest", inline: "nearest" });
  }, [selection, activeCell, focusWithin]);

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
    const active = workbook.getSnapshot().activeCell;
    const element = gridRef.current?.querySelector<HTMLElement>(`[data-cell="${active}"]`) ?? null;
    element?.focus({ preventScroll: true });
    return element;
  };

  // A drag selects from where the button went down; it ends when the button comes up, anywhere.
  const dragging = useRef(false);
  useEffect(() => {
    const up = () => {
      dragging.current = false;
    };
    document.addEventListener("mouseup", up);
    return () => document.removeEventListener("mouseup", up);
  }, []);

  const onMouseDown = (event: ReactMouseEvent) => {
    const hit = cellAt(event);
    if (!hit) return;
    // The browser would focus the cell under the pointer; the active cell takes focus instead.
    event.preventDefault();
    if (event.button === 0) {
      workbook.selectCell(hit.cell, event.shiftKey);
      dragging.current = true;
    }
    focusActive();
  };

  const onMouseOver = (event: ReactMouseEvent) => {
    if (!dragging.current) return;
    if ((event.buttons & 1) === 0) {
      dragging.current = false;
      return;
    }
    const hit = cellAt(event);
    if (hit) workbook.selectCell(hit.cell, true);
  };

  const onContextMenu = (event: ReactMouseEvent) => {
    const hit = cellAt(event);
    if (!hit) return;
    event.preventDefault();
    // Like Excel: right-clicking inside the selection keeps it (the menu acts on the active cell);
    // outside it, the clicked cell is selected first.
    if (!rangeContains(selection, hit.cell)) workbook.selectCell(hit.cell);
    const active = focusActive() ?? hit.element;
    onCellMenu(
      parseCell(workbook.getSnapshot().activeCell) ?? hit.cell,
      event.clientX,
      event.clientY,
      active,
    );
  };

  const headerCells = [
    <th key="corner" scope="col" className="wb-corner">
      <span className="wb-visually-hidden">Row</span>
    </th>,
  ];
  for (const [i, name] of COLUMN_NAMES.entries()) {
    const inSelection = i + 1 >= selection.left && i + 1 <= selection.right;
    headerCells.push(
      <th key={name} scope="col" className={inSelection ? "wb-colhead wb-head-on" : "wb-colhead"}>
        {name}
      </th>,
    );
  }

  const rows = [];
  for (let row = 1; row <= GRID_ROWS; row++) {
    const cells = [];
    const rowSelected = row >= selection.top && row <= selection.bottom;
    cells.push(
      <th key="h" scope="row" className={rowSelected ? "wb-rowhead wb-head-on" : "wb-rowhead"}>
        {row}
      </th>,
    );
    for (let col = 1; col <= COLUMN_NAMES.length; col++) {
      const address = formatCell({ col, row });
      const shade = shadeOf.get(address);
      const selected = rangeContains(selection, { col, row });
      const active = address === activeCell;
      const classes = ["wb-cell"];
      let style: React.CSSProperties | undefined;
      if (shade) {
        classes.push(shade.staleSheetId ? "wb-placed wb-placed-stale" : "wb-placed");
        const edges: string[] = [];
        const line = "var(--wb-placed-border)";
        if (row === shade.range.top) edges.push(`inset 0 2px 0 ${line}`);
        if (row === shade.range.bottom) edges.push(`inset 0 -2px 0 ${line}`);
        if (col === shade.range.left) edges.push(`inset 2px 0 0 ${line}`);
        if (col === shade.range.right) edges.push(`inset -2px 0 0 ${line}`);
        if (edges.length) style = { boxShadow: edges.join(", ") };
      }
      if (selected && !active) classes.push("wb-selected");
      if (active) classes.push("wb-active");
      const value = values?.get(address);
      if (value && shade && row === shade.range.top) classes.push("wb-header-value");
      else if (value && /^[\d,.]+$/.test(value)) classes.push("wb-number");
      cells.push(
        <td
          key={address}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the cells of the grid pattern (see the table below)
          role="gridcell"
          aria-label={address}
          aria-selected={selected}
          tabIndex={active ? 0 : -1}
          data-cell={address}
          data-col={col}
          data-row={row}
          className={classes.join(" ")}
          style={style}
          title={shade ? `${shade.reportName} (${rangeText(shade.range)})` : undefined}
          // The cell's name is its address and its value is read as its description; the value
          // is drawn by CSS (`data-value`) so that the visible text does not contradict the name.
          aria-description={value || undefined}
          data-value={value || undefined}
        />,
      );
    }
    rows.push(<tr key={row}>{cells}</tr>);
  }

  const outline = {
    left: ROW_HEADER_WIDTH + (selection.left - 1) * COLUMN_WIDTH,
    top: ROW_HEIGHT + (selection.top - 1) * ROW_HEIGHT,
    width: (selection.right - selection.left + 1) * COLUMN_WIDTH,
    height: (selection.bottom - selection.top + 1) * ROW_HEIGHT,
  };

  return (
    <div className="wb-grid-scroll">
      <div className="wb-grid-wrap">
        <table
          ref={gridRef}
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a spreadsheet is the ARIA grid pattern, and a table is its markup (WAI-ARIA APG, "Data Grid")
          role="grid"
          aria-label={`${sheet.name} cells`}
          className="wb-grid"
          onMouseDown={onMouseDown}
          onMouseOver={onMouseOver}
          onContextMenu={onContextMenu}
          onKeyDown={onKeyDown}
          onFocus={() => setFocusWithin(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocusWithin(false);
          }}
        >
          <thead>
            <tr>{headerCells}</tr>
          </thead>
          <tbody>{rows}</tbody>
        </table>
        <div className="wb-selection-outline" style={outline} aria-hidden="true" />
      </div>
    </div>
  );
}
