/**
 * The task pane: one app for every host. A compact header (the workbook, Refresh, Settings), the
 * active cell with `Disconnect report here`, this workbook's placements by sheet, and the agent
 * chat (loaded lazily). Settings come first until a tenant URL and an API key are set.
 */
import {
  Badge,
  Button,
  Caption1,
  makeStyles,
  Subtitle2,
  Text,
  tokens,
  useId,
} from "@fluentui/react-components";
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from "react";
import { revealInvisible } from "../src/core/display.js";
import { formatLocation, normalizeCell } from "../src/core/location.js";
import {
  locatePlacement,
  type PlacedReport,
  relativeTime,
  reportName,
  sheetNoteText,
} from "../src/core/placement-view.js";
import { describePlacement } from "../src/core/placements.js";
import type { ActiveContext, PublicSettings, SpreadsheetHost } from "../src/hosts/host.js";
import { PaneErrorBoundary } from "./ErrorBoundary.js";
import { errorMessage } from "./errorMessage.js";
import { DisconnectIcon, RefreshIcon, SettingsIcon } from "./icons.js";
// Shown only now and then: loaded apart from the first script (lazy.tsx).
import {
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Skeleton,
  SkeletonItem,
  Spinner,
  usePrefetchWhenShown,
} from "./lazy.js";
import { RefreshingStatus } from "./listCache.js";
import type { QueuedNotice } from "./PaneToaster.js";
import { PlacementList, placementTooltip, type SelectTarget, SyncBadge, TWO_LINES } from "./PlacementList.js";
import { isConnected, type Notice, type PaneState, usePaneState } from "./usePaneState.js";

// Not needed for the first screen: the chat (and markdown), and Settings (its form controls).
const AgentChat = lazy(() => import("./AgentChat.js"));
const SettingsPanel = lazy(() => import("./SettingsPanel.js"));
const PaneToaster = lazy(() => import("./PaneToaster.js"));

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    minHeight: "100%",
    minWidth: 0,
    overflowX: "hidden",
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
  },
  header: {
    position: "sticky",
    top: 0,
    zIndex: 1,
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalXS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS} ${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
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
    rowGap: tokens.spacingVerticalL,
    padding: tokens.spacingHorizontalM,
    minWidth: 0,
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
  },
  cellLine: { display: "flex", alignItems: "baseline", columnGap: tokens.spacingHorizontalS, minWidth: 0 },
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
  empty: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    color: tokens.colorNeutralForeground2,
  },
  skeleton: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS },
  skeletonRow: { height: "56px", borderRadius: tokens.borderRadiusMedium },
  problems: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
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
  // Toasts: queued here, shown by the toaster once its chunk has loaded (on the first notice).
  const [notices, setNotices] = useState<QueuedNotice[]>([]);
  const [toasterWanted, setToasterWanted] = useState(false);
  const noticeSeq = useRef(0);
  const notify = useCallback((notice: Notice) => {
    const id = ++noticeSeq.current;
    setToasterWanted(true);
    setNotices((queue) => [...queue, { id, notice }]);
  }, []);
  const onNoticesShown = useCallback((ids: number[]) => {
    setNotices((queue) => queue.filter((q) => !ids.includes(q.id)));
  }, []);
  const state = usePaneState(host, notify);
  usePrefetchWhenShown(state.phase !== "loading");
  const [settingsOpen, setSettingsOpen] = useState(false);
  const firstRun = state.phase === "needs-settings";
  const showSettings = settingsOpen || firstRun;

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

  const workbookName = revealInvisible(state.context?.workbookName || "Reporting Platform");

  return (
    <div className={styles.root}>
      <header className={styles.header}>
        <div className={styles.titleBlock}>
          <h1 className={styles.title} title={workbookName}>
            <bdi>{workbookName}</bdi>
          </h1>
          <Caption1 className={styles.subtitle}>Reporting Platform · {host.label}</Caption1>
          <RefreshingStatus shown={state.stale} />
        </div>
        {!showSettings ? (
          <Button
            appearance="subtle"
            icon={state.refreshing ? <Spinner size="tiny" /> : <RefreshIcon />}
            aria-label="Refresh"
            title="Refresh"
            disabled={state.refreshing || state.phase === "loading"}
            onClick={() => void state.reload()}
          />
        ) : null}
        <Button
          appearance={showSettings ? "secondary" : "subtle"}
          icon={<SettingsIcon />}
          aria-label="Settings"
          title="Settings"
          aria-pressed={showSettings}
          disabled={firstRun}
          onClick={() => setSettingsOpen((open) => !open)}
        />
      </header>

      <main className={styles.main}>
        {showSettings ? (
          <Suspense fallback={<LoadingRows count={4} />}>
            <SettingsPanel
              host={host}
              settings={state.settings}
              firstRun={firstRun}
              onSaved={onSaved}
              onClose={() => setSettingsOpen(false)}
            />
          </Suspense>
        ) : (
          <PaneBody
            state={state}
            host={host}
            onSelect={onSelect}
            onDisconnectPlacement={onDisconnectPlacement}
          >
            {state.settings ? (
              <section className={styles.section} aria-labelledby="agent-heading">
                <Subtitle2 as="h2" id="agent-heading" className={styles.sectionHeading}>
                  Agent chat
                </Subtitle2>
                <Suspense fallback={<LoadingRows count={2} />}>
                  <AgentChat
                    host={host}
                    settings={state.settings}
                    onOpenSettings={() => setSettingsOpen(true)}
                  />
                </Suspense>
              </section>
            ) : null}
          </PaneBody>
        )}
      </main>
      {toasterWanted ? (
        <Suspense fallback={null}>
          <PaneToaster queue={notices} onShown={onNoticesShown} />
        </Suspense>
      ) : null}
    </div>
  );
}

