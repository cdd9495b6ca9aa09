/**
 * This workbook's placements, grouped by sheet: name, range, sync status, last refresh, and the
 * same report's placements in other workbooks (read-only). The placement under the active cell is
 * marked `aria-current`. Clicking a placement selects its range in the workbook.
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
import { lazy, memo, Suspense, useEffect, useMemo, useState } from "react";
import { revealInvisible } from "../src/core/display.js";
import { describePlacement, placementAnchor, placementEnd } from "../src/core/placements.js";
import {
  type GroupedPlacement,
  groupBySheet,
  type PlacedReport,
  placementHostLabel,
  placementsElsewhereByReport,
  relativeTime,
  reportKey,
  reportName,
  sheetNoteText,
  syncStatusLabel,
} from "../src/core/workbook.js";
import type { SheetInfo } from "../src/hosts/host.js";
import { MoreIcon } from "./icons.js";

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
  groups: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalM },
  groupHeading: {
    margin: 0,
    marginBottom: tokens.spacingVerticalXS,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    fontWeight: tokens.fontWeightSemibold,
    color: tokens.colorNeutralForeground3,
    textTransform: "uppercase",
    letterSpacing: "0.04em",
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  },
  list: {
    listStyleType: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalXS,
  },
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

// The per-placement menu (and the positioning library under it) is not needed for the first paint.
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

interface PlacementListProps {
  here: readonly PlacedReport[];
  elsewhere: readonly PlacedReport[];
  sheets: readonly SheetInfo[];
  current: PlacedReport | null;
  busyKeys: ReadonlySet<string>;
  onSelect(target: SelectTarget): void;
  onDisconnect(placement: PlacedReport): void;
}

export const PlacementList = memo(function PlacementList(props: PlacementListProps) {
  const { here, elsewhere, sheets, current, busyKeys, onSelect, onDisconnect } = props;
  const styles = useStyles();
  const groups = useMemo(() => groupBySheet(here, sheets), [here, sheets]);
  // Fetch the menu's code as soon as the list shows, so it is there by the first click.
  useEffect(() => {
    void import("./PlacementActions.js");
  }, []);
  const others = useMemo(() => placementsElsewhereByReport(elsewhere), [elsewhere]);

  return (
    <div className={styles.groups}>
      {groups.map((group) => (
        <section key={group.sheetName} aria-label={`Sheet ${revealInvisible(group.sheetName)}`}>
          {/* Names come from the workbook and the service: isolated, hidden characters shown. */}
          <h3 className={styles.groupHeading} title={revealInvisible(group.sheetName)}>
            <bdi>{revealInvisible(group.sheetName)}</bdi>
          </h3>
          <ul className={styles.list}>
            {group.placements.map((item) => (
              <PlacementItem
                key={item.placement.key}
                item={item}
                sheetId={group.sheetId}
                sheetName={group.sheetName}
                isCurrent={current?.key === item.placement.key}
                busy={busyKeys.has(item.placement.key)}
                otherWorkbooks={others.get(reportKey(item.placement.report)) ?? NO_OTHER_WORKBOOKS}
                onSelect={onSelect}
                onDisconnect={onDisconnect}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
});

/** One empty list for every placement placed nowhere else, so `PlacementItem`'s memo holds. */
const NO_OTHER_WORKBOOKS: readonly PlacedReport[] = [];

interface PlacementItemProps {
  item: GroupedPlacement;
  sheetId: string | null;
  sheetName: string;
  isCurrent: boolean;
  busy: boolean;
  otherWorkbooks: readonly PlacedReport[];
  onSelect(target: SelectTarget): void;
  onDisconnect(placement: PlacedReport): void;
}

/**
 * Memoised: a selection change moves `current`, and only the two items whose `isCurrent` changed
 * render again (with 2,000 placements, re-rendering every item took over a second per move).
 */
const PlacementItem = memo(function PlacementItem(props: PlacementItemProps) {
  const { item, sheetId, sheetName, isCurrent, busy, otherWorkbooks, onSelect, onDisconnect } = props;
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
  const [menuOpen, setMenuOpen] = useState(false);
  const actionsLabel = `Actions for ${name} at ${where}`;

  return (
    <li
      className={mergeClasses(styles.item, isCurrent && styles.current)}
      aria-current={isCurrent ? "true" : undefined}
      data-placement-key={p.key}
    >
      <div className={styles.row}>
        <button
          type="button"
          className={styles.select}
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
        <Suspense
          fallback={
            <Button
              className={styles.menuButton}
              appearance="subtle"
              size="small"
              icon={<MoreIcon />}
              aria-label={actionsLabel}
              aria-haspopup="menu"
              title="Actions"
              onClick={() => setMenuOpen(true)}
            />
          }
        >
          <PlacementActions
            className={styles.menuButton}
            label={actionsLabel}
            canSelect={range !== null}
            busy={busy}
            onSelect={select}
            onDisconnect={() => onDisconnect(p)}
            open={menuOpen}
            onOpenChange={setMenuOpen}
          />
        </Suspense>
      </div>
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
});
