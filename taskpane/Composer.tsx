/**
 * The chat's composer: the question box, Send (Stop while an answer streams) and New conversation.
 * One row under the box at every pane width, its edges on the box's: in a pane too narrow for both
 * labels (Google Sheets' 300 px sidebar), New conversation shows its icon only; its name stays, for
 * screen readers and as a tooltip.
 */
import { Button, Field, makeStyles, Textarea, tokens } from "@fluentui/react-components";
import { type FormEvent, type Ref, useRef } from "react";
import { useFocusRescue } from "./focusRescue.js";
import { NewConversationIcon, SendIcon, StopIcon } from "./icons.js";

/** Below this width of the composer, Send and both words of New conversation do not fit one row. */
const NARROW = "@container composer (max-width: 289.98px)";

const useStyles = makeStyles({
  composer: {
    display: "flex",
    flexDirection: "column",
    rowGap: tokens.spacingVerticalS,
    containerType: "inline-size",
    containerName: "composer",
    minWidth: 0,
  },
  actions: {
    display: "flex",
    flexWrap: "nowrap",
    alignItems: "center",
    justifyContent: "space-between",
    columnGap: tokens.spacingHorizontalS,
    minWidth: 0,
  },
  // Keeps its name in the accessibility tree when only the icon shows.
  label: {
    [NARROW]: {
      position: "absolute",
      width: "1px",
      height: "1px",
      margin: "-1px",
      overflow: "hidden",
      clip: "rect(0 0 0 0)",
      whiteSpace: "nowrap",
    },
  },
  newConversation: {
    flexShrink: 0,
    // As Fluent draws an icon-only button: 32 px square, the icon centred.
    [NARROW]: {
      minWidth: "32px",
      paddingLeft: tokens.spacingHorizontalXS,
      paddingRight: tokens.spacingHorizontalXS,
      "& .fui-Button__icon": { marginLeft: 0, marginRight: 0 },
    },
  },
});

export interface ComposerProps {
  question: string;
  onQuestionChange(value: string): void;
  onSend(event?: FormEvent): void;
  onStop(): void;
  onNewConversation(): void;
  streaming: boolean;
  canSend: boolean;
  /** False while there is no conversation to start over from. */
  canStartOver: boolean;
  placeholder: string;
  questionRef: Ref<HTMLTextAreaElement>;
}

export function Composer(props: ComposerProps) {
  const styles = useStyles();
  const form = useRef<HTMLFormElement>(null);
  return (
    <form ref={form} className={styles.composer} onSubmit={props.onSend}>
      <Field label="Ask the agent">
        <Textarea
          ref={props.questionRef}
          value={props.question}
          onChange={(_, d) => props.onQuestionChange(d.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              props.onSend();
            }
          }}
          resize="vertical"
          placeholder={props.placeholder}
        />
      </Field>
      <div className={styles.actions}>
        {props.streaming ? (
          <StopButton onStop={props.onStop} questionBox={() => form.current?.querySelector("textarea")} />
        ) : (
          <Button type="submit" appearance="primary" icon={<SendIcon />} disabled={!props.canSend}>
            Send
          </Button>
        )}
        <Button
          type="button"
          appearance="subtle"
          className={styles.newConversation}
          icon={<NewConversationIcon />}
          title="New conversation"
          onClick={props.onNewConversation}
          disabled={!props.canStartOver}
        >
          <span className={styles.label}>New conversation</span>
        </Button>
      </div>
    </form>
  );
}

/** Stop, there while an answer streams: when the answer ends by itself, focus it held goes to the question box. */
function StopButton({
  onStop,
  questionBox,
}: {
  onStop(): void;
  questionBox(): HTMLElement | null | undefined;
}) {
  const ref = useFocusRescue<HTMLButtonElement>(questionBox);
  return (
    <Button ref={ref} type="button" icon={<StopIcon />} onClick={onStop}>
      Stop
    </Button>
  );
}
