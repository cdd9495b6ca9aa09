/**
 * The simulated workbook on the left of the preview page: title bar, sheet actions, name box and
 * formula bar, the grid, sheet tabs and a status bar. Placed ranges are shaded from the reports the
 * pane loaded last; the cell menu sends "Disconnect report here" to the pane through the host.
 */
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { type CellRange, type CellRef, formatCell, parseCell, rangeContains } from "../../core/location.js";
import type { PreviewHost } from "./host.js";
import {
  COLUMN_NAMES,
  GRID_ROWS,
  type PreviewSheet,
  type PreviewWorkbook,
  type ShadedRange,
  shadedRanges,
  shadingAt,
} from "./workbook.js";

/** Cell geometry in px (kept in step with preview.css). */
const COLUMN_WIDTH = 76;
const ROW_HEIGHT = 24;
const ROW_HEADER_WIDTH = 44;

interface MenuItem {
  label: string;
  onSelect: () => void;
}

interface OpenMenu {
  label: string;
  x: number;
  y: number;
  items: MenuItem[];
  /** Where focus goes back to when the menu closes. */
  returnFocus: HTMLElement | null;
}

function rangeText(range: CellRange): string {
  const start = formatCell({ col: range.left, row: range.top });
  const end = formatCell({ col: range.right, row: range.bottom });
  return start === end ? start : `${start}:${end}`;
}

