/**
 * The task pane: one app for every host. A compact header (the workbook, Reload list, Settings) over two
 * views as tabs: "Reports" (the active cell with `Disconnect report here`, this workbook's placements
 * by sheet) and "Ask" (the agent chat, loaded lazily). Outcomes show as messages at the top of the
 * pane's main area. Settings come first until a tenant URL and an API key are set.
 */
import {
  Button,
  Caption1,
  makeStyles,
  mergeClasses,
  PortalMountNodeProvider,
  Subtitle2,
  Text,
  tokens,
  useId,
} from "@fluentui/react-components";
import { lazy, type RefObject, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { describePlacement, revealInvisible } from "../src/core/display.js";
import { formatLocation, normalizeCell } from "../src/core/location.js";
import {
  locatePlacement,
  type PlacedReport,
  relativeTime,
  reportName,
  sheetNoteText,
} from "../src/core/placement-view.js";
import type { ActiveContext, PublicSettings, SpreadsheetHost } from "../src/hosts/host.js";
import { PaneErrorBoundary } from "./ErrorBoundary.js";
import { createEditNotes } from "./editWatchHandle.js";
import { errorMessage, type SettingsField } from "./errorMessage.js";
import { FocusRescueBox } from "./focusRescue.js";
import { DisconnectIcon, ReloadIcon, SettingsIcon } from "./icons.js";
// Shown only now and then: loaded apart from the first script (lazy.tsx).
import { Spinner, usePrefetchWhenShown } from "./lazy.js";
import { PaneMessages, usePaneMessages } from "./PaneMessages.js";
import { PaneTabs, type PaneView, panelId, tabId } from "./PaneTabs.js";
import { placementTooltip, type SelectTarget, SyncBadge, TWO_LINES } from "./PlacementList.js";
import { useRefreshRun } from "./RefreshControls.js";
import { RefreshingStatus } from "./RefreshingStatus.js";
import { ReportsView } from "./ReportsView.js";
import { LoadingRows } from "./RetryBar.js";
import { createRefreshHandle } from "./refreshHandle.js";
import type { RefreshRun } from "./refreshRun.js";
import { COMPOSER_HEIGHT, HEADER_SCROLL_MARGIN, useStickyHeaderHeight } from "./stickyHeader.js";
import { isConnected, type Notice, type PaneState, usePaneState } from "./usePaneState.js";

// Not needed for the first screen: the chat (and markdown), and Settings (its form controls).
const AgentChat = lazy(() => import("./AgentChat.js"));
const SettingsPanel = lazy(() => import("./SettingsPanel.js"));
// "Place a report here": its picker loads when the button is first pressed.
const PlacePicker = lazy(() => import("./placeParts.js").then((m) => ({ default: m.PlacePicker })));
const HandEditsWatch = lazy(() => import("./placeParts.js").then((m) => ({ default: m.HandEditsWatch })));

/** The pinned question box's height, kept on the chat section for its turns' scroll margin. */

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    minHeight: "100%",
    minWidth: 0,
    // Clip, not hide: a hidden overflow would make this box the scroller that the sticky header and
    // the pinned question box stick to, and it never scrolls.
    overflowX: "clip",
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
  },
  header: {
    position: "sticky",
    top: 0,
    zIndex: 1,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  titleRow: {
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
  },
  titleBlock: { display: "flex", flexDirection: "column", flexGrow: 1, minWidth: 0 },
  title: {
    margin: 0,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    fontWeight: tokens.fontWeightSemibold,
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  },
  subtitle: { color: tokens.colorNeutralForeground3 },
  main: {
    display: "flex",
    flexDirection: "column",
    flexGrow: 1,
    padding: tokens.spacingHorizontalM,
    minWidth: 0,
    // What the keyboard focuses scrolls into view below the sticky header, not under it.
    "& *": { scrollMarginTop: HEADER_SCROLL_MARGIN },
  },
  view: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalL, minWidth: 0 },
  // A hidden view is not drawn (the class's display would otherwise win over `hidden`).
  hidden: { display: "none" },
  // The Ask view fills the pane; the question box stays pinned at its bottom while the
  // conversation scrolls above it.
  askView: { flexGrow: 1 },
  chat: {
    flexGrow: 1,
    "& > div": { flexGrow: 1 },
    "& form": {
      marginTop: "auto",
      position: "sticky",
      bottom: 0,
      zIndex: 1,
      padding: `${tokens.spacingVerticalS} 0 ${tokens.spacingVerticalM}`,
      backgroundColor: tokens.colorNeutralBackground2,
      boxShadow: `0 -${tokens.strokeWidthThin} 0 ${tokens.colorNeutralStroke2}`,
    },
    // A turn scrolled into view stops above the pinned question box, not under it.
    "& [aria-label='Conversation'] > *": { scrollMarginBottom: `var(${COMPOSER_HEIGHT}, 160px)` },
  },
  section: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS, minWidth: 0 },
  sectionHeading: {
    margin: 0,
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalS,
  },
  card: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow2,
    minWidth: 0,
    ":focus-visible": { outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}` },
  },
  cellLine: { display: "flex", alignItems: "baseline", columnGap: tokens.spacingHorizontalS, minWidth: 0 },
  cellActions: { display: "flex", flexWrap: "wrap", gap: tokens.spacingHorizontalS },
  cellLabel: { color: tokens.colorNeutralForeground3, flexShrink: 0 },
  cellValue: {
    overflow: "hidden",
    textOverflow: "ellipsis",
    whiteSpace: "nowrap",
  },
  currentLine: {
    display: "flex",
    alignItems: "flex-start",
    columnGap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  currentText: { display: "flex", flexDirection: "column", flexGrow: 1, minWidth: 0 },
  twoLines: TWO_LINES,
  currentBadge: { flexShrink: 0 },
  hint: { color: tokens.colorNeutralForeground3 },
});

export function App({ host }: { host: SpreadsheetHost }) {
  return (
    <PaneErrorBoundary>
      <Pane host={host} />
    </PaneErrorBoundary>
  );
}

function Pane({ host }: { host: SpreadsheetHost }) {
  const styles = useStyles();
  const { messages, notify, dismiss } = usePaneMessages();
  const state = usePaneState(host, notify);
  // One refresh run for the pane's life: it survives switching views (refreshRun.ts).
  const live = useRef(state);
  live.current = state;
  // Hand edits (HandEditsWatch.tsx): compared where the host reads cells back.
  const [edits] = useState(() => (host.readCells ? createEditNotes() : null));
  const [run] = useState(() =>
    host.refreshPlacements
      ? createRefreshHandle({
          host,
          workbook: () => live.current.liveWorkbook(),
          onReport: (report, epoch) => live.current.applyReport(report, epoch),
          notify,
          edits: () => edits?.getSnapshot() ?? new Map(),
        })
      : undefined,
  );
  usePrefetchWhenShown(state.phase !== "loading");
  // The host's right-click "Disconnect report here" is offered over a placement only; until the
  // list is known (or when it cannot load) it stays, and says what is wrong when used.
  const disconnectHere = state.phase !== "ready" || state.current != null;
  useEffect(() => host.offerCellCommands?.({ disconnectHere }), [host, disconnectHere]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [focusField, setFocusField] = useState<SettingsField | undefined>(undefined);
  // The failure an "Open settings" action fixes: shown at its field, not only in the message.
  const [focusMessage, setFocusMessage] = useState<string | undefined>(undefined);
  const [view, setView] = useState<PaneView>("reports");
  const firstRun = state.phase === "needs-settings";
  const showSettings = settingsOpen || firstRun;
  const settingsButton = useRef<HTMLButtonElement>(null);
  const refreshButton = useRef<HTMLButtonElement>(null);
  const cellCard = useRef<HTMLDivElement>(null);
  const header = useStickyHeaderHeight<HTMLElement>();
  // Menus and tooltips open inside the main landmark, not at the end of the page's body.
  const [mainNode, setMainNode] = useState<HTMLElement | null>(null);

  /** "Open settings" from a message: Settings opens with focus in the failing field. */
  const openSettings = useCallback((field?: SettingsField, message?: string) => {
    // The action is hidden with its view: focus waits on the Settings button meanwhile.
    settingsButton.current?.focus();
    setFocusField(field);
    setFocusMessage(field ? message : undefined);
    setSettingsOpen(true);
  }, []);

  const onSaved = useCallback(
    (next: PublicSettings) => {
      state.applySettings(next);
      // Stay to pick a deployment once the tenant and key are in; otherwise back to the list.
      setSettingsOpen(isConnected(next) && next.deploymentId == null);
    },
    [state.applySettings],
  );

  const onSelect = useCallback(
    (target: SelectTarget) => {
      host
        .selectRange(target)
        .catch((error: unknown) => notify({ intent: "error", message: errorMessage(error) }));
    },
    [host, notify],
  );
  const onDisconnectPlacement = useCallback(
    (p: PlacedReport) => void state.disconnectPlacement(p),
    [state.disconnectPlacement],
  );
  // "Disconnect report here" disables itself while it runs: focus waits on the selected-cell card.
  const cellState: PaneState = {
    ...state,
    disconnectAt: (at) => {
      if (cellCard.current?.contains(document.activeElement)) cellCard.current.focus();
      return state.disconnectAt(at);
    },
  };
  // After Undo, focus goes to the restored placement's row (the selected-cell card when the row is
  // not rendered, as in a long list scrolled elsewhere).
  const restored = state.restored;
  useEffect(() => {
    if (!restored) return;
    const row = [...document.querySelectorAll<HTMLElement>("li[data-placement-key]")].find(
      (li) => li.dataset.placementKey === restored.key,
    );
    (row?.querySelector<HTMLElement>("[data-placement-select]") ?? cellCard.current)?.focus();
  }, [restored]);
  const focusAfterMessages = useCallback(() => {
    const tab = showSettings ? null : document.getElementById(tabId(view));
    (tab ?? settingsButton.current)?.focus();
  }, [showSettings, view]);

  const workbookName = state.context?.workbookName ? revealInvisible(state.context.workbookName) : null;
  const shown = (v: PaneView) => !showSettings && view === v;
  // The chat mounts the first time its view opens and stays mounted after (its conversation and a
  // running answer are kept): its code is not on the first screen's path (it is prefetched when
  // the browser is idle after the first list).
  const [askOpened, setAskOpened] = useState(false);
  if (shown("ask") && !askOpened) setAskOpened(true);

  return (
    <div className={styles.root}>
      <header ref={header} className={styles.header}>
        <div className={styles.titleRow}>
          <div className={styles.titleBlock}>
            <h1 className={styles.title} title={workbookName ?? "Reporting Platform"}>
              <bdi>{workbookName ?? "Reporting Platform"}</bdi>
            </h1>
            <Caption1 className={styles.subtitle}>
              {workbookName ? `Reporting Platform · ${host.label}` : host.label}
            </Caption1>
            <RefreshingStatus shown={state.stale} />
          </div>
          {!showSettings ? (
            <Button
              ref={refreshButton}
              appearance="subtle"
              icon={state.refreshing ? <Spinner size="tiny" aria-hidden /> : <ReloadIcon />}
              aria-label="Reload list"
              title="Reload list"
              // Focusable while it runs: a disabled button would drop focus to the page.
              disabledFocusable={state.refreshing || state.phase === "loading"}
              onClick={() => void state.reload()}
            />
          ) : null}
          <Button
            ref={settingsButton}
            appearance={showSettings ? "secondary" : "subtle"}
            icon={<SettingsIcon />}
            aria-label="Settings"
            title="Settings"
            aria-pressed={showSettings}
            disabled={firstRun}
            onClick={() => {
              setFocusField(undefined);
              setFocusMessage(undefined);
              setSettingsOpen((open) => !open);
            }}
          />
        </div>
        {!showSettings ? <PaneTabs selected={view} onSelect={setView} /> : null}
      </header>

      {edits ? (
        <Suspense fallback={null}>
          <HandEditsWatch host={host} state={state} notes={edits} />
        </Suspense>
      ) : null}
      <main ref={setMainNode} className={styles.main}>
        <PortalMountNodeProvider value={mainNode ?? undefined}>
          <PaneMessages messages={messages} onDismiss={dismiss} focusAfterLast={focusAfterMessages} />
          {showSettings ? (
            // Settings closing while it holds focus (Back, Save) gives it back to the Settings button.
            <FocusRescueBox fallback={() => settingsButton.current} className={styles.view}>
              <Suspense fallback={<LoadingRows count={4} />}>
                <SettingsPanel
                  host={host}
                  settings={state.settings}
                  firstRun={firstRun}
                  focusField={focusField}
                  focusMessage={focusMessage}
                  onSaved={onSaved}
                  onClose={() => setSettingsOpen(false)}
                />
              </Suspense>
            </FocusRescueBox>
          ) : null}
          {/* Both views stay mounted (the chat keeps its conversation and a running answer). */}
          <div
            role="tabpanel"
            id={panelId("reports")}
            aria-labelledby={tabId("reports")}
            hidden={!shown("reports")}
            className={mergeClasses(styles.view, !shown("reports") && styles.hidden)}
          >
            <ReportsView
              state={state}
              cell={
                <CurrentCell state={cellState} cardRef={cellCard} run={run} host={host} notify={notify} />
              }
              run={run}
              edits={edits}
              onSelect={onSelect}
              onDisconnectPlacement={onDisconnectPlacement}
              onOpenSettings={openSettings}
              focusAfterRetry={() => refreshButton.current}
            />
          </div>
          <div
            role="tabpanel"
            id={panelId("ask")}
            aria-labelledby={tabId("ask")}
            hidden={!shown("ask")}
            className={mergeClasses(styles.view, styles.askView, !shown("ask") && styles.hidden)}
          >
            {!askOpened ? null : state.settings ? (
              <section className={mergeClasses(styles.section, styles.chat)} aria-labelledby="agent-heading">
                <Subtitle2 as="h2" id="agent-heading" className={styles.sectionHeading}>
                  Agent chat
                </Subtitle2>
                <Suspense fallback={<LoadingRows count={2} />}>
                  <AgentChat host={host} settings={state.settings} onOpenSettings={openSettings} />
                </Suspense>
              </section>
            ) : (
              <LoadingRows count={2} />
            )}
          </div>
        </PortalMountNodeProvider>
      </main>
    </div>
  );
}

function cellText(context: ActiveContext): string {
  return formatLocation({
    sheetName: revealInvisible(context.sheetName),
    start: normalizeCell(context.cell) ?? context.cell,
    end: null,
  });
}

function CurrentCell({
  state,
  cardRef,
  run,
  host,
  notify,
}: {
  state: PaneState;
  cardRef?: RefObject<HTMLDivElement | null>;
  run?: RefreshRun | undefined;
  host: SpreadsheetHost;
  notify: (notice: Notice) => void;
}) {
  const styles = useStyles();
  // "Place a report here" where the host can list the deployment's reports and place one.
  const canPlace = Boolean(host.placeReport && host.listDeploymentReports);
  const [placing, setPlacing] = useState(false);
  const placeButton = useRef<HTMLButtonElement>(null);
  // A placement under the cell closes the picker (it is offered only where none is).
  if (placing && state.current) setPlacing(false);
  const hintId = useId("disconnect-hint");
  const { context, current } = state;
  const busy = current ? state.busyKeys.has(current.key) : false;
  // The placement is on the active sheet: named as that sheet is called now (matched by sheet id),
  // the name it was placed under only as a note.
  const activeSheet = context ? [{ id: context.sheetId ?? null, name: context.sheetName }] : [];
  const located = current ? locatePlacement(current, [...activeSheet, ...state.sheets]) : null;
  const where = current ? describePlacement(current, located?.sheetName) : "";
  return (
    <section className={styles.section} aria-labelledby="cell-heading">
      <Subtitle2 as="h2" id="cell-heading" className={styles.sectionHeading}>
        Selected cell
      </Subtitle2>
      {/* biome-ignore lint/a11y/useSemanticElements: a card to rest focus on, not a form's fieldset */}
      <div
        ref={cardRef}
        className={styles.card}
        role="group"
        tabIndex={-1}
        aria-labelledby="cell-heading"
        data-testid="selected-cell-card"
      >
        <div className={styles.cellLine}>
          <Caption1 className={styles.cellLabel}>Active cell</Caption1>
          <Text className={styles.cellValue} data-testid="active-cell">
            <bdi>{context ? cellText(context) : "–"}</bdi>
          </Text>
        </div>
        {current ? (
          <div className={styles.currentLine}>
            <div
              className={styles.currentText}
              title={placementTooltip({
                name: reportName(current.report),
                where,
                status: current.syncStatus,
                refreshed: relativeTime(current.refreshedAt),
                note: located?.note ? sheetNoteText(located.note) : null,
              })}
            >
              <Text weight="semibold" className={styles.twoLines}>
                <bdi>{reportName(current.report)}</bdi>
              </Text>
              <Caption1 id={hintId} className={styles.twoLines}>
                Placed at <bdi>{where}</bdi>
              </Caption1>
              {located?.note?.kind === "renamed" ? (
                <Caption1 className={styles.hint}>{sheetNoteText(located.note)}</Caption1>
              ) : null}
            </div>
            <SyncBadge className={styles.currentBadge} status={current.syncStatus} />
          </div>
        ) : (
          <Caption1 id={hintId} className={styles.hint}>
            No report is placed under this cell. Select a cell inside a placed report to disconnect it.
          </Caption1>
        )}
        <div className={styles.cellActions}>
          {run && current ? <RefreshHere run={run} placement={current} describedBy={hintId} /> : null}
          {canPlace && !current && context ? (
            <Button
              ref={placeButton}
              appearance="secondary"
              aria-expanded={placing}
              onClick={() => setPlacing((open) => !open)}
            >
              Place a report here
            </Button>
          ) : null}
          <Button
            appearance="primary"
            icon={busy ? <Spinner size="tiny" aria-hidden /> : <DisconnectIcon />}
            disabled={!current || busy}
            aria-describedby={hintId}
            onClick={() => void state.disconnectAt()}
          >
            Disconnect report here
          </Button>
        </div>
        {placing && canPlace && !current ? (
          <Suspense fallback={<Spinner size="tiny" label="Loading…" />}>
            <PlacePicker
              host={host}
              state={state}
              notify={notify}
              onClose={(placed) => {
                setPlacing(false);
                // Placed: the new placement is under the cell and the button is gone; the card keeps focus.
                (placed ? cardRef?.current : placeButton.current)?.focus();
              }}
            />
          </Suspense>
        ) : null}
      </div>
    </section>
  );
}

/** "Refresh" on the selected-cell card: that placement, new data in its cells. */
function RefreshHere({
  run,
  placement,
  describedBy,
}: {
  run: RefreshRun;
  placement: PlacedReport;
  describedBy: string;
}) {
  const running = useRefreshRun(run).running;
  return (
    <Button
      appearance="secondary"
      icon={running ? <Spinner size="tiny" aria-hidden /> : undefined}
      // Focusable while a run goes: a disabled button would drop focus to the page.
      disabledFocusable={running}
      aria-describedby={describedBy}
      onClick={() => void run.start({ kind: "placement", key: placement.key })}
    >
      Refresh
    </Button>
  );
}
