/**
 * Outcomes ("Disconnected Revenue by region from Sales!B2; ...") shown inside the pane, at the top
 * of its main area, never over the workbook: a polite live region of message bars, each
 * dismissible. Errors and warnings stay until dismissed; successes and information go after a while,
 * unless they offer an action (Undo after a disconnect), which stays until used or dismissed. A new
 * success or information replaces the last of its kind.
 */
import { Button, makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import { DismissRegular } from "@fluentui/react-icons/svg/dismiss";
import { useCallback, useEffect, useRef, useState } from "react";
import { carryFocus } from "./focusRescue.js";
// Shown only now and then: loaded apart from the first script (lazy.tsx).
import { MessageBar, MessageBarActions, MessageBarBody } from "./lazy.js";
import type { Notice } from "./usePaneState.js";

export interface PaneMessage {
  id: number;
  notice: Notice;
}

/** How long a success or an information stays (errors and warnings stay until dismissed). */
export const PASSING_MS = 8000;
/** The most messages shown at once: the oldest goes first. */
const MESSAGE_LIMIT = 3;

// A message with an action (Undo) stays too: its button must not go away while someone reaches for it.
const stays = (notice: Notice) =>
  notice.intent === "error" || notice.intent === "warning" || notice.action !== undefined;

const useStyles = makeStyles({
  region: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS },
  // Kept in the page when empty (a live region must exist before what it announces), taking no room.
  shown: { marginBottom: tokens.spacingVerticalL },
});

/** The pane's messages: `notify` adds one (the oldest passing one goes first past the limit). */
export function usePaneMessages() {
  const [messages, setMessages] = useState<PaneMessage[]>([]);
  const seq = useRef(0);
  const notify = useCallback((notice: Notice) => {
    const id = ++seq.current;
    setMessages((list) => {
      // A success or an information replaces the last one of its kind: outcomes do not stack into
      // a tall column. Errors and warnings stay until dismissed.
      // (One that offers an action, Undo, is not replaced: it stays until used or dismissed.)
      const kept = stays(notice)
        ? list
        : list.filter((m) => stays(m.notice) || m.notice.intent !== notice.intent);
      const next = [...kept, { id, notice }];
      while (next.length > MESSAGE_LIMIT) {
        const passing = next.findIndex((m) => !stays(m.notice));
        next.splice(passing >= 0 ? passing : 0, 1);
      }
      return next;
    });
  }, []);
  const dismiss = useCallback((id: number) => {
    setMessages((list) => list.filter((m) => m.id !== id));
  }, []);
  return { messages, notify, dismiss };
}

interface PaneMessagesProps {
  messages: readonly PaneMessage[];
  onDismiss(id: number): void;
  /** Where focus goes when the last message is dismissed from the keyboard. */
  focusAfterLast(): void;
}

export function PaneMessages({ messages, onDismiss, focusAfterLast }: PaneMessagesProps) {
  const styles = useStyles();
  const regionRef = useRef<HTMLDivElement>(null);
  const refocus = useRef(false);

  // Passing messages leave on their own.
  useEffect(() => {
    const timers = messages
      .filter((m) => !stays(m.notice))
      .map((m) => setTimeout(() => onDismiss(m.id), PASSING_MS));
    return () => {
      for (const t of timers) clearTimeout(t);
    };
  }, [messages, onDismiss]);

  // After a dismiss, focus the next message's Dismiss, or what the pane says when none is left.
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    const next = regionRef.current?.querySelector<HTMLButtonElement>("button[data-dismiss]");
    if (next) next.focus();
    else focusAfterLast();
  });

  return (
    <div
      ref={regionRef}
      role="status"
      aria-live="polite"
      aria-label="Messages"
      className={mergeClasses(styles.region, messages.length > 0 && styles.shown)}
    >
      {messages.map(({ id, notice }) => (
        <MessageBar key={id} intent={notice.intent} layout="multiline">
          <MessageBarBody>{notice.message}</MessageBarBody>
          <MessageBarActions
            {...(notice.action
              ? {
                  children: (
                    <Button
                      size="small"
                      data-message-action=""
                      // Replaced when the bar's chunk arrives (lazy.tsx): focus goes with it.
                      ref={carryFocus(`message-${id}-action`)}
                      onClick={(event) => {
                        refocus.current = regionRef.current?.contains(event.currentTarget) ?? false;
                        onDismiss(id);
                        notice.action?.run();
                      }}
                    >
                      {notice.action.label}
                    </Button>
                  ),
                }
              : {})}
            containerAction={
              <Button
                appearance="transparent"
                aria-label="Dismiss"
                title="Dismiss"
                data-dismiss=""
                ref={carryFocus(`message-${id}-dismiss`)}
                icon={<DismissRegular />}
                onClick={(event) => {
                  refocus.current = regionRef.current?.contains(event.currentTarget) ?? false;
                  onDismiss(id);
                }}
              />
            }
          />
        </MessageBar>
      ))}
    </div>
  );
}
