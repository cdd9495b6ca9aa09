/**
 * The pane's "Reports" view: what is loading or failed (with Retry, and "Open settings" when the key
 * was refused), the reports that could not be shown, the selected cell, this workbook's placements.
 */
import { Badge, Caption1, makeStyles, Subtitle2, Text, tokens } from "@fluentui/react-components";
import { lazy, type ReactNode, Suspense, useCallback, useState, useSyncExternalStore } from "react";
import { type PlacedReport, reportKey } from "../src/core/placement-view.js";
import { type EditNotes, useEditNotes } from "./editWatchHandle.js";
import type { SettingsField } from "./errorMessage.js";
import { FILTER_ABOVE } from "./filterLimit.js";
// Shown only now and then: loaded apart from the first script (lazy.tsx).
import { MessageBar, MessageBarBody, MessageBarTitle } from "./lazy.js";
import { PlacementList, type SelectTarget } from "./PlacementList.js";
import { LoadingRows, RetryBar } from "./RetryBar.js";
import type { RefreshRun } from "./refreshRun.js";
import type { PaneState } from "./usePaneState.js";

const useStyles = makeStyles({
  section: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS, minWidth: 0 },
  sectionHeading: {
    margin: 0,
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalS,
  },
  empty: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} dashed ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusLarge,
    color: tokens.colorNeutralForeground2,
  },
  problems: { margin: 0, paddingLeft: tokens.spacingHorizontalL },
  headingRow: {
    display: "flex",
    alignItems: "center",
    justifyContent: "space-between",
    columnGap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
});

// Refresh all and a run's progress: loaded apart from the first screen (prefetched when idle).
const RefreshBar = lazy(() => import("./RefreshProgress.js"));
// The filter box: only for a long list, so loaded apart too.
const PlacementFilter = lazy(() => import("./PlacementFilter.js"));

// A placement's hand edits (Edited, Locate): loaded with the first note.
const HandEditLine = lazy(() => import("./placeParts.js").then((m) => ({ default: m.HandEditLine })));

const NO_RUN = { subscribe: () => () => {}, getSnapshot: () => null };

/** The run's state, or null where the host cannot refresh. */
function useOptionalRun(run: RefreshRun | undefined) {
  const source = run ?? NO_RUN;
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot);
}

interface ReportsViewProps {
  state: PaneState;
  /** The selected-cell card. */
  cell: ReactNode;
  onSelect(target: SelectTarget): void;
  onDisconnectPlacement(p: PlacedReport): void;
  onOpenSettings(field: SettingsField, message?: string): void;
  focusAfterRetry(): HTMLElement | null;
  /** The refresh run, where the host can refresh (Refresh all, progress, the overwrite question). */
  run?: RefreshRun | undefined;
  /** Hand edits found, where the host reads cells back. */
  edits?: EditNotes | null | undefined;
}

/** The Reports view: what is loading or failed, the selected cell, this workbook's placements. */
export function ReportsView({
  state,
  cell,
  onSelect,
  onDisconnectPlacement,
  run,
  edits,
  ...retry
}: ReportsViewProps) {
  const styles = useStyles();
  const runState = useOptionalRun(run);
  const editNotes = useEditNotes(edits);
  const onRefresh = useCallback(
    (p: PlacedReport, whole: "placement" | "report") =>
      void run?.start(
        whole === "placement"
          ? { kind: "placement", key: p.key }
          : { kind: "report", reportKey: reportKey(p.report) },
      ),
    [run],
  );
  // The filter box (loaded with its matching, apart from the first screen) hands back what matches.
  const [filtered, setFiltered] = useState<readonly PlacedReport[] | null>(null);
  const filterable = state.here.length > FILTER_ABOVE;
  const shownHere = filterable && filtered ? filtered : state.here;
  const move = state.movePlacementHere;
  const onMoveHere = useCallback((p: PlacedReport) => void move(p), [move]);
  const retryBar = (consequence: string) => (
    <RetryBar
      consequence={consequence}
      state={state}
      onOpenSettings={retry.onOpenSettings}
      focusAfter={retry.focusAfterRetry}
    />
  );

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

  if (state.phase === "error") return retryBar("The reports could not be loaded.");

  return (
    <>
      {state.loadError ? retryBar("The refresh failed.") : null}
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

      {cell}

      <section className={styles.section} aria-labelledby="placements-heading">
        <div className={styles.headingRow}>
          <Subtitle2 as="h2" id="placements-heading" className={styles.sectionHeading}>
            Reports in this workbook
            {state.here.length > 0 ? (
              <Badge appearance="filled" color="informative" size="small">
                {state.here.length}
              </Badge>
            ) : null}
          </Subtitle2>
        </div>
        {run ? (
          <Suspense fallback={null}>
            <RefreshBar run={run} count={state.here.length} />
          </Suspense>
        ) : null}
        {filterable ? (
          <Suspense fallback={null}>
            <PlacementFilter here={state.here} sheets={state.sheets} onFiltered={setFiltered} />
          </Suspense>
        ) : null}
        {state.here.length === 0 ? (
          <div className={styles.empty}>
            <Text weight="semibold">No reports are placed in this workbook yet.</Text>
            <Caption1>
              Place a report from the Reporting Platform into a sheet, then press Reload list to see it here.
            </Caption1>
          </div>
        ) : (
          <PlacementList
            here={shownHere}
            elsewhere={state.elsewhere}
            sheets={state.sheets}
            current={state.current}
            busyKeys={state.busyKeys}
            onSelect={onSelect}
            onDisconnect={onDisconnectPlacement}
            onMoveHere={onMoveHere}
            refreshRows={runState?.rows}
            refreshRunning={runState?.running === true}
            edits={editNotes}
            EditLine={HandEditLine}
            onRefresh={run ? onRefresh : undefined}
            unfilteredLength={state.here.length}
          />
        )}
      </section>
    </>
  );
}