function ContextMenu({ menu, onClose }: { menu: OpenMenu; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState({ left: menu.x, top: menu.y });

  // Keep the menu inside the window, then focus its first item.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width, height } = el.getBoundingClientRect();
    setPosition({
      left: Math.max(4, Math.min(menu.x, window.innerWidth - width - 4)),
      top: Math.max(4, Math.min(menu.y, window.innerHeight - height - 4)),
    });
    el.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [menu]);

  useEffect(() => {
    const away = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) onClose();
    };
    const blur = () => onClose();
    document.addEventListener("mousedown", away, true);
    window.addEventListener("blur", blur);
    window.addEventListener("resize", blur);
    return () => {
      document.removeEventListener("mousedown", away, true);
      window.removeEventListener("blur", blur);
      window.removeEventListener("resize", blur);
    };
  }, [onClose]);

  const onKeyDown = (event: ReactKeyboardEvent) => {
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      (event.key === "Home" ? items[0] : items[items.length - 1])?.focus();
    }
  };

  return (
    <div
      ref={ref}
      role="menu"
      aria-label={menu.label}
      className="wb-menu"
      style={{ left: position.left, top: position.top }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {menu.items.map((item) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className="wb-menu-item"
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

interface GridProps {
  sheet: PreviewSheet;
  activeCell: string;
  selection: CellRange;
  values: ReadonlyMap<string, string> | undefined;
  shaded: readonly ShadedRange[];
  workbook: PreviewWorkbook;
  onCellMenu: (cell: CellRef, x: number, y: number, from: HTMLElement) => void;
}

function Grid({ sheet, activeCell, selection, values, shaded, workbook, onCellMenu }: GridProps) {
  const gridRef = useRef<HTMLTableElement>(null);
  const [focusWithin, setFocusWithin] = useState(false);

  // Focus follows the active cell while the grid has focus (roving tabindex).
  useEffect(() => {
    if (!focusWithin) return;
    const cell = gridRef.current?.querySelector<HTMLElement>(`[data-cell="${activeCell}"]`);
    if (cell && document.activeElement !== cell) cell.focus({ preventScroll: false });
  }, [activeCell, focusWithin]);

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
      const shade = shadingAt(shaded, { col, row });
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

interface SheetTabsProps {
  sheets: readonly PreviewSheet[];
  activeSheetId: string;
  renaming: string | null;
  workbook: PreviewWorkbook;
  onRenameDone: () => void;
  onTabMenu: (sheet: PreviewSheet, x: number, y: number, from: HTMLElement) => void;
  onStartRename: (sheetId: string) => void;
}

function RenameInput({
  sheet,
  workbook,
  onDone,
}: {
  sheet: PreviewSheet;
  workbook: PreviewWorkbook;
  onDone: () => void;
}) {
  const [value, setValue] = useState(sheet.name);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const commit = () => {
    const problem = workbook.renameSheet(sheet.id, value);
    if (problem) {
      workbook.setStatus({ tone: "error", text: problem });
      ref.current?.focus();
      return;
    }
    onDone();
  };
  return (
    <input
      ref={ref}
      className="wb-tab-input"
      aria-label={`New name for sheet ${sheet.name}`}
      value={value}
      size={Math.max(6, value.length + 1)}
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          commit();
        } else if (event.key === "Escape") {
          event.preventDefault();
          onDone();
        }
      }}
      onBlur={() => {
        // Leaving the field keeps a valid name and drops an invalid one, as Excel does.
        if (workbook.renameSheet(sheet.id, value)) workbook.setStatus(null);
        onDone();
      }}
    />
  );
}

function SheetTabs({
  sheets,
  activeSheetId,
  renaming,
  workbook,
  onRenameDone,
  onTabMenu,
  onStartRename,
}: SheetTabsProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: ReactKeyboardEvent) => {
    const index = sheets.findIndex((s) => s.id === activeSheetId);
    let next = -1;
    if (event.key === "ArrowRight") next = (index + 1) % sheets.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + sheets.length) % sheets.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = sheets.length - 1;
    else if (event.key === "F2") {
      event.preventDefault();
      onStartRename(activeSheetId);
      return;
    } else if (event.key === "ContextMenu" || (event.key === "F10" && event.shiftKey)) {
      event.preventDefault();
      const sheet = sheets[index];
      const target = event.target as HTMLElement;
      const box = target.getBoundingClientRect();
      if (sheet) onTabMenu(sheet, box.left, box.top, target);
      return;
    }
    const sheet = sheets[next];
    if (!sheet) return;
    event.preventDefault();
    workbook.activateSheet(sheet.id);
    requestAnimationFrame(() =>
      listRef.current?.querySelector<HTMLElement>(`[data-sheet-id="${CSS.escape(sheet.id)}"]`)?.focus(),
    );
  };

  return (
    <div className="wb-tabs-bar">
      <div ref={listRef} role="tablist" aria-label="Sheets" className="wb-tabs" onKeyDown={onKeyDown}>
        {sheets.map((sheet) => {
          const active = sheet.id === activeSheetId;
          if (renaming === sheet.id) {
            return <RenameInput key={sheet.id} sheet={sheet} workbook={workbook} onDone={onRenameDone} />;
          }
          return (
            <button
              key={sheet.id}
              type="button"
              role="tab"
              id={`wb-tab-${sheets.indexOf(sheet)}`}
              aria-selected={active}
              aria-controls="wb-sheet-panel"
              tabIndex={active ? 0 : -1}
              data-sheet-id={sheet.id}
              className={active ? "wb-tab wb-tab-active" : "wb-tab"}
              title={`Sheet id ${sheet.id}`}
              onClick={() => workbook.activateSheet(sheet.id)}
              onDoubleClick={() => onStartRename(sheet.id)}
              onContextMenu={(event) => {
                event.preventDefault();
                workbook.activateSheet(sheet.id);
                onTabMenu(sheet, event.clientX, event.clientY, event.currentTarget);
              }}
            >
              {sheet.name}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export interface WorkbookViewProps {
  workbook: PreviewWorkbook;
  host: PreviewHost;
}

export function WorkbookView({ workbook, host }: WorkbookViewProps) {
  const snapshot = useSyncExternalStore(workbook.subscribe, workbook.getSnapshot);
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const menuRef = useRef<OpenMenu | null>(null);
  menuRef.current = menu;

  const sheet = snapshot.sheets.find((s) => s.id === snapshot.activeSheetId) ?? snapshot.sheets[0]!;
  const shaded = useMemo(() => shadedRanges(snapshot, sheet.id), [snapshot, sheet.id]);
  const activeIndex = snapshot.sheets.indexOf(sheet);

  const closeMenu = useCallback(() => {
    const open = menuRef.current;
    setMenu(null);
    open?.returnFocus?.focus({ preventScroll: true });
  }, []);

  const disconnectHere = useCallback(async () => {
    const where = `${sheet.name}!${workbook.getSnapshot().activeCell}`;
    workbook.setStatus({ tone: "info", text: `Disconnecting the report at ${where}…` });
    const outcome = await host.disconnectHere();
    workbook.setStatus({ tone: outcome.ok ? "success" : "error", text: outcome.message });
  }, [host, workbook, sheet.name]);

  const recreate = useCallback(
    (sheetId: string) => {
      workbook.recreateSheet(sheetId);
    },
    [workbook],
  );

  const onCellMenu = useCallback(
    (_cell: CellRef, x: number, y: number, from: HTMLElement) => {
      setMenu({
        label: "Cell",
        x,
        y,
        returnFocus: from,
        items: [{ label: "Disconnect report here", onSelect: () => void disconnectHere() }],
      });
    },
    [disconnectHere],
  );

  const onTabMenu = useCallback(
    (target: PreviewSheet, x: number, y: number, from: HTMLElement) => {
      setMenu({
        label: `Sheet ${target.name}`,
        x,
        y,
        returnFocus: from,
        items: [
          { label: "Rename sheet…", onSelect: () => setRenaming(target.id) },
          { label: "Delete and recreate tab", onSelect: () => recreate(target.id) },
        ],
      });
    },
    [recreate],
  );

  const activeValue = snapshot.values.get(sheet.id)?.get(snapshot.activeCell) ?? "";
  const selectionText = rangeText(snapshot.selection);
  const dark = snapshot.theme === "dark";

  return (
    <div className="wb" data-theme={snapshot.theme}>
      <header className="wb-titlebar">
        <span className="wb-app-icon" aria-hidden="true">
          <svg viewBox="0 0 16 16" width="16" height="16" role="presentation">
            <rect x="1" y="1" width="14" height="14" rx="2" fill="currentColor" opacity="0.18" />
            <path d="M1 6h14M1 11h14M6 1v14M11 1v14" stroke="currentColor" strokeWidth="1" fill="none" />
          </svg>
        </span>
        <h1 className="wb-title">{snapshot.workbookName}</h1>
        <span className="wb-saved">Preview · saved on this computer</span>
        <button
          type="button"
          className="wb-button wb-theme-toggle"
          aria-pressed={dark}
          onClick={() => workbook.setTheme(dark ? "light" : "dark")}
        >
          Dark theme
        </button>
      </header>

      <div className="wb-toolbar" role="toolbar" aria-label="Sheet">
        <button type="button" className="wb-button" onClick={() => setRenaming(sheet.id)}>
          Rename sheet…
        </button>
        <button type="button" className="wb-button" onClick={() => recreate(sheet.id)}>
          Delete and recreate tab
        </button>
      </div>

      <div className="wb-formula-bar">
        <input className="wb-name-box" aria-label="Name box" readOnly value={selectionText} />
        <span className="wb-fx" aria-hidden="true">
          fx
        </span>
        <input className="wb-formula" aria-label="Cell contents" readOnly value={activeValue} />
      </div>

      <div
        id="wb-sheet-panel"
        role="tabpanel"
        aria-labelledby={`wb-tab-${activeIndex}`}
        className="wb-sheet-panel"
      >
        <Grid
          sheet={sheet}
          activeCell={snapshot.activeCell}
          selection={snapshot.selection}
          values={snapshot.values.get(sheet.id)}
          shaded={shaded}
          workbook={workbook}
          onCellMenu={onCellMenu}
        />
      </div>

      <SheetTabs
        sheets={snapshot.sheets}
        activeSheetId={sheet.id}
        renaming={renaming}
        workbook={workbook}
        onRenameDone={() => setRenaming(null)}
        onTabMenu={onTabMenu}
        onStartRename={setRenaming}
      />

      <footer className="wb-statusbar">
        <div
          role="status"
          aria-live="polite"
          className={`wb-status wb-status-${snapshot.status?.tone ?? "info"}`}
        >
          {snapshot.status?.text ?? "Ready"}
        </div>
        <div className="wb-sheet-id">
          {shaded.length === 1 ? "1 placed report" : `${shaded.length} placed reports`} on this sheet · sheet
          id <code>{sheet.id}</code>
        </div>
      </footer>

      {menu && <ContextMenu menu={menu} onClose={closeMenu} />}
    </div>
  );
}
