/**
 * Loading placeholders, and a failed load as an error message bar: the service's own reason first,
 * then what it means for the pane, with Retry and, when Settings can fix it (a refused or
 * forbidden API key), "Open settings" at the failing field.
 */
import { Button, makeStyles, tokens } from "@fluentui/react-components";
import { type SettingsField, settingsFieldFor } from "./errorMessage.js";
import { carryFocus, useFocusRescue } from "./focusRescue.js";
// Shown only now and then: loaded apart from the first script (lazy.tsx).
import { MessageBar, MessageBarActions, MessageBarBody, Skeleton, SkeletonItem } from "./lazy.js";
import type { PaneState } from "./usePaneState.js";

const useStyles = makeStyles({
  skeleton: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS },
  skeletonRow: { height: "56px", borderRadius: tokens.borderRadiusMedium },
});

export function LoadingRows({ count }: { count: number }) {
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

/** Two sentences as one text: the first ends with one full stop (or its own ! ? …), never two. */
function sentences(first: string, second: string): string {
  const head = first.trim().replace(/[\s.]+$/, "");
  if (head === "") return second;
  return `${/[!?…]$/.test(head) ? head : `${head}.`} ${second}`;
}

interface RetryBarProps {
  /** What the failure means for the pane ("The reports could not be loaded."). */
  consequence: string;
  state: PaneState;
  onOpenSettings(field: SettingsField, message?: string): void;
  /** Where focus goes when the bar goes away holding it (the retry worked). */
  focusAfter(): HTMLElement | null | undefined;
}

export function RetryBar({ consequence, state, onOpenSettings, focusAfter }: RetryBarProps) {
  const ref = useFocusRescue<HTMLDivElement>(focusAfter);
  const field = settingsFieldFor(state.loadFailure);
  return (
    // The ref on a box of our own: the bar is a lazily loaded part (lazy.tsx) that takes no ref.
    <div ref={ref}>
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{sentences(state.loadError ?? "", consequence)}</MessageBarBody>
        <MessageBarActions>
          {field ? (
            <Button
              ref={carryFocus("retry-bar-settings")}
              onClick={() => onOpenSettings(field, state.loadError ?? undefined)}
            >
              Open settings
            </Button>
          ) : null}
          {/* Focusable while it runs: a disabled button would drop focus to the page. */}
          <Button
            ref={carryFocus("retry-bar-retry")}
            onClick={() => void state.reload()}
            disabledFocusable={state.refreshing}
          >
            Retry
          </Button>
        </MessageBarActions>
      </MessageBar>
    </div>
  );
}
