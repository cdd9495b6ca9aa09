/**
 * The long placement list (over VIRTUAL_ABOVE placements, PlacementList.tsx): one scrolling region,
 * sheet headings and placements as rows of one list, only those in view (and a few either side, so
 * Tab always has a next row) in the DOM. A chunk of its own with @tanstack/react-virtual, loaded
 * only when a list is that long: most workbooks' lists never need it, and the first screen's
 * script does without it.
 */
import { makeStyles, tokens } from "@fluentui/react-components";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, type RefObject, useEffect, useRef } from "react";
import type { GroupedPlacement, SheetGroup } from "../src/core/placement-view.js";
import type { VirtualRow } from "./PlacementItem.js";

export type Row =
  | { kind: "heading"; group: SheetGroup }
  | { kind: "placement"; group: SheetGroup; item: GroupedPlacement };

const useStyles = makeStyles({
  scroller: {
    maxHeight: "70vh",
    overflowY: "auto",
    overflowX: "hidden",
    overscrollBehavior: "contain",
  },
  virtualList: { position: "relative", listStyleType: "none", margin: 0, padding: 0, width: "100%" },
  virtualHeading: { paddingTop: tokens.spacingVerticalS },
});

export interface VirtualRowsProps {
  rows: readonly Row[];
  scrollToRow: RefObject<((index: number) => void) | null>;
  renderItem(group: SheetGroup, item: GroupedPlacement, row: VirtualRow): ReactNode;
  renderHeading(name: string): ReactNode;
  onRendered(): void;
}

export default function VirtualRows({
  rows,
  scrollToRow,
  renderItem,
  renderHeading,
  onRendered,
}: VirtualRowsProps) {
  const styles = useStyles();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.kind === "heading" ? 32 : 64),
    getItemKey: (i) => {
      const row = rows[i];
      if (!row) return i;
      return row.kind === "heading" ? `sheet:${row.group.sheetName}` : row.item.placement.key;
    },
    overscan: 6,
    gap: 4,
  });
  scrollToRow.current = (index) => virtualizer.scrollToIndex(index, { align: "auto" });
  useEffect(onRendered);
  const count = rows.length;
  return (
    <div ref={scroller} className={styles.scroller} data-placement-scroller="">
      <ul className={styles.virtualList} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          const place = { index: v.index, top: v.start, count, measure: virtualizer.measureElement };
          const at: VirtualRow = { ...place, props: virtualRowProps(place) };
          if (row.kind === "placement") return renderItem(row.group, row.item, at);
          return (
            <li key={v.key} className={styles.virtualHeading} {...at.props}>
              {renderHeading(row.group.sheetName)}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A virtual row's position, size measurement and place in the list (for screen readers). */
function virtualRowProps(virtual: Omit<VirtualRow, "props">) {
  return {
    ref: virtual.measure,
    "data-index": virtual.index,
    "aria-setsize": virtual.count,
    "aria-posinset": virtual.index + 1,
    style: {
      position: "absolute",
      top: 0,
      left: 0,
      width: "100%",
      transform: `translateY(${virtual.top}px)`,
    } as const,
  };
}
