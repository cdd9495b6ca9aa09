/**
 * This workbook's placements, grouped by sheet: name, range, sync status, last refresh, and the
 * same report's placements in other workbooks (read-only). The placement under the active cell is
 * marked `aria-current`. Clicking a placement selects its range in the workbook.
 *
 * Up to VIRTUAL_ABOVE placements are rendered whole (tests and screen readers see every one); a
 * longer list scrolls in a region of its own and renders only the rows in view (VirtualRows.tsx,
 * loaded only for such a list), also while a filter shows fewer of them.
 * Either way the Up and Down arrows (Home, End) move between placements, and focus moves to a
 * neighbouring row when "Disconnect this placement" removes the one it was on.
 */
import { makeStyles, tokens } from "@fluentui/react-components";
import {
  type KeyboardEvent,
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { revealInvisible } from "../src/core/display.js";
import {
  type GroupedPlacement,
  groupBySheet,
  type PlacedReport,
  placementsElsewhereByReport,
  reportKey,
  type SheetGroup,
} from "../src/core/placement-view.js";
import type { SheetInfo } from "../src/hosts/host.js";
import type { EditNote } from "./editWatchHandle.js";
import {
  PlacementItem,
  type PlacementItemProps,
  type SelectTarget,
  type VirtualRow,
} from "./PlacementItem.js";
import type { RowStatus } from "./refreshRun.js";
import type { Row } from "./VirtualRows.js";

const VirtualRows = lazy(() => import("./VirtualRows.js"));

export { placementTooltip, type SelectTarget, SyncBadge, TWO_LINES } from "./PlacementItem.js";

/** Longer lists than this are virtualised. */
const VIRTUAL_ABOVE = 100;
/** Placements a long list shows plainly while the virtualiser loads: more than a pane's height. */
const FIRST_ROWS = 30;

/**
 * The list's sheet groups, kept per list of placements: clearing the filter shows the whole list's
 * groups again without sorting 2,000 placements anew.
 */
const groupsKept = new WeakMap<
  readonly PlacedReport[],
  { sheets: readonly SheetInfo[]; groups: SheetGroup[] }
>();
function groupsOf(here: readonly PlacedReport[], sheets: readonly SheetInfo[]): SheetGroup[] {
  const kept = groupsKept.get(here);
  if (kept && kept.sheets === sheets) return kept.groups;
  const groups = groupBySheet(here, sheets);
  groupsKept.set(here, { sheets, groups });
  return groups;
}

/**
 * Rows the list's first frame draws before it measures: fewer than any pane shows (a row is at least
 * about 60 px tall, and the pane's header and current cell come above the list).
 */
const FIRST_FRAME_GUESS = 4;

/**
 * How many rows fill the window from the list's top, measured on the `drawn` rows; null (all) when
 * the list is shorter, or without layout.
 */
function rowsThatFit(root: HTMLElement | null, drawn: number): number | null {
  const rows = root?.querySelectorAll("li[data-placement-key]") ?? [];
  const n = rows.length;
  // Fewer rows than asked for: the list is shorter, every row is drawn.
  if (n < drawn) return null;
  const { bottom } = rows[n - 1]!.getBoundingClientRect();
  const perRow = (bottom - rows[0]!.getBoundingClientRect().top) / n;
  return perRow > 0 ? drawn + Math.max(0, Math.ceil((innerHeight - bottom) / perRow)) : null;
}

/** The first `n` placements, in their sheets' groups. */
function firstGroups(groups: readonly SheetGroup[], n: number): SheetGroup[] {
  const out: SheetGroup[] = [];
  let left = n;
  for (const group of groups) {
    if (left <= 0) break;
    const placements = group.placements.slice(0, left);
    left -= placements.length;
    out.push({ ...group, placements });
  }
  return out;
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
});

/**
 * The placements' keys in the order shown and each one's row, worked out when first asked: a list
 * of 20,000 is first drawn without them (nothing is current or focused yet), not after them.
 */
export function orderOf(rows: readonly Row[]): {
  keys: string[];
  rowOf: Map<string, number>;
  first?: string;
} {
  let built: { keys: string[]; rowOf: Map<string, number> } | undefined;
  const build = () => {
    if (!built) {
      built = { keys: [], rowOf: new Map() };
      for (const [i, row] of rows.entries()) {
        if (row.kind !== "placement") continue;
        built.keys.push(row.item.placement.key);
        built.rowOf.set(row.item.placement.key, i);
      }
    }
    return built;
  };
  const first = rows.find((row) => row.kind === "placement");
  return {
    get keys() {
      return build().keys;
    },
    get rowOf() {
      return build().rowOf;
    },
    first: first?.kind === "placement" ? first.item.placement.key : undefined,
  };
}

function rowsOf(groups: readonly SheetGroup[]): Row[] {
  const rows: Row[] = [];
  for (const group of groups) {
    rows.push({ kind: "heading", group });
    for (const item of group.placements) rows.push({ kind: "placement", group, item });
  }
  return rows;
}

