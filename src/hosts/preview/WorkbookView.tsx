/**
 * The simulated workbook on the left of the preview page: title bar, sheet actions, name box and
 * formula bar, the grid (Grid.tsx), sheet tabs (SheetTabs.tsx) and a status bar. Placed ranges are
 * shaded from the reports the pane loaded last; the cell menu (ContextMenu.tsx) sends "Disconnect
 * report here" to the pane through the host.
 */
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { CellRef } from "../../core/location.js";
import { ContextMenu, type OpenMenu } from "./ContextMenu.js";
import { Grid } from "./Grid.js";
import type { PreviewHost } from "./host.js";
import { SheetTabs } from "./SheetTabs.js";
import { gridSize, type PreviewSheet, type PreviewWorkbook, rangeText, shadedRanges } from "./workbook.js";

export interface WorkbookViewProps {
  workbook: PreviewWorkbook;
  host: PreviewHost;
  /** Brings the sandbox and this workbook back to the demo (a fresh sandbox, then a reload). */
  onResetDemo?(): Promise<void>;
}

export function WorkbookView({ workbook, host, onResetDemo }: WorkbookViewProps) {
  const snapshot = useSyncExternalStore(workbook.subscribe, workbook.getSnapshot);
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const menuRef = useRef<OpenMenu | null>(null);
  menuRef.current = menu;

  const sheet = snapshot.sheets.find((s) => s.id === snapshot.activeSheetId) ?? snapshot.sheets[0]!;
  // Worked out again when the reports or the sheets change, not on every move of the selection.
  const { workbookId, reports, sheets } = snapshot;
  const shaded = useMemo(
    () => shadedRanges({ workbookId, reports, sheets }, sheet.id),
    [workbookId, reports, sheets, sheet.id],
  );
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

  const changeQueryHere = useCallback(async () => {
    const outcome = await host.changeQueryHere();
    workbook.setStatus({ tone: outcome.ok ? "info" : "error", text: outcome.message });
  }, [host, workbook]);

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
        items: [
          { label: "Disconnect report here", onSelect: () => void disconnectHere() },
          { label: "Change this report's query (sandbox)", onSelect: () => void changeQueryHere() },
        ],
      });
    },
    [disconnectHere, changeQueryHere],
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
        {/* Not a heading: the pane's header holds the page's one h1 (the same workbook name). */}
        <span className="wb-title">{snapshot.workbookName}</span>
        {/* The truth about the demo: the sandbox keeps what the pane did, this workbook does not. */}
        <span className="wb-saved" id="wb-demo-note">
          Preview · this workbook starts over when the page reloads; the sandbox keeps disconnects and
          refreshes until npm start restarts
        </span>
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
        {onResetDemo ? (
          <button
            type="button"
            className="wb-button"
            aria-describedby="wb-demo-note"
            onClick={() => {
              workbook.setStatus({ tone: "info", text: "Resetting the demo…" });
              onResetDemo().catch((error: unknown) =>
                workbook.setStatus({
                  tone: "error",
                  text: error instanceof Error ? error.message : "The demo could not be reset.",
                }),
              );
            }}
          >
            Reset demo
          </button>
        ) : null}
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
          size={gridSize(workbook.usedSize(sheet.id), shaded, snapshot.selection)}
          rangeSelections={snapshot.rangeSelections}
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
