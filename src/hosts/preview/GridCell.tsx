/**
 * One cell of the preview's grid (Grid.tsx): its address as its name, its value drawn from
 * `data-value` and read as its description, the placement's shading and border, and the input of an
 * edit in progress. And which rows and columns the virtualised grid draws (`including`, `slots`).
 */
import { defaultRangeExtractor, type Range } from "@tanstack/react-virtual";
import { type CSSProperties, memo } from "react";
import type { CellEditing } from "./useCellEdit.js";
import { rangeText, type ShadedRange } from "./workbook.js";

/** The indexes in view plus `always` (the active row or column), in order. */
export function including(range: Range, always: number): number[] {
  const indexes = defaultRangeExtractor(range);
  if (always < 0 || always >= range.count || indexes.includes(always)) return indexes;
  return [...indexes, always].sort((a, b) => a - b);
}

/** The drawn indexes with the gaps between them, in order: a gap is drawn as one spacer. */
export type Slot = { index: number } | { gap: number; key: string };

export function slots(indexes: readonly number[], count: number): Slot[] {
  const out: Slot[] = [];
  let next = 0;
  for (const index of indexes) {
    if (index > next) out.push({ gap: index - next, key: `gap-${next}` });
    out.push({ index });
    next = index + 1;
  }
  if (next < count) out.push({ gap: count - next, key: `gap-${next}` });
  return out;
}

export interface GridCellProps {
  col: number;
  row: number;
  address: string;
  value: string | undefined;
  shade: ShadedRange | undefined;
  selected: boolean;
  active: boolean;
  /** The edit in progress, when it is this cell's. */
  edit: CellEditing | null;
}

/**
 * Memoised: a move of the selection re-renders the grid, but only the cells whose selection, value
 * or shading changed render again (the others keep equal props: a shade is the same object while the
 * placements are unchanged).
 */
export const GridCell = memo(function GridCell({
  col,
  row,
  address,
  value,
  shade,
  selected,
  active,
  edit,
}: GridCellProps) {
  const classes = ["wb-cell"];
  let style: CSSProperties | undefined;
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
  if (edit) classes.push("wb-editing");
  if (value && shade && row === shade.range.top) classes.push("wb-header-value");
  else if (value && /^-?[\d,.]+$/.test(value)) classes.push("wb-number");
  return (
    <td
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the cells of the grid pattern (Grid.tsx)
      role="gridcell"
      aria-label={address}
      aria-selected={selected}
      aria-colindex={col + 1}
      tabIndex={active ? 0 : -1}
      data-cell={address}
      data-col={col}
      data-row={row}
      className={classes.join(" ")}
      style={style}
      title={shade ? `${shade.reportName} (${rangeText(shade.range)})` : undefined}
      // The cell's name is its address and its value is read as its description; the value is
      // drawn by CSS (`data-value`) so that the visible text does not contradict the name.
      aria-description={value || undefined}
      data-value={value || undefined}
    >
      {edit?.edit && (
        <input
          ref={edit.inputRef}
          className="wb-cell-input"
          aria-label={`Edit ${address}`}
          defaultValue={edit.edit.initial}
          onKeyDown={edit.onInputKeyDown}
          // Leaving the cell any other way (the pane, the toolbar) commits, as in Excel, and the
          // focus stays where it went.
          onBlur={() => edit.end(true, undefined, true)}
        />
      )}
    </td>
  );
});