interface PlacementListProps {
  here: readonly PlacedReport[];
  elsewhere: readonly PlacedReport[];
  sheets: readonly SheetInfo[];
  current: PlacedReport | null;
  busyKeys: ReadonlySet<string>;
  onSelect(target: SelectTarget): void;
  onDisconnect(placement: PlacedReport): void;
  /** Move here on a placement that is Not found. */
  onMoveHere?: ((placement: PlacedReport) => void) | undefined;
  /** A refresh's state of each placement in it (Queued, Refreshing…, Not refreshed: why). */
  refreshRows?: ReadonlyMap<string, RowStatus>;
  /** A refresh is running: no row's menu starts another until it ends. */
  refreshRunning?: boolean;
  /** Refresh and Refresh report from a row's menu; absent where the host cannot refresh. */
  onRefresh?: ((placement: PlacedReport, whole: "placement" | "report") => void) | undefined;
  /** Hand edits found (Edited, rows, Locate), by placement key, and how a note is shown. */
  edits?: ReadonlyMap<string, EditNote>;
  EditLine?: PlacementItemProps["EditLine"];
  /**
   * How many placements the whole list has when `here` is a filter's result: a long list stays
   * virtualised while it is filtered (the same scrolling region, only the rows in view rendered).
   */
  unfilteredLength?: number;
}

/** Whether keyboard focus is nowhere useful (on the body, or on an element just removed). */
function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