function LoadingRows({ count }: { count: number }) {
  const styles = useStyles();
  return (
    <Skeleton className={styles.skeleton} aria-label="Loading">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <SkeletonItem key={i} className={styles.skeletonRow} />
      ))}
    </Skeleton>
  );
}

interface PaneBodyProps {
  state: PaneState;
  host: SpreadsheetHost;
  onSelect(target: SelectTarget): void;
  onDisconnectPlacement(p: PlacedReport): void;
  children?: ReactNode;
}

function PaneBody({ state, onSelect, onDisconnectPlacement, children }: PaneBodyProps) {
  const styles = useStyles();

  if (state.phase === "loading") {
    return (
      <>
        <Subtitle2 as="h2" className={styles.sectionHeading}>
          Loading the workbook…
        </Subtitle2>
        <LoadingRows count={4} />
      </>
    );
  }

  if (state.phase === "error") {
    return (
      <>
        <RetryBar title="The reports could not be loaded." state={state} />
        {children}
      </>
    );
  }

  return (
    <>
      {state.loadError ? <RetryBar title="The refresh failed." state={state} /> : null}
      {state.problems.length > 0 ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>
              {state.problems.length === 1
                ? "One report could not be shown."
                : `${state.problems.length} reports could not be shown.`}
            </MessageBarTitle>
            <ul className={styles.problems}>
              {state.problems.map((problem, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: problems are plain texts, possibly repeated
                <li key={i}>{problem}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      ) : null}

      <CurrentCell state={state} />

      <section className={styles.section} aria-labelledby="placements-heading">
        <Subtitle2 as="h2" id="placements-heading" className={styles.sectionHeading}>
          Reports in this workbook
          {state.here.length > 0 ? (
            <Badge appearance="filled" color="informative" size="small">
              {state.here.length}
            </Badge>
          ) : null}
        </Subtitle2>
        {state.here.length === 0 ? (
          <div className={styles.empty}>
            <Text weight="semibold">No reports are placed in this workbook yet.</Text>
            <Caption1>
              Place a report from the Reporting Platform into a sheet, then press Refresh to see it here.
            </Caption1>
          </div>
        ) : (
          <PlacementList
            here={state.here}
            elsewhere={state.elsewhere}
            sheets={state.sheets}
            current={state.current}
            busyKeys={state.busyKeys}
            onSelect={onSelect}
            onDisconnect={onDisconnectPlacement}
          />
        )}
      </section>
      {children}
    </>
  );
}

function cellText(context: ActiveContext): string {
  return formatLocation({
    sheetName: revealInvisible(context.sheetName),
    start: normalizeCell(context.cell) ?? context.cell,
    end: null,
  });
}

function CurrentCell({ state }: { state: PaneState }) {
  const styles = useStyles();
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
      <div className={styles.card}>
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
        <div>
          <Button
            appearance="primary"
            icon={busy ? <Spinner size="tiny" /> : <DisconnectIcon />}
            disabled={!current || busy}
            aria-describedby={hintId}
            onClick={() => void state.disconnectAt()}
          >
            Disconnect report here
          </Button>
        </div>
      </div>
    </section>
  );
}

/** A load error with what the service said and a Retry button. */
function RetryBar({ title, state }: { title: string; state: PaneState }) {
  return (
    <MessageBar intent="error" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        {state.loadError}
      </MessageBarBody>
      <MessageBarActions>
        <Button onClick={() => void state.reload()} disabled={state.refreshing}>
          Retry
        </Button>
      </MessageBarActions>
    </MessageBar>
  );
}
