/**
 * The chat's messages (platform-api.md, Agent chat): merging streamed pieces by id, the final answer
 * (chat rules 2-3), the conversation id (chat rule 4) and the stream's control lines. Pure rules over
 * decoded lines; the chat client (chat-client.ts) applies them as an answer streams.
 *
 * Decisions where the spec is silent (each also noted where it is made):
 * - `finalAnswer` returns null when there is no answer at all (never "").
 * - `sort` ordering puts messages without a `sort` after those with one, in first-seen order.
 */
import { type ChatMessage, ChatMessageSchema } from "./schema.js";

export type { ChatMessage } from "./schema.js";

/** A chat message after merging: always has an id. */
export type MergedChatMessage = ChatMessage & { id: string };

/** Control lines of the stream (platform-api.md): kept among the messages, never the answer. */
export const CUTOFF_ID = "__cutoff__";
/** The service's closing line: without it the answer is "unfinished". */
export const USAGE_ID = "__usage__";
export const SUSPENDED_ID = "__suspended__";
export const ABORTED_ID = "__aborted__";

export interface MessageMerger {
  /**
   * Takes one decoded line. Returns the message as merged so far, or null when the line is not a
   * message (no id, such as an `{"error": ...}` line, or not a chat message's shape).
   */
  push(line: unknown): MergedChatMessage | null;
  /**
   * Every message so far, in first-seen order: a live view, updated in place by `push` (reading it
   * costs nothing, so a stream may read it after every line). Copy it to keep it.
   */
  messages(): readonly MergedChatMessage[];
  /** How many distinct ids were seen. */
  readonly size: number;
  /** Whether a line with this id would merge into a message already seen. */
  has(id: string): boolean;
  /**
   * A resumed stream is starting: each id already seen starts afresh at its next line, delta or
   * not, because a re-subscribed run replays its messages.
   */
  beginReplay(): void;
}

/**
 * Merges lines by id (platform-api.md): a later line with the same id and `isDelta: true` appends
 * its content to the message so far (its other fields overwrite); a later line without `isDelta`
 * replaces the message. A message keeps the place where its id was first seen.
 *
 * Linear in the number of lines: a Map from id to the message's place, and the list kept in order
 * as ids first arrive, so no line rebuilds it (a stream of thousands of ids froze the pane when
 * each line did).
 */
export function createMessageMerger(): MessageMerger {
  const placeOf = new Map<string, number>();
  const list: MergedChatMessage[] = [];
  let stale = new Set<string>();
  return {
    push(line) {
      const parsed = ChatMessageSchema.safeParse(line);
      if (!parsed.success || typeof parsed.data.id !== "string") return null;
      const next = parsed.data as MergedChatMessage;
      const id = next.id;
      const place = placeOf.get(id);
      if (place === undefined) {
        placeOf.set(id, list.length);
        list.push(next);
        return next;
      }
      const previous = list[place] as MergedChatMessage;
      const merged =
        stale.delete(id) || next.isDelta !== true
          ? next
          : { ...previous, ...next, content: (previous.content ?? "") + (next.content ?? "") };
      list[place] = merged;
      return merged;
    },
    messages() {
      return list;
    },
    get size() {
      return list.length;
    },
    has(id) {
      return placeOf.has(id);
    },
    beginReplay() {
      stale = new Set(placeOf.keys());
    },
  };
}

/** Merges a whole list of decoded lines (see `createMessageMerger`). */
export function mergeChatMessages(lines: Iterable<unknown>): MergedChatMessage[] {
  const merger = createMessageMerger();
  for (const line of lines) merger.push(line);
  return [...merger.messages()];
}

/** Orders messages by `sort`; ties and messages without one keep first-seen order, the latter last. */
export function sortChatMessages<T extends ChatMessage>(messages: readonly T[]): T[] {
  const key = (m: T) => (typeof m.sort === "number" && Number.isFinite(m.sort) ? m.sort : Infinity);
  return [...messages].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka === kb ? 0 : ka < kb ? -1 : 1;
  });
}

/** Chat rule 2: an assistant message whose graphPath is non-empty, starts with "final" and has at most 2 elements. */
export function isFinalAnswerMessage(m: ChatMessage): boolean {
  const path = m.graphPath;
  return (
    m.role === "assistant" &&
    Array.isArray(path) &&
    path.length > 0 &&
    path.length <= 2 &&
    path[0] === "final"
  );
}

/**
 * Chat rule 2 alone, on merged messages in stream order: the content of the last message that
 * `isFinalAnswerMessage` accepts, or null. For an answer still streaming, where rule 3's fallback
 * would show a step of the agent's work as if it were the answer.
 */
export function markedFinalAnswer(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (isFinalAnswerMessage(m)) return m.content ?? "";
  }
  return null;
}

/**
 * Chat rules 2-3, on merged messages in stream order. Rule 2: the last assistant message whose
 * graphPath is non-empty, starts with "final" and has at most 2 elements gives the answer. Rule 3:
 * failing that, the last assistant message with non-empty content. Null when neither exists (the
 * spec is silent; null tells "no answer" apart from an empty one).
 */
export function finalAnswer(messages: readonly ChatMessage[]): string | null {
  const marked = markedFinalAnswer(messages);
  if (marked !== null) return marked;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m.role === "assistant" && typeof m.content === "string" && m.content.length > 0) return m.content;
  }
  return null;
}

/** Chat rule 4: the conversation id is state.chatId of the `__cutoff__` message; null if none. */
export function conversationId(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m.id === CUTOFF_ID) {
      const chatId = m.state?.chatId;
      return typeof chatId === "string" && chatId.length > 0 ? chatId : null;
    }
  }
  return null;
}

/** True for the stream's bookkeeping lines (`__cutoff__`, `__state__`, `__usage__`, ...). */
export function isControlMessage(m: ChatMessage): boolean {
  return typeof m.id === "string" && m.id.startsWith("__") && m.id.endsWith("__");
}