export const PlacementList = memo(function PlacementList(props: PlacementListProps) {
  const { here, elsewhere, sheets, current, busyKeys, onSelect, onDisconnect, refreshRows, onRefresh } =
    props;
  const { onMoveHere, edits, EditLine, refreshRunning } = props;
  const styles = useStyles();
  const groups = useMemo(() => groupsOf(here, sheets), [here, sheets]);
  const rows = useMemo(() => rowsOf(groups), [groups]);
  /** Placement keys in the order shown, and each one's row: worked out when first asked (orderOf). */
  const order = useMemo(() => orderOf(rows), [rows]);
  const others = useMemo(() => placementsElsewhereByReport(elsewhere), [elsewhere]);
  const virtual = Math.max(here.length, props.unfilteredLength ?? 0) > VIRTUAL_ABOVE;

  const rootRef = useRef<HTMLDivElement>(null);
  const scrollToRow = useRef<((index: number) => void) | null>(null);
  const pendingFocus = useRef<string | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);

  /** Focuses a placement's row, scrolling a virtualised list to it first. */
  const focusPlacement = useCallback(
    (key: string) => {
      pendingFocus.current = key;
      const index = order.rowOf.get(key);
      if (index !== undefined) scrollToRow.current?.(index);
      rerender();
    },
    [order],
  );
  // After every render of the list, or of its virtual rows (they render on their own as it scrolls).
  const applyPendingFocus = useCallback(() => {
    const key = pendingFocus.current;
    if (!key || !rootRef.current) return;
    const row = [...rootRef.current.querySelectorAll<HTMLElement>("li[data-placement-key]")].find(
      (li) => li.dataset.placementKey === key,
    );
    const button = row?.querySelector<HTMLElement>("[data-placement-select]");
    if (!button) return; // not rendered yet: the virtualiser renders it after the scroll
    pendingFocus.current = null;
    button.focus();
  }, []);
  useEffect(applyPendingFocus);

  // The first frame draws the rows that fit the pane, the rest right after it is painted: a pane
  // opened on a list longer than its height shows its first rows sooner. `shown`: how many rows are
  // drawn, null for all.
  const [shown, setShown] = useState<number | null>(virtual ? null : FIRST_FRAME_GUESS);
  useLayoutEffect(() => {
    if (shown !== null) setShown(rowsThatFit(rootRef.current, shown));
  });
  useEffect(() => {
    // The rest after the first paint: a task queued from the frame's callback runs after it.
    const frame = requestAnimationFrame(() => setTimeout(setShown, 0, null));
    return () => cancelAnimationFrame(frame);
  }, []);

  // One Tab stop for the list (a roving tab index, as in Fluent's and Office's lists): only the
  // stop row's placement and "…" menu are in the Tab order; the arrow keys move between rows. The
  // stop is the row an arrow key moved to or a Tab key left (set on the key, before the browser
  // moves focus), else the current placement, else the first. Not set on focus: a press focuses on
  // mousedown, and a render of the list between a press and its click is work for nothing.
  const [stopAt, setStopAt] = useState<string | null>(null);
  const stopKey = [stopAt, current?.key].find((k) => k != null && order.rowOf.has(k)) ?? order.first;

  // A long list filtered (or loaded again) keeps the current placement in view.
  const currentKey = current?.key;
  useEffect(() => {
    const index = currentKey === undefined ? undefined : order.rowOf.get(currentKey);
    if (index !== undefined) scrollToRow.current?.(index);
  }, [order, currentKey]);

  // "Disconnect this placement" from the menu: once its row is gone, focus its neighbour.
  const removal = useRef<{ key: string; keys: readonly string[] } | null>(null);
  const onMenuDisconnect = useCallback(
    (p: PlacedReport) => {
      removal.current = { key: p.key, keys: order.keys };
      onDisconnect(p);
    },
    [onDisconnect, order],
  );
  useEffect(() => {
    const r = removal.current;
    if (!r) return;
    if (order.rowOf.has(r.key)) {
      if (!busyKeys.has(r.key)) removal.current = null; // refused or failed: the row stays
      return;
    }
    removal.current = null;
    if (!focusLost()) return;
    const at = r.keys.indexOf(r.key);
    const next =
      r.keys.slice(at + 1).find((k) => order.rowOf.has(k)) ??
      r.keys
        .slice(0, Math.max(at, 0))
        .reverse()
        .find((k) => order.rowOf.has(k));
    if (next) focusPlacement(next);
  }, [order, busyKeys, focusPlacement]);
  // The last placement gone: the pane shows its empty state instead of this list; focus the
  // section's heading.
  const section = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    section.current = rootRef.current?.closest("section") ?? null;
  }, []);
  useEffect(
    () => () => {
      const target = section.current;
      if (!removal.current || !target) return;
      setTimeout(() => {
        if (!target.isConnected || !focusLost()) return;
        const heading = target.querySelector<HTMLElement>("h2") ?? target;
        if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
        heading.focus();
      }, 0);
    },
    [],
  );

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>) => {
      const target = event.target as HTMLElement;
      const key = target.closest<HTMLElement>("li[data-placement-key]")?.dataset.placementKey;
      if (key && event.key === "Tab") setStopAt(key);
      if (!key || !target.hasAttribute("data-placement-select")) return;
      const at = order.keys.indexOf(key);
      const to =
        event.key === "ArrowDown"
          ? at + 1
          : event.key === "ArrowUp"
            ? at - 1
            : event.key === "Home"
              ? 0
              : event.key === "End"
                ? order.keys.length - 1
                : -1;
      const next = order.keys[to];
      if (to < 0 || next === undefined) return;
      event.preventDefault();
      setStopAt(next);
      focusPlacement(next);
    },
    [order, focusPlacement],
  );

  const renderItem = (group: SheetGroup, item: GroupedPlacement, row?: VirtualRow) => (
    <PlacementItem
      key={item.placement.key}
      item={item}
      virtual={row}
      sheetId={group.sheetId}
      sheetName={group.sheetName}
      isCurrent={current?.key === item.placement.key}
      tabStop={stopKey === item.placement.key}
      busy={busyKeys.has(item.placement.key)}
      otherWorkbooks={others.get(reportKey(item.placement.report)) ?? NO_OTHER_WORKBOOKS}
      onSelect={onSelect}
      onDisconnect={onMenuDisconnect}
      onMoveHere={onMoveHere}
      refreshRow={refreshRows?.get(item.placement.key) ?? null}
      refreshRunning={refreshRunning === true}
      onRefresh={onRefresh}
      edit={edits?.get(item.placement.key) ?? null}
      EditLine={EditLine}
    />
  );

  const renderHeading = (name: string) => <SheetHeading name={name} />;

  const plainGroup = (group: SheetGroup) => (
    <section key={group.sheetName} aria-label={`Sheet ${revealInvisible(group.sheetName)}`}>
      <SheetHeading name={group.sheetName} />
      <ul className={styles.list}>{group.placements.map((item) => renderItem(group, item))}</ul>
    </section>
  );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys on the rows' buttons, delegated
    <div ref={rootRef} className={virtual ? undefined : styles.groups} onKeyDown={onKeyDown}>
      {virtual ? (
        // Until the virtualiser's code has loaded (once, a moment), the first rows show as a plain
        // list: the first paint does not wait for a chunk, and nothing jumps when it takes over.
        <Suspense
          fallback={<div className={styles.groups}>{firstGroups(groups, FIRST_ROWS).map(plainGroup)}</div>}
        >
          <VirtualRows
            rows={rows}
            scrollToRow={scrollToRow}
            renderItem={renderItem}
            renderHeading={renderHeading}
            onRendered={applyPendingFocus}
          />
        </Suspense>
      ) : (
        (shown === null ? groups : firstGroups(groups, shown)).map(plainGroup)
      )}
    </div>
  );
});

function SheetHeading({ name }: { name: string }) {
  const styles = useStyles();
  // Names come from the workbook and the service: isolated, hidden characters shown.
  return (
    <h3 className={styles.groupHeading} title={revealInvisible(name)}>
      <bdi>{revealInvisible(name)}</bdi>
    </h3>
  );
}

/** One empty list for every placement placed nowhere else, so `PlacementItem`'s memo holds. */
const NO_OTHER_WORKBOOKS: readonly PlacedReport[] = [];
