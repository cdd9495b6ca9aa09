/**
 * What the pane's first script leaves out, and when it arrives. The first screen (header, selected
 * cell, placement list) renders without these; each is a chunk loaded the first time it renders,
 * and all of them are prefetched once the first list has painted and the browser is idle
 * (`usePrefetchWhenShown`), so nothing waits for them later.
 *
 * The Fluent components here (later.ts) have the props of Fluent's own; until their chunk has
 * loaded (a moment, once) each renders a plain stand-in with the same text, so an error or a warning
 * is readable at once; if the chunk cannot load at all (the network is gone) the stand-in stays.
 */
import {
  type MessageBarActionsProps,
  type MessageBarBodyProps,
  type MessageBarProps,
  type MessageBarTitleProps,
  makeStyles,
  mergeClasses,
  type SkeletonItemProps,
  type SkeletonProps,
  type SpinnerProps,
  tokens,
} from "@fluentui/react-components";
import { type ComponentType, type JSX, lazy, type ReactNode, Suspense, useEffect } from "react";
import { once } from "../src/core/once.js";

type Later = typeof import("./later.js");

/** The chunk of later.ts, loaded once (asked again after a failure). */
const loadLater = once((): Promise<Later> => import("./later.js"));

/** A lazily loaded component with a stand-in, shown while it loads and if it cannot load. */
function part<P extends object>(
  pick: (m: Later) => ComponentType<P>,
  standIn: (props: P) => JSX.Element | null,
): (props: P) => JSX.Element {
  const Loaded = lazy(() =>
    loadLater().then(
      (m) => ({ default: pick(m) }),
      () => ({ default: standIn as ComponentType<P> }),
    ),
  );
  const StandIn = standIn as ComponentType<P>;
  return function LaterPart(props: P) {
    return (
      <Suspense fallback={<StandIn {...props} />}>
        <Loaded {...props} />
      </Suspense>
    );
  };
}

const text = (value: unknown): ReactNode => (typeof value === "string" ? value : null);

// The message bar's stand-in is drawn as Fluent draws the bar (the intent's colours, the padding,
// the actions beside the text), so an error shown before the chunk arrives looks like one from its
// first frame, not like plain text with a large button under it.
const useStandInStyles = makeStyles({
  bar: {
    display: "flex",
    flexWrap: "wrap",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalM,
    rowGap: tokens.spacingVerticalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground3,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
  },
  error: {
    backgroundColor: tokens.colorStatusDangerBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorStatusDangerBorder1}`,
  },
  warning: {
    backgroundColor: tokens.colorStatusWarningBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorStatusWarningBorder1}`,
  },
  body: { flexGrow: 1, flexBasis: "200px", minWidth: 0 },
  actions: { display: "flex", columnGap: tokens.spacingHorizontalS, marginLeft: "auto" },
});

function MessageBarStandIn({ children, className, intent }: MessageBarProps) {
  const styles = useStandInStyles();
  // Errors and warnings (what shows before the chunk may arrive) in their colours; others neutral.
  const tone = intent === "error" || intent === "warning" ? styles[intent] : undefined;
  return (
    <div className={mergeClasses(styles.bar, tone, className)} role={intent === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

function MessageBarBodyStandIn({ children, className }: MessageBarBodyProps) {
  return <div className={mergeClasses(useStandInStyles().body, className)}>{children}</div>;
}

function MessageBarActionsStandIn({ children, className, containerAction }: MessageBarActionsProps) {
  return (
    <div className={mergeClasses(useStandInStyles().actions, className)}>
      {children}
      {containerAction}
    </div>
  );
}

export const MessageBar = part<MessageBarProps>((m) => m.MessageBar, MessageBarStandIn);
export const MessageBarBody = part<MessageBarBodyProps>((m) => m.MessageBarBody, MessageBarBodyStandIn);
export const MessageBarTitle = part<MessageBarTitleProps>(
  (m) => m.MessageBarTitle,
  ({ children, className }) => <strong className={className}>{children} </strong>,
);
export const MessageBarActions = part<MessageBarActionsProps>(
  (m) => m.MessageBarActions,
  MessageBarActionsStandIn,
);

export const Spinner = part<SpinnerProps>(
  (m) => m.Spinner,
  ({ className, label, size, ...rest }) => (
    // The stand-in keeps the name or the aria-hidden its caller gave the Spinner.
    <span
      className={className}
      role="progressbar"
      aria-label={typeof label === "string" ? label : rest["aria-label"]}
      aria-hidden={rest["aria-hidden"]}
      style={{ display: "inline-block", minWidth: size === "extra-tiny" ? 16 : 20 }}
    >
      {text(label)}
    </span>
  ),
);

export const Skeleton = part<SkeletonProps>(
  (m) => m.Skeleton,
  ({ children, className, ...rest }) => (
    <div className={className} role="progressbar" aria-label={rest["aria-label"]} aria-busy="true">
      {children}
    </div>
  ),
);
export const SkeletonItem = part<SkeletonItemProps>(
  (m) => m.SkeletonItem,
  ({ className }) => <div className={className} style={{ backgroundColor: tokens.colorNeutralStencil1 }} />,
);

/** The pane's lazy chunks, each imported once the first list has painted and the browser is idle. */
const PREFETCH: (() => Promise<unknown>)[] = [
  loadLater,
  () => import("./PlacementActions.js"),
  () => import("./SettingsPanel.js"),
  () => import("./AgentChat.js"),
  () => import("../src/core/disconnect-flow.js"),
];

let prefetched = false;

/** Imports every chunk the pane may need next, once, when the browser is idle. */
function prefetchPaneChunks(): void {
  if (prefetched) return;
  prefetched = true;
  const g = globalThis as {
    requestIdleCallback?: (run: () => void, options?: { timeout: number }) => number;
  };
  const run = () => {
    for (const load of PREFETCH) load().catch(() => undefined);
  };
  if (g.requestIdleCallback) g.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

/** Prefetches the pane's chunks once `shown` (the first list, or whatever the pane shows instead). */
export function usePrefetchWhenShown(shown: boolean): void {
  useEffect(() => {
    if (!shown) return;
    // After the frame that paints it: the effect runs before paint.
    const frame = requestAnimationFrame(() => prefetchPaneChunks());
    return () => cancelAnimationFrame(frame);
  }, [shown]);
}
