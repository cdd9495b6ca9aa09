/**
 * One listed placement: name, range, sync status, last refresh, the sheet's note, its "…" menu and
 * the same report's placements in other workbooks (read-only). Rendered by `PlacementList`, plainly
 * or as a row of its virtualised list.
 */
import {
  Badge,
  type BadgeProps,
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  Text,
  tokens,
} from "@fluentui/react-components";
import { type ComponentType, lazy, memo, Suspense, useRef, useState } from "react";
import { revealInvisible } from "../src/core/display.js";
import {
  type GroupedPlacement,
  type PlacedReport,
  placementHostLabel,
  relativeTime,
  reportName,
  sheetNoteText,
  syncStatusLabel,
} from "../src/core/placement-view.js";
import { describePlacement, placementAnchor, placementEnd } from "../src/core/placements.js";
import type { EditNote } from "./editWatchHandle.js";
import { MoreIcon } from "./icons.js";
import type { RowStatus } from "./refreshRun.js";

/** At most two lines, then an ellipsis; a word longer than the line breaks rather than overflows. */
export const TWO_LINES = {
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  WebkitLineClamp: "2",
  overflow: "hidden",
  overflowWrap: "anywhere",
} as const;

/**
 * A placement's tooltip: every field on its own line (name; where, status, when refreshed; the
 * sheet's note), so a name or line cut short in a narrow pane can still be read whole.
 */
export function placementTooltip(fields: {
  name: string;
  where: string;
  status: string | null | undefined;
  refreshed: string | null;
  note?: string | null;
}): string {
  const refreshed = fields.refreshed ? ` · refreshed ${fields.refreshed}` : "";
  const lines = [fields.name, `${fields.where} · ${syncStatusLabel(fields.status)}${refreshed}`];
  if (fields.note) lines.push(fields.note);
  return lines.join("\n");
}

