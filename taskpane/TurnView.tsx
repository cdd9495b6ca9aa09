/**
 * One turn of the chat as the pane shows it: the agent's steps (a list while it works, then a
 * disclosure button that shows or hides them) and its answer (streaming, done, stopped, or an error
 * with "Open settings" when Settings can fix it).
 */
import {
  Button,
  Caption1,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  mergeClasses,
  Spinner,
  tokens,
} from "@fluentui/react-components";
import { ChevronDownRegular as ChevronDownIcon } from "@fluentui/react-icons/svg/chevron-down";
import { ChevronRightRegular as ChevronRightIcon } from "@fluentui/react-icons/svg/chevron-right";
import { lazy, Suspense, useDeferredValue, useId, useState } from "react";
import type { SettingsField } from "./errorMessage.js";

const SafeMarkdown = lazy(() => import("./markdown.js"));

export interface Step {
  id: string;
  label: string;
  running: boolean;
}

export interface Turn {
  id: number;
  question: string;
  steps: Step[];
  answer: string | null;
  status: "streaming" | "done" | "stopped" | "error";
  error: string | null;
  /** The Settings field that can fix the error (a refused agent key), offered as "Open settings". */
  errorField: SettingsField | null;
  /** Why the answer may not be whole (the core's note), shown beside it; null when it is whole. */
  incomplete: string | null;
}

const useStyles = makeStyles({
  answer: {
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    boxShadow: tokens.shadow2,
    minWidth: 0,
  },
  steps: {
    listStyleType: "none",
    margin: 0,
    padding: 0,
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalXXS,
  },
  step: {
    display: "flex",
    alignItems: "center",
    columnGap: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground3,
    minWidth: 0,
  },
  // A collapsed list is not drawn (its own display would otherwise win over \`hidden\`).
  hidden: { display: "none" },
  stepText: { minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  // The box of a step's dot or spinner is as wide as the disclosure's chevron (a small Button's
  // 20px icon), so each dot sits under the chevron and each step's text under "N steps".
  stepMark: {
    width: "20px",
    flexShrink: 0,
    display: "flex",
    alignItems: "center",
    justifyContent: "center",
  },
  stepDot: {
    width: "6px",
    height: "6px",
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralForeground3,
  },
  stepsBlock: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalXS, minWidth: 0 },
  // Its chevron on the steps' dots, as a first-party pane lines up a disclosure with what it shows.
  disclosure: {
    alignSelf: "flex-start",
    minWidth: 0,
    paddingLeft: 0,
    paddingRight: tokens.spacingHorizontalXS,
    color: tokens.colorNeutralForeground3,
    fontWeight: tokens.fontWeightRegular,
  },
  muted: { color: tokens.colorNeutralForeground3 },
  incomplete: { marginTop: tokens.spacingVerticalS },
});

export function TurnSteps({ turn }: { turn: Turn }) {
  const styles = useStyles();
  const listId = useId();
  const [open, setOpen] = useState(false);
  if (turn.steps.length === 0) return null;
  const streaming = turn.status === "streaming";
  const list = (
    <ul
      className={mergeClasses(styles.steps, !streaming && !open && styles.hidden)}
      id={listId}
      hidden={!streaming && !open}
    >
      {turn.steps.map((s) => (
        <li key={s.id} className={styles.step}>
          <span className={styles.stepMark} aria-hidden>
            {s.running && streaming ? <Spinner size="extra-tiny" /> : <span className={styles.stepDot} />}
          </span>
          <Caption1 className={styles.stepText} title={s.label}>
            {s.label}
          </Caption1>
        </li>
      ))}
    </ul>
  );
  // While the agent works its steps show; once it is done they fold behind a disclosure button.
  if (streaming) return list;
  return (
    <div className={styles.stepsBlock}>
      <Button
        appearance="transparent"
        size="small"
        className={styles.disclosure}
        icon={open ? <ChevronDownIcon /> : <ChevronRightIcon />}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        {turn.steps.length} {turn.steps.length === 1 ? "step" : "steps"}
      </Button>
      {list}
    </div>
  );
}

export function TurnAnswer({
  turn,
  answersWholeIn,
  onOpenSettings,
}: {
  turn: Turn;
  /** The host's name when it hands over each answer whole, once ready (Google Sheets): say so. */
  answersWholeIn: string | null;
  onOpenSettings(field?: SettingsField, message?: string): void;
}) {
  const styles = useStyles();
  // A long answer renders from a deferred value, so typing and clicks go first (React yields between
  // its blocks); the status reads "done" only once what is shown is the whole answer.
  const shown = useDeferredValue(turn.answer);
  if (turn.status === "error") {
    const field = turn.errorField;
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{turn.error}</MessageBarBody>
        {field ? (
          <MessageBarActions>
            <Button size="small" onClick={() => onOpenSettings(field, turn.error ?? undefined)}>
              Open settings
            </Button>
          </MessageBarActions>
        ) : null}
      </MessageBar>
    );
  }
  const text = shown;
  const status = shown === turn.answer ? turn.status : "streaming";
  return (
    <div className={styles.answer} data-answer-status={status}>
      {text ? (
        <Suspense fallback={<div>{text}</div>}>
          <SafeMarkdown text={text} />
        </Suspense>
      ) : turn.status === "streaming" ? (
        <Spinner
          size="tiny"
          label={
            answersWholeIn
              ? `The agent is working… In ${answersWholeIn} the answer appears whole once it is ready.`
              : "The agent is working…"
          }
          labelPosition="after"
        />
      ) : turn.status === "stopped" ? null : (
        <Caption1 className={styles.muted}>The agent gave no answer.</Caption1>
      )}
      {turn.status === "stopped" ? (
        <Caption1 className={styles.muted}>
          {answersWholeIn
            ? "Stopped. The answer will not be shown, even if the agent finishes it."
            : "Stopped."}
        </Caption1>
      ) : null}
      {turn.status === "done" && turn.incomplete ? (
        <MessageBar intent="warning" layout="multiline" className={styles.incomplete}>
          <MessageBarBody>{turn.incomplete}</MessageBarBody>
        </MessageBar>
      ) : null}
    </div>
  );
}
