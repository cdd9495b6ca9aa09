/**
 * Ask the agent (loaded lazily: the first screen does not need it). The answer streams in as it
 * arrives, progress steps show while the agent works, `Stop` aborts, follow-ups continue the
 * conversation (its chatId), `New conversation` starts over. The identity in use is always shown.
 */
import {
  Button,
  Caption1,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  makeStyles,
  tokens,
} from "@fluentui/react-components";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import {
  type ChatMessage,
  conversationId,
  finalAnswer,
  isControlMessage,
  isFinalAnswerMessage,
  markedFinalAnswer,
} from "../src/core/index.js";
import { attributesToRows, rowsToAttributes } from "../src/core/user-attributes.js";
import type { PublicSettings, SpreadsheetHost } from "../src/hosts/host.js";
import { AgentIdentityLine, type AgentIdentityValue, SeeAsAnotherUser } from "./AgentIdentity.js";
import { Composer } from "./Composer.js";
import { errorKind, errorMessage, type SettingsField, settingsFieldFor } from "./errorMessage.js";
import { COMPOSER_HEIGHT } from "./stickyHeader.js";
import { type Step, type Turn, TurnAnswer, TurnSteps } from "./TurnView.js";

const useStyles = makeStyles({
  root: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalS, minWidth: 0 },
  conversation: { display: "flex", flexDirection: "column", rowGap: tokens.spacingVerticalM, minWidth: 0 },
  question: {
    alignSelf: "flex-end",
    maxWidth: "85%",
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground2,
    color: tokens.colorNeutralForeground1,
    overflowWrap: "anywhere",
    whiteSpace: "pre-wrap",
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

function identityFromSettings(settings: PublicSettings): AgentIdentityValue {
  return {
    externalId: settings.externalId,
    email: settings.email,
    attributes: attributesToRows(settings.userAttributes),
    previewing: null,
  };
}

const STEP_LABEL_LIMIT = 100;

/** What a progress message is about: its tool, the first line of its text, or its graph path. */
function stepLabel(m: ChatMessage): string {
  const toolCall = (m as { toolCall?: { name?: unknown; result?: unknown } }).toolCall;
  if (toolCall && typeof toolCall.name === "string" && toolCall.name) {
    return toolCall.result !== undefined ? `Used ${toolCall.name}` : `Using ${toolCall.name}`;
  }
  const firstLine = (m.content ?? "").trim().split("\n")[0] ?? "";
  if (firstLine) {
    return firstLine.length > STEP_LABEL_LIMIT ? `${firstLine.slice(0, STEP_LABEL_LIMIT)}…` : firstLine;
  }
  return (m.graphPath ?? []).join(" › ") || "Working";
}

/**
 * The agent's work so far: assistant messages with a graphPath that are not the final answer (tool
 * calls, progress), by the core's final-answer rule (chat rule 2).
 */
function progressSteps(all: readonly ChatMessage[]): Step[] {
  const steps: Step[] = [];
  all.forEach((m, i) => {
    if (m.role !== "assistant" || isControlMessage(m) || isFinalAnswerMessage(m)) return;
    const path = m.graphPath;
    if (!Array.isArray(path) || path.length === 0) return;
    steps.push({ id: m.id ?? `step-${i}`, label: stepLabel(m), running: m.isInProcess === true });
  });
  return steps;
}

interface AgentChatProps {
  host: SpreadsheetHost;
  settings: PublicSettings;
  /** Opens Settings, at `field` when one can fix what went wrong. */
  /** Opens Settings at `field`, marked with `message` (the failure it fixes) when given. */
  onOpenSettings(field?: SettingsField, message?: string): void;
}

export default function AgentChat({ host, settings, onOpenSettings }: AgentChatProps) {
  const styles = useStyles();
  const [question, setQuestion] = useState("");
  const [turns, setTurns] = useState<Turn[]>([]);
  const [chatId, setChatId] = useState<string | null>(null);
  const [streaming, setStreaming] = useState(false);
  const [identity, setIdentity] = useState<AgentIdentityValue>(() => identityFromSettings(settings));
  const abortRef = useRef<AbortController | null>(null);
  const streamChatId = useRef<string | null>(null);
  const turnSeq = useRef(0);
  const mounted = useRef(true);
  const lastTurnRef = useRef<HTMLDivElement | null>(null);
  const questionRef = useRef<HTMLTextAreaElement | null>(null);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      abortRef.current?.abort();
    };
  }, []);

  // Settings changed (saved in the Settings panel): use the new identity unless previewing another.
  const ownIdentityKey = JSON.stringify([settings.externalId, settings.email, settings.userAttributes]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the identity's content
  useEffect(() => {
    setIdentity((current) => (current.previewing ? current : identityFromSettings(settings)));
  }, [ownIdentityKey]);

  const agentReady = settings.chatUrl.trim() !== "" && settings.agentApiKeySet;

  const updateTurn = useCallback((id: number, patch: Partial<Turn>) => {
    if (!mounted.current) return;
    setTurns((list) => list.map((t) => (t.id === id ? { ...t, ...patch } : t)));
  }, []);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    const input = question.trim();
    if (!input || streaming || !agentReady) return;
    const id = ++turnSeq.current;
    const controller = new AbortController();
    abortRef.current = controller;
    streamChatId.current = chatId;
    setQuestion("");
    setStreaming(true);
    setTurns((list) => [
      ...list,
      {
        id,
        question: input,
        steps: [],
        answer: null,
        status: "streaming",
        error: null,
        errorField: null,
        incomplete: null,
      },
    ]);
    const attributes = rowsToAttributes(identity.attributes);
    const sessionSettings = {
      externalId: identity.externalId.trim(),
      ...(identity.email.trim() ? { email: identity.email.trim() } : {}),
      ...(attributes.length > 0 ? { userAttributes: attributes } : {}),
    };
    // The messages so far are read once per batch of lines (what one network chunk brings), not
    // once per line: reading them all on every line is quadratic in the number of messages, and a
    // stream of thousands of ids held the pane. `all` is the chat's live list: read when shown.
    let latest: readonly ChatMessage[] | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const showLatest = () => {
      if (pending !== null) clearTimeout(pending);
      pending = null;
      const all = latest;
      latest = null;
      if (!all) return;
      streamChatId.current = conversationId(all) ?? streamChatId.current;
      updateTurn(id, { steps: progressSteps(all), answer: markedFinalAnswer(all) });
    };
    try {
      let result: Awaited<ReturnType<typeof host.platform.ask>>;
      try {
        result = await host.platform.ask(
          { input, ...(chatId ? { chatId } : {}), sessionSettings },
          {
            signal: controller.signal,
            onMessage: (_message, all) => {
              latest = all;
              pending ??= setTimeout(showLatest, 0);
            },
          },
        );
      } finally {
        // What arrived before the end (or the failure) names the conversation.
        showLatest();
      }
      if (!mounted.current) return;
      setChatId(result.chatId ?? streamChatId.current);
      updateTurn(id, {
        steps: progressSteps(result.messages).map((s) => ({ ...s, running: false })),
        answer: result.answer ?? finalAnswer(result.messages),
        status: "done",
        incomplete: result.incomplete?.message ?? null,
      });
    } catch (error) {
      if (!mounted.current) return;
      // Whatever the stream gave before it stopped still names the conversation.
      if (streamChatId.current) setChatId(streamChatId.current);
      const kind = errorKind(error);
      if (kind === "aborted" || controller.signal.aborted) {
        setTurns((list) =>
          list.map((t) =>
            t.id === id
              ? { ...t, status: "stopped", steps: t.steps.map((s) => ({ ...s, running: false })) }
              : t,
          ),
        );
      } else {
        updateTurn(id, {
          status: "error",
          error: errorMessage(error),
          errorField: settingsFieldFor(error, "agent"),
        });
      }
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      if (mounted.current) setStreaming(false);
    }
  };

  // The newest turn is brought into view when it is asked and again when it ends in an error: the
  // error bar grows the turn, and would otherwise sit under the sticky question box.
  const lastStatus = turns.at(-1)?.status;
  // biome-ignore lint/correctness/useExhaustiveDependencies: on a new turn, and when it fails
  useEffect(() => {
    if (turns.length > 0) lastTurnRef.current?.scrollIntoView?.({ block: "nearest" });
  }, [turns.length, lastStatus === "error"]);

  // Stop disappears and New conversation disables under the pointer: focus goes to the question
  // box, where the next thing to do (ask again) happens, never to the page's body.
  const stop = () => {
    const id = streamChatId.current;
    abortRef.current?.abort();
    if (id) void host.platform.abortChat(id).catch(() => undefined);
    questionRef.current?.focus();
  };

  const newConversation = () => {
    if (streaming) stop();
    setTurns([]);
    setChatId(null);
    streamChatId.current = null;
    questionRef.current?.focus();
  };

  return (
    <div className={styles.root}>
      <AgentIdentityLine
        identity={identity}
        onReset={() => {
          setIdentity(identityFromSettings(settings));
          // Back to me goes away with the preview: focus goes to the question box, as after Stop.
          questionRef.current?.focus();
        }}
      />
      <SeeAsAnotherUser
        host={host}
        scimTokenSet={settings.scimTokenSet}
        identity={identity}
        onChange={setIdentity}
      />

      {!agentReady ? (
        <MessageBar intent="info">
          <MessageBarBody>
            Set the Agent chat URL and the Agent API key in Settings to ask the agent.
          </MessageBarBody>
          <MessageBarActions>
            <Button
              size="small"
              onClick={() => onOpenSettings(settings.chatUrl.trim() === "" ? "chatUrl" : "agentApiKey")}
            >
              Open settings
            </Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}

      {turns.length > 0 ? (
        <section className={styles.conversation} aria-busy={streaming} aria-label="Conversation">
          {turns.map((turn, i) => (
            <div
              key={turn.id}
              className={styles.conversation}
              ref={i === turns.length - 1 ? lastTurnRef : undefined}
            >
              <div className={styles.question} dir="auto">
                {turn.question}
              </div>
              <TurnSteps turn={turn} />
              <TurnAnswer
                turn={turn}
                answersWholeIn={host.agentAnswers === "whole" ? host.label : null}
                onOpenSettings={onOpenSettings}
              />
            </div>
          ))}
        </section>
      ) : (
        <Caption1 className={styles.muted}>
          Ask a question about your data, for example "Which region grew fastest last quarter?"
        </Caption1>
      )}

      <Composer
        question={question}
        onQuestionChange={setQuestion}
        onSend={(event) => void send(event)}
        onStop={stop}
        onNewConversation={newConversation}
        streaming={streaming}
        canSend={agentReady && question.trim() !== ""}
        canStartOver={turns.length > 0 || chatId !== null}
        placeholder={chatId ? "Ask a follow-up" : "Type a question"}
        questionRef={questionRef}
      />
      <ComposerHeight />
    </div>
  );
}

/** Keeps the chat's question box height on its section (mounted with the chat, after it). */
function ComposerHeight() {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const section = ref.current?.closest("section");
    const form = section?.querySelector("form");
    if (!section || !form || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      section.style.setProperty(COMPOSER_HEIGHT, `${form.offsetHeight + 8}px`);
    });
    observer.observe(form);
    return () => observer.disconnect();
  }, []);
  return <span ref={ref} hidden />;
}