const useStyles = makeStyles({
  item: {
    position: "relative",
    display: "flex",
    flexDirection: "column",
    minWidth: 0,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow2,
  },
  current: {
    border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  row: { display: "flex", alignItems: "center", minWidth: 0, columnGap: tokens.spacingHorizontalXS },
  select: {
    flexGrow: 1,
    minWidth: 0,
    display: "flex",
    flexDirection: "column",
    alignItems: "flex-start",
    rowGap: tokens.spacingVerticalXXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    border: "none",
    background: "none",
    color: "inherit",
    font: "inherit",
    textAlign: "start",
    cursor: "pointer",
    borderRadius: tokens.borderRadiusMedium,
    ":hover": { backgroundColor: tokens.colorSubtleBackgroundHover },
    ":focus-visible": {
      outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
      outlineOffset: "-2px",
    },
  },
  nameLine: {
    display: "flex",
    alignItems: "flex-start",
    columnGap: tokens.spacingHorizontalS,
    width: "100%",
    minWidth: 0,
  },
  // Long names and meta lines wrap onto two lines at most (the row's tooltip has them whole).
  name: {
    flexGrow: 1,
    minWidth: 0,
    ...TWO_LINES,
    fontWeight: tokens.fontWeightSemibold,
  },
  badge: { flexShrink: 0 },
  meta: {
    width: "100%",
    ...TWO_LINES,
    color: tokens.colorNeutralForeground2,
  },
  note: {
    padding: `0 ${tokens.spacingHorizontalS} ${tokens.spacingVerticalXS}`,
    color: tokens.colorNeutralForeground3,
  },
  warningNote: { color: tokens.colorPaletteMarigoldForeground2 },

  menuButton: { flexShrink: 0, marginRight: tokens.spacingHorizontalXS },
  elsewhere: {
    listStyleType: "none",
    margin: 0,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS}`,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalXXS,
  },
  elsewhereItem: {
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
    color: tokens.colorNeutralForeground3,
  },
});
// The per-placement menu (and the positioning library under it): loaded when a menu is first opened
// (prefetched when the browser is idle after the first list: lazy.tsx).
const PlacementActions = lazy(() => import("./PlacementActions.js"));

const STATUS_COLORS: Record<string, BadgeProps["color"]> = {
  UP_TO_DATE: "success",
  CHANGED: "warning",
};

/** The badge of a sync status: its text from the core, its colour from the status it names. */
export function SyncBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  const label = syncStatusLabel(status);
  const color = (label !== "Unknown" && status && STATUS_COLORS[status]) || "informative";
  return (
    <Badge className={className} appearance="tint" color={color} shape="rounded">
      {label}
    </Badge>
  );
}

/** The range to select for a placement: anchor to end cell ("B2:F20"), or the anchor alone. */
function selectionRange(p: PlacedReport): string | null {
  const anchor = placementAnchor(p);
  if (!anchor) return null;
  const end = placementEnd(p);
  return end && end !== anchor ? `${anchor}:${end}` : anchor;
}

export interface SelectTarget {
  sheetId: string | null;
  sheetName: string;
  range: string;
}

/** Where a row of the virtualised list stands (absent in the plain list). */
export interface VirtualRow {
  index: number;
  /** Offset from the list's top, in px. */
  top: number;
  /** Rows in the whole list, headings included (aria-setsize). */
  count: number;
  /** The virtualiser's measuring ref: rows differ in height (wrapped names, notes, other workbooks). */
  measure(element: Element | null): void;
  /** The row element's attributes from the above (VirtualRows.tsx's `virtualRowProps`). */
  props: object;
}

export interface PlacementItemProps {
  item: GroupedPlacement;
  virtual?: VirtualRow | undefined;
  sheetId: string | null;
  sheetName: string;
  isCurrent: boolean;
  /** Whether the row's buttons are in the Tab order (the list's one stop: PlacementList). */
  tabStop?: boolean;
  busy: boolean;
  otherWorkbooks: readonly PlacedReport[];
  onSelect(target: SelectTarget): void;
  onDisconnect(placement: PlacedReport): void;
  /** Move here, offered on a placement that is Not found. */
  onMoveHere?: ((placement: PlacedReport) => void) | undefined;
  /** Where a refresh run stands for this placement, if it is in one. */
  refreshRow?: RowStatus | null;
  /** A refresh is running (of any placement): the menu's Refresh items wait for it to end. */
  refreshRunning?: boolean;
  onRefresh?: ((placement: PlacedReport, whole: "placement" | "report") => void) | undefined;
  /** Hand edits found in its cells (Edited, the rows, Locate), or why it cannot tell. */
  edit?: EditNote | null;
  /** How a note is shown (ReportsView's, loaded with the first note). */
  EditLine?: ComponentType<{ edit: EditNote; onSelect(target: SelectTarget): void }> | undefined;
}

/** Same props, a virtual row's position compared by value (the list makes a new object each render). */
function sameItemProps(a: PlacementItemProps, b: PlacementItemProps): boolean {
  for (const key of Object.keys(a) as (keyof PlacementItemProps)[]) {
    if (key !== "virtual" && a[key] !== b[key]) return false;
  }
  const [va, vb] = [a.virtual, b.virtual];
  if (!va || !vb) return va === vb;
  return va.index === vb.index && va.top === vb.top && va.count === vb.count && va.measure === vb.measure;
}

/**
 * Memoised: a selection change moves `current`, and only the two items whose `isCurrent` changed
 * render again (with 2,000 placements, re-rendering every item took over a second per move).
 */
export const PlacementItem = memo(function PlacementItem(props: PlacementItemProps) {
  const { item, sheetId, sheetName, isCurrent, busy, otherWorkbooks, onSelect, onDisconnect, virtual } =
    props;
  const { refreshRow, refreshRunning, onRefresh, onMoveHere, edit, EditLine } = props;
  const tabIndex = props.tabStop ? 0 : -1;
  const styles = useStyles();
  const p = item.placement;
  const name = reportName(p.report);
  // The sheet's name as it is now: a renamed sheet shows its new name (the note says the old one).
  const where = describePlacement(p, sheetName);
  const refreshed = relativeTime(p.refreshedAt);
  const range = selectionRange(p);
  const select = () => {
    if (range) onSelect({ sheetId, sheetName, range });
  };
  // The "…" button is the row's own, drawn and focusable from the first frame; the menu behind it
  // (Fluent's Menu, its positioning and motion) mounts only while it is open. A Menu per row cost
  // every row its mount (and a media query) in every render that added rows: a filter keystroke, a
  // scroll, the first paint.
  const menuButton = useRef<HTMLButtonElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const actionsLabel = `Actions for ${name} at ${where}`;

  return (
    <li
      className={mergeClasses(styles.item, isCurrent && styles.current)}
      aria-current={isCurrent ? "true" : undefined}
      data-placement-key={p.key}
      {...virtual?.props}
    >
      <div className={styles.row}>
        <button
          type="button"
          className={styles.select}
          data-placement-select=""
          tabIndex={tabIndex}
          onClick={select}
          title={placementTooltip({
            name,
            where,
            status: p.syncStatus,
            refreshed,
            note: item.note ? sheetNoteText(item.note) : null,
          })}
        >
          <span className={styles.nameLine}>
            <Text className={styles.name}>
              <bdi>{name}</bdi>
            </Text>
            <SyncBadge className={styles.badge} status={p.syncStatus} />
          </span>
          <Caption1 className={styles.meta} dir="auto">
            <bdi>{where}</bdi>
            {refreshed ? ` · refreshed ${refreshed}` : ""}
          </Caption1>
        </button>
        <Button
          ref={menuButton}
          className={styles.menuButton}
          appearance="subtle"
          size="small"
          icon={<MoreIcon />}
          aria-label={actionsLabel}
          aria-haspopup="menu"
          aria-expanded={menuOpen || undefined}
          title="Actions"
          tabIndex={tabIndex}
          onClick={() => setMenuOpen((open) => !open)}
          onKeyDown={(event) => {
            // As a menu button (Fluent's MenuTrigger): the down arrow opens the menu too.
            if (event.key !== "ArrowDown") return;
            event.preventDefault();
            setMenuOpen(true);
          }}
        />
        {menuOpen ? (
          <Suspense fallback={null}>
            <PlacementActions
              target={menuButton}
              canSelect={range !== null}
              busy={busy || (refreshRow != null && refreshRow.kind !== "not-refreshed")}
              onSelect={select}
              onDisconnect={() => onDisconnect(p)}
              onMoveHere={onMoveHere && item.note?.kind === "not-found" ? () => onMoveHere(p) : undefined}
              onRefresh={onRefresh ? (whole) => onRefresh(p, whole) : undefined}
              refreshRunning={refreshRunning === true}
              onClose={() => setMenuOpen(false)}
            />
          </Suspense>
        ) : null}
      </div>
      {refreshRow ? (
        <Caption1
          className={mergeClasses(styles.note, refreshRow.kind === "not-refreshed" && styles.warningNote)}
          data-refresh-status={refreshRow.kind}
        >
          {refreshRow.kind === "queued" ? "Queued" : refreshRow.text}
        </Caption1>
      ) : null}
      {edit && EditLine ? (
        <Suspense fallback={null}>
          <EditLine edit={edit} onSelect={onSelect} />
        </Suspense>
      ) : null}
      {item.note ? (
        <Caption1 className={mergeClasses(styles.note, item.note.kind !== "renamed" && styles.warningNote)}>
          {sheetNoteText(item.note)}
        </Caption1>
      ) : null}
      {otherWorkbooks.length > 0 ? (
        <ul className={styles.elsewhere} aria-label={`${name} in other workbooks`}>
          {otherWorkbooks.map((o) => {
            const host = placementHostLabel(o.host);
            const workbook = revealInvisible(o.workbookName || o.workbookId);
            const where = describePlacement(o);
            const text = `${workbook}${host ? ` (${host})` : ""} · ${where}`;
            return (
              <li key={o.key} className={styles.elsewhereItem} title={text}>
                <Caption1>
                  Also in <bdi>{workbook}</bdi>
                  {host ? ` (${host})` : ""} · <bdi>{where}</bdi>
                </Caption1>
              </li>
            );
          })}
        </ul>
      ) : null}
    </li>
  );
}, sameItemProps);
