/**
 * Refresh all and a refresh in progress (docs/pane.md, "Refresh"), in one place under the list's
 * heading: the Refresh all button; while a run goes, "N of M refreshed" with Stop in its place; and
 * the question asked before cells that are not a placement's are overwritten (Overwrite / Cancel),
 * with focus on it and given back to where it was after the answer. Loaded apart from the first
 * screen's script (prefetched when the browser is idle after the first list). The question's
 * MessageBar is Fluent's own, not lazy.tsx's stand-in: a stand-in swapped for the real bar once its
 * chunk arrives would remount the Overwrite button and drop the focus just given to it.
 */
import {
  Button,
  Caption1,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  makeStyles,
  Spinner,
  tokens,
} from "@fluentui/react-components";
import { useEffect, useRef } from "react";
import { StopIcon } from "./icons.js";
import { useRefreshRun } from "./RefreshControls.js";
import type { RefreshRun } from "./refreshRun.js";

const useStyles = makeStyles({
  progress: {
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  progressText: { flexGrow: 1, minWidth: 0 },
});

/** "N of M refreshed" with Stop while a run goes, and the overwrite question when one is asked. */
export default function RefreshBar({ run, count }: { run: RefreshRun; count: number }) {
  const styles = useStyles();
  const state = useRefreshRun(run);
  const questionRef = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const stopRef = useRef<HTMLButtonElement>(null);
  const wasRunning = useRef(false);

  // The question takes focus (nothing is written before the answer); the answer gives it back.
  useEffect(() => {
    if (state.question) {
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      questionRef.current?.querySelector<HTMLButtonElement>("button")?.focus();
    }
  }, [state.question]);

  // Refresh all gives its place to the progress: focus that was on it moves to Stop. Stop vanishes
  // with the run: focus that was on it moves to Refresh all. Never to the page.
  useEffect(() => {
    if (!wasRunning.current && state.running && document.activeElement === document.body) {
      stopRef.current?.focus();
    }
    if (wasRunning.current && !state.running && document.activeElement === document.body) {
      document.querySelector<HTMLButtonElement>("[data-refresh-all]")?.focus();
    }
    wasRunning.current = state.running;
  }, [state.running]);

  const answer = (overwrite: boolean) => {
    const target = returnTo.current;
    run.answer(overwrite);
    if (target?.isConnected) target.focus();
    else stopRef.current?.focus();
  };

  return (
    <>
      {!state.running && count > 0 ? (
        <div>
          <Button size="small" data-refresh-all="" onClick={() => void run.start({ kind: "all" })}>
            Refresh all
          </Button>
        </div>
      ) : null}
      {state.running ? (
        <div className={styles.progress}>
          <Spinner size="tiny" aria-hidden />
          <Caption1 className={styles.progressText} role="status">
            {state.stopping
              ? `Stopping… ${state.finished} of ${state.total} refreshed`
              : `${state.refreshed} of ${state.total} refreshed`}
          </Caption1>
          <Button
            ref={stopRef}
            size="small"
            icon={<StopIcon />}
            disabledFocusable={state.stopping}
            onClick={() => run.stop()}
          >
            Stop
          </Button>
        </div>
      ) : null}
      {state.question ? (
        <div ref={questionRef}>
          <MessageBar intent="warning" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Overwrite cells?</MessageBarTitle>
              {state.question} Nothing is written before you answer.
            </MessageBarBody>
            <MessageBarActions>
              <Button appearance="primary" size="small" onClick={() => answer(true)}>
                Overwrite
              </Button>
              <Button size="small" onClick={() => answer(false)}>
                Cancel
              </Button>
            </MessageBarActions>
          </MessageBar>
        </div>
      ) : null}
    </>
  );
}
