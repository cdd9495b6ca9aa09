/**
 * The sheet tabs under the grid: a tablist (arrow keys, Home, End move between sheets; F2 renames;
 * Shift+F10 or the menu key opens the tab's menu) and the in-place rename field.
 */
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useRef, useState } from "react";
import type { PreviewSheet, PreviewWorkbook } from "./workbook.js";

export interface SheetTabsProps {
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

export function SheetTabs({
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
