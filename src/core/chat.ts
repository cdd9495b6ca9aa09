/**
 * The agent chat (spec 2.6, 4.2, 5 rule 6): NDJSON decoding, merging streamed pieces by id, the
 * final answer, the conversation id, control lines, and a client over a transport.
 *
 * Decisions where the spec is silent (each also noted where it is made):
 * - `finalAnswer` returns null when there is no answer at all (never "").
 * - A stopped run (`__aborted__`, or the caller's signal) rejects with kind "aborted"; the partial
 *   messages have already reached `onMessage`, so nothing the user saw is lost.
 * - A resumed run (after `__suspended__`) is read as a replay: the first line of an id in the new
 *   stream starts that message afresh, even when it is a delta; messages the new stream does not
 *   resend are kept.
 * - `sort` ordering puts messages without a `sort` after those with one, in first-seen order.
 *
 * The client is written sans-I/O, like the platform client (client.ts): the request, the reading of
 * a status, the retry decision and the meaning of the answer's lines are shared by two thin
 * runners, `createAgentChat` over an async transport (it reads the answer as it streams) and
 * `createSyncAgentChat` over a synchronous one (Apps Script, where a server function cannot return
 * a promise and UrlFetchApp answers whole).
 */
import { errorFromStatus, invalidResponse, PlatformError, redact, serviceMessageOf } from "./errors.js";
import {
  CHAT_IDLE_TIMEOUT_MS,
  formatBytes,
  formatCount,
  MAX_ANSWER_CHARS,
  MAX_CHAT_LINE_CHARS,
  MAX_CHAT_STREAM_BYTES,
} from "./limits.js";
import {
  type ChatMessage,
  ChatMessageSchema,
  type ChatRequest,
  ChatRequestSchema,
  type SessionSettings,
} from "./schema.js";
import {
  type ByteSource,
  type HttpResponse,
  iterateChunks,
  readBodyText,
  requireSecureUrl,
  type SyncTransport,
  type Transport,
} from "./transport.js";

export type { ChatMessage } from "./schema.js";

// ---------------------------------------------------------------------------------------------
// NDJSON

export interface InvalidNdjsonLine {
  /** 1-based, counting every line of the input, blank ones included. */
  line: number;
  /** The line, cut to about 200 characters. */
  text: string;
  error: string;
}

export interface NdjsonOptions {
  /** Called for a line that is not JSON; the line is skipped and decoding goes on. */
  onInvalidLine?: (problem: InvalidNdjsonLine) => void;
  /**
   * Longest line accepted, in characters (bytes while still undecoded). A longer one throws
   * `NdjsonLineTooLong` as soon as its pending part passes the limit, before it is all held.
   */
  maxLineLength?: number;
}

/** A line passed `maxLineLength`: decoding stops. `values` holds the lines completed before it. */
export class NdjsonLineTooLong extends Error {
  override readonly name = "NdjsonLineTooLong";
  values: unknown[] = [];
  constructor(readonly limit: number) {
    super(`A line is longer than ${limit} characters.`);
  }
}

const REPORTED_TEXT_LIMIT = 200;
const BLANK = /^\s*$/;

/**
 * The incremental NDJSON decoder under `decodeNdjson` and `decodeNdjsonText`: push chunks, get
 * the values of the lines they complete. A pushed byte chunk is kept, not copied, until its line
 * completes: do not reuse its buffer (streams hand out fresh chunks).
 *
 * Linear however the input is chunked: a partial line is kept as a list of pieces and joined once,
 * when its newline arrives, and only the new chunk is searched for newlines. Re-concatenating or
 * re-scanning the pending text per chunk would make a long line in small chunks quadratic.
 *
 * Bytes are decoded only up to a newline byte, which never occurs inside a multi-byte UTF-8
 * sequence, so a character split across chunks is decoded whole; and a long line arriving in
 * small chunks costs one decode, not one per chunk.
 */
export class NdjsonDecoder {
  // Made on the first bytes: Apps Script's V8 has no TextDecoder, and text input needs none.
  #textDecoder: TextDecoder | null = null;
  readonly #onInvalidLine: NdjsonOptions["onInvalidLine"];
  readonly #maxLine: number;
  #pending: string[] = [];
  #pendingChars = 0;
  #pendingBytes: Uint8Array[] = [];
  #pendingByteLength = 0;
  #lineNumber = 0;
  #started = false;

  constructor(options: NdjsonOptions = {}) {
    this.#onInvalidLine = options.onInvalidLine;
    this.#maxLine = options.maxLineLength ?? Infinity;
  }

  /** Decodes one chunk; returns the values of the lines it completed (often none). */
  push(chunk: Uint8Array | string): unknown[] {
    if (typeof chunk === "string") {
      if (this.#pendingByteLength > 0) this.#pending.push(this.#decodePendingBytes());
      const values = this.#pushText(chunk);
      this.#checkPending(values);
      return values;
    }
    const lastNewline = lastNewlineIn(chunk);
    if (lastNewline === -1) {
      if (chunk.length > 0) {
        this.#pendingBytes.push(chunk);
        this.#pendingByteLength += chunk.length;
        this.#checkPending();
      }
      return [];
    }
    const head = chunk.subarray(0, lastNewline + 1);
    let text: string;
    if (this.#pendingByteLength > 0) {
      this.#pendingBytes.push(head);
      this.#pendingByteLength += head.length;
      text = this.#decodePendingBytes();
    } else {
      text = this.#decode(head);
    }
    if (lastNewline + 1 < chunk.length) {
      const rest = chunk.subarray(lastNewline + 1);
      this.#pendingBytes.push(rest);
      this.#pendingByteLength += rest.length;
    }
    const out = this.#pushText(text);
    this.#checkPending(out);
    return out;
  }

  #checkPending(values: unknown[] = []): void {
    if (this.#pendingChars + this.#pendingByteLength > this.#maxLine) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = values;
      throw error;
    }
  }

  #decode(bytes: Uint8Array): string {
    // ignoreBOM: each call starts a new decode; only the input's first character may be a
    // byte-order mark, and that one is dropped by hand in #pushText.
    this.#textDecoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
    return this.#textDecoder.decode(bytes);
  }

  #decodePendingBytes(): string {
    const parts = this.#pendingBytes;
    let whole: Uint8Array;
    if (parts.length === 1) {
      whole = parts[0] as Uint8Array;
    } else {
      whole = new Uint8Array(this.#pendingByteLength);
      let at = 0;
      for (const part of parts) {
        whole.set(part, at);
        at += part.length;
      }
    }
    this.#pendingBytes = [];
    this.#pendingByteLength = 0;
    return this.#decode(whole);
  }

  #pushText(input: string): unknown[] {
    let text = input;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: unknown[] = [];
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      let line: string;
      if (this.#pending.length > 0) {
        this.#pending.push(text.slice(start, newline));
        line = this.#pending.join("");
        this.#pending = [];
        this.#pendingChars = 0;
      } else {
        line = text.slice(start, newline);
      }
      this.#take(line, out);
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start < text.length) {
      this.#pending.push(start === 0 ? text : text.slice(start));
      this.#pendingChars += text.length - start;
    }
    return out;
  }

  /** Ends the input: returns the value of a last line that had no newline, if any. */
  end(): unknown[] {
    const out: unknown[] = [];
    if (this.#pendingByteLength > 0) this.#pending.push(this.#decodePendingBytes());
    if (this.#pending.length > 0) {
      const line = this.#pending.join("");
      this.#pending = [];
      this.#pendingChars = 0;
      this.#take(line, out);
    }
    return out;
  }

  #take(raw: string, out: unknown[]): void {
    this.#lineNumber += 1;
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.length === 0) return;
    if (line.length > this.#maxLine) {
      const error = new NdjsonLineTooLong(this.#maxLine);
      error.values = out;
      throw error;
    }
    try {
      out.push(JSON.parse(line));
    } catch (error) {
      // Checked only on failure: JSON.parse already accepts surrounding whitespace, so the usual
      // line pays nothing for the blank-line rule.
      if (BLANK.test(line)) return;
      this.#onInvalidLine?.({
        line: this.#lineNumber,
        text: line.length > REPORTED_TEXT_LIMIT ? `${line.slice(0, REPORTED_TEXT_LIMIT)}…` : line,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/**
 * The last newline byte of a chunk, or -1. For a tiny chunk a plain loop beats the native calls'
 * fixed cost; for a larger one, V8's forward `indexOf` is several times faster than
 * `lastIndexOf`, so it settles the common no-newline case, and `lastIndexOf` then only scans the
 * tail after the last newline.
 */
function lastNewlineIn(chunk: Uint8Array): number {
  if (chunk.length <= 64) {
    for (let i = chunk.length - 1; i >= 0; i--) if (chunk[i] === 10) return i;
    return -1;
  }
  return chunk.indexOf(10) === -1 ? -1 : chunk.lastIndexOf(10);
}

/**
 * Decodes newline-delimited JSON from a stream (bytes or text chunks): one value per non-empty
 * line, as each line completes. Blank lines are skipped; a line that is not JSON is reported to
 * `onInvalidLine` and skipped, and later lines still come.
 */
export async function* decodeNdjson(
  source: ByteSource | string,
  options: NdjsonOptions = {},
): AsyncGenerator<unknown, void, undefined> {
  const decoder = new NdjsonDecoder(options);
  try {
    if (typeof source === "string") {
      yield* decoder.push(source);
    } else {
      for await (const chunk of iterateChunks(source)) {
        const values = decoder.push(chunk);
        for (let i = 0; i < values.length; i++) yield values[i];
      }
    }
    yield* decoder.end();
  } catch (error) {
    // The lines completed before an overlong one still count.
    if (error instanceof NdjsonLineTooLong) yield* error.values.splice(0);
    throw error;
  }
}

/** The whole-text form of `decodeNdjson`, for Apps Script, which gets a body at once. */
export function decodeNdjsonText(text: string, options: NdjsonOptions = {}): unknown[] {
  const decoder = new NdjsonDecoder(options);
  const values = decoder.push(text);
  try {
    for (const v of decoder.end()) values.push(v);
  } catch (error) {
    // An overlong last line: the lines before it still count.
    if (error instanceof NdjsonLineTooLong) error.values = [...values, ...error.values];
    throw error;
  }
  return values;
}

// ---------------------------------------------------------------------------------------------
// Messages

/** A chat message after merging: always has an id. */
export type MergedChatMessage = ChatMessage & { id: string };

/** Control lines of the stream (platform-api.md): kept among the messages, never the answer. */
export const CUTOFF_ID = "__cutoff__";
/** The service's closing line: without it the answer is "unfinished". */
const USAGE_ID = "__usage__";
export const SUSPENDED_ID = "__suspended__";
export const ABORTED_ID = "__aborted__";

export interface MessageMerger {
  /**
   * Takes one decoded line. Returns the message as merged so far, or null when the line is not a
   * message (no id, such as an `{"error": ...}` line, or not a chat message's shape).
   */
  push(line: unknown): MergedChatMessage | null;
  /** Every message so far, in first-seen order. */
  messages(): MergedChatMessage[];
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
 */
export function createMessageMerger(): MessageMerger {
  const byId = new Map<string, MergedChatMessage>();
  const order: string[] = [];
  let stale = new Set<string>();
  return {
    push(line) {
      const parsed = ChatMessageSchema.safeParse(line);
      if (!parsed.success || typeof parsed.data.id !== "string") return null;
      const next = parsed.data as MergedChatMessage;
      const id = next.id;
      const previous = byId.get(id);
      let merged: MergedChatMessage;
      if (previous === undefined) {
        order.push(id);
        merged = next;
      } else if (stale.delete(id) || next.isDelta !== true) {
        merged = next;
      } else {
        merged = { ...previous, ...next, content: (previous.content ?? "") + (next.content ?? "") };
      }
      byId.set(id, merged);
      return merged;
    },
    messages() {
      return order.map((id) => byId.get(id) as MergedChatMessage);
    },
    beginReplay() {
      stale = new Set(order);
    },
  };
}

/** Merges a whole list of decoded lines (see `createMessageMerger`). */
export function mergeChatMessages(lines: Iterable<unknown>): MergedChatMessage[] {
  const merger = createMessageMerger();
  for (const line of lines) merger.push(line);
  return merger.messages();
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

function isFinalAnswerMessage(m: ChatMessage): boolean {
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
 * Spec 4.2 rules 2-3, on merged messages in stream order. Rule 2: the last assistant message whose
 * graphPath is non-empty, starts with "final" and has at most 2 elements gives the answer. Rule 3:
 * failing that, the last assistant message with non-empty content. Null when neither exists (the
 * spec is silent; null tells "no answer" apart from an empty one).
 */
export function finalAnswer(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (isFinalAnswerMessage(m)) return m.content ?? "";
  }
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as ChatMessage;
    if (m.role === "assistant" && typeof m.content === "string" && m.content.length > 0) return m.content;
  }
  return null;
}

/** Spec 4.2 rule 4: the conversation id is state.chatId of the `__cutoff__` message; null if none. */
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

// ---------------------------------------------------------------------------------------------
// The client

const CHAT_PATH_SUFFIX = "/chat/stream-chat-state";
const ABORT_PATH_SUFFIX = "/chat/abort";
const DEFAULT_RETRY_DELAYS_MS = [300, 1000] as const;
/** platform-api.md: at most 2 retries for the chat POST. */
const MAX_RETRIES = 2;
/** A Retry-After longer than this is not waited for: the user is watching a spinner. */
const MAX_RETRY_AFTER_MS = 10_000;

export interface AgentChatOptions {
  /** The agent's chat URL from its settings; its path ends in `/chat/stream-chat-state`. */
  chatUrl: string;
  /** An API key with access to the agent (spec 5 rule 6). */
  apiKey: string;
  /** How requests reach the network; the caller's (the core does no I/O of its own). */
  transport: Transport;
  /** Used when a request carries none. */
  sessionSettings?: SessionSettings;
  /** Clock for generated message ids. */
  now?: () => number;
  /** Random bytes from a cryptographic source, for generated message ids (see `newMessageId`). */
  randomBytes: RandomBytes;
  /** How long to wait for the service to send anything before giving up (CHAT_IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number;
  /** Waits before retry 1 and 2, in ms (platform-api.md: bounded retry with backoff). */
  retryDelaysMs?: readonly number[];
  /** How to wait; injectable so tests need not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface AskRequest {
  /** The question. Omit it with a chatId to get the thread as it stands. */
  input?: string;
  /** Continue this conversation (spec 4.2 rule 4); omit to start a new one. */
  chatId?: string;
  /** The identity the service answers for (spec 4.2 rule 5); defaults to the chat's. */
  sessionSettings?: SessionSettings;
  /** Makes the request safe to repeat; generated by `newMessageId` when absent. */
  messageId?: string;
}

/** `length` bytes from a cryptographic random source (crypto.getRandomValues; Utilities.getUuid in Apps Script). */
export type RandomBytes = (length: number) => Uint8Array;

/** Random digits appended to the millisecond in a generated messageId: about 40 bits. */
const MESSAGE_ID_RANDOM_DIGITS = 12;

/**
 * A messageId within the documented pattern `^\d{13,}-message$` (platform-api.md): the current
 * millisecond, then random digits. Two users asking in the same millisecond no longer collide (the
 * second would be refused as a reuse), and the id cannot be guessed from the time alone.
 */
export function newMessageId(now: number, randomBytes: RandomBytes): string {
  let digits = "";
  while (digits.length < MESSAGE_ID_RANDOM_DIGITS) {
    for (const byte of randomBytes(MESSAGE_ID_RANDOM_DIGITS)) {
      // 250 = 25 x 10: bytes above it would make low digits likelier, so they are skipped.
      if (byte < 250 && digits.length < MESSAGE_ID_RANDOM_DIGITS) digits += String(byte % 10);
    }
  }
  return `${String(Math.floor(now)).padStart(13, "0")}${digits}-message`;
}

/**
 * Why an answer may not be whole (the pane shows it with a note):
 * - "fallback": no message met spec 4.2 rule 2; rule 3's fallback supplied it;
 * - "unfinished": the stream ended without the service's closing `__usage__` line;
 * - "too-large": it passed MAX_ANSWER_CHARS, MAX_CHAT_LINE_CHARS or MAX_CHAT_STREAM_BYTES;
 * - "timeout": the service sent nothing for CHAT_IDLE_TIMEOUT_MS.
 */
export type IncompleteReason = "fallback" | "unfinished" | "too-large" | "timeout";

export interface IncompleteAnswer {
  reason: IncompleteReason;
  /** What the pane shows beside the answer. */
  message: string;
}

function incompleteAnswer(reason: IncompleteReason, idleTimeoutMs = CHAT_IDLE_TIMEOUT_MS): IncompleteAnswer {
  switch (reason) {
    case "fallback":
      return {
        reason,
        message:
          "This answer may be incomplete: the agent did not mark a final answer, so its last message is shown.",
      };
    case "unfinished":
      return {
        reason,
        message:
          "This answer may be incomplete: the agent's stream ended before the service closed it. Ask again for a full answer.",
      };
    case "too-large":
      return {
        reason,
        message: `This answer was cut: it passed the add-in's limit (${formatCount(MAX_ANSWER_CHARS)} characters, lines of ${formatCount(MAX_CHAT_LINE_CHARS)} characters, ${formatBytes(MAX_CHAT_STREAM_BYTES)} in all). Ask a narrower question.`,
      };
    case "timeout":
      return {
        reason,
        message: `This answer may be incomplete: the agent sent nothing for ${Math.round(idleTimeoutMs / 1000)} s, so the add-in stopped waiting. Ask again for a full answer.`,
      };
  }
}

export interface AskOptions {
  signal?: AbortSignal;
  /** Called as each line arrives, with the message as merged so far and all messages so far. */
  onMessage?: (message: MergedChatMessage, all: readonly MergedChatMessage[]) => void;
}

export interface AgentAnswer {
  /** Spec 4.2 rules 2-3; null when the agent gave no answer (for example a thread-only request). */
  answer: string | null;
  /** Spec 4.2 rule 4; send it back as chatId to continue. Falls back to the request's chatId. */
  chatId: string | null;
  /** The request's messageId (sent or generated). */
  messageId: string;
  /** Null for a whole answer; else why it may not be whole, and what to tell the user. */
  incomplete: IncompleteAnswer | null;
  /** Every merged message in first-seen order, control lines included. */
  messages: MergedChatMessage[];
}

export interface AgentChat {
  /**
   * Asks the agent and reads its stream to the end. Rejects with a PlatformError: "insecure-url",
   * "bad-request", "unauthorized", "forbidden", "network", "stream" (an error line or a second
   * suspension), "aborted" (the caller's signal, or the run was stopped), ...
   */
  ask(request: AskRequest, options?: AskOptions): Promise<AgentAnswer>;
  /** Stops a running answer. Resolves true on 204; 404 rejects "not-found", 403 "forbidden". */
  abort(chatId: string, sessionSettings?: SessionSettings): Promise<boolean>;
}

export interface SyncAgentChatOptions {
  /** The agent's chat URL from its settings; its path ends in `/chat/stream-chat-state`. */
  chatUrl: string;
  /** An API key with access to the agent (spec 5 rule 6). */
  apiKey: string;
  /** Answers at once and whole (Apps Script's UrlFetchApp). */
  transport: SyncTransport;
  /** Blocking wait before retry 1 and 2 (Utilities.sleep in Apps Script). */
  sleep: (ms: number) => void;
  /** Used when a request carries none. */
  sessionSettings?: SessionSettings;
  /** Clock for generated message ids. */
  now?: () => number;
  /** Random bytes from a cryptographic source, for generated message ids (see `newMessageId`). */
  randomBytes: RandomBytes;
  /** Waits before retry 1 and 2, in ms. */
  retryDelaysMs?: readonly number[];
}

/** The agent chat for runtimes where a call answers at once and whole (Apps Script). */
export interface SyncAgentChat {
  /** Asks the agent and reads the whole answer; throws the same PlatformErrors as `AgentChat.ask`. */
  ask(request: AskRequest): AgentAnswer;
  /** Stops a running answer. Returns true on 2xx; 404 throws "not-found", 403 "forbidden". */
  abort(chatId: string, sessionSettings?: SessionSettings): boolean;
}

// ---------------------------------------------------------------------------------------------
// Request, response and lines, shared by both runners.

/** The checked chat URL: spec 5 rule 1 (HTTPS only) and the agent chat path. */
function chatUrlOf(chatUrl: string, apiKey: string): URL {
  const url = requireSecureUrl(chatUrl, "The agent chat URL");
  // Sending "Api-Key " with nothing after it would only earn a 401 with a vaguer message.
  if (!apiKey.trim()) {
    throw new PlatformError("unauthorized", "No agent API key is set. Paste one in Settings.");
  }
  if (!url.pathname.endsWith(CHAT_PATH_SUFFIX)) {
    throw new PlatformError(
      "bad-request",
      `The agent chat URL must end in ${CHAT_PATH_SUFFIX}. Copy it from the agent's settings in the Reporting Platform.`,
    );
  }
  return url;
}

// Spec 5 rule 6: the chat takes `Api-Key`, not `Bearer` like the management API.
function chatHeaders(apiKey: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/x-ndjson, application/json",
    Authorization: `Api-Key ${apiKey}`,
  };
}

function validationError(issues: readonly { path: PropertyKey[]; message: string }[]): PlatformError {
  const first = issues[0];
  const where = first && first.path.length > 0 ? `${first.path.map(String).join(".")}: ` : "";
  return new PlatformError(
    "bad-request",
    `The question could not be sent (${where}${first?.message ?? "invalid request"}). Check the agent settings (external id, user attributes).`,
  );
}

/**
 * platform-api.md: `externalId` must be lowercase and trimmed. Normalising it here beats a refusal
 * from the service for a setting typed with a capital letter.
 */
function normalizeSessionSettings(settings: SessionSettings | undefined): SessionSettings | undefined {
  if (!settings || typeof settings.externalId !== "string") return settings;
  return { ...settings, externalId: settings.externalId.trim().toLowerCase() };
}

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A chat POST, ready for either kind of transport. */
interface ChatHttpRequest {
  method: "POST";
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What a non-2xx answer means, in words that say what to do (the key redacted). */
function chatStatusError(
  status: number,
  headers: Record<string, string>,
  text: string,
  action: string,
  secrets: readonly string[],
): PlatformError {
  return errorFromStatus(status, text, headers, { credential: "agent-key", action, secrets });
}

/**
 * A failed attempt as a PlatformError: one the transport or the status gave, else a network error.
 * The detail goes into the message as well as the cause: a cause does not survive the JSON an Apps
 * Script server function answers with.
 */
function chatAttemptFailure(
  error: unknown,
  url: URL,
  action: string,
  secrets: readonly string[],
): PlatformError {
  if (error instanceof PlatformError) return error;
  const detail = error instanceof Error ? redact(error.message, secrets) : "";
  return new PlatformError(
    "network",
    `Could not reach the agent at ${url.host} to ${action}${detail ? ` (${detail})` : ""}. Check your connection and the agent chat URL in Settings, then try again.`,
    { cause: error instanceof Error ? new Error(detail) : undefined },
  );
}

/**
 * How long to wait before retrying after failed attempt `attempt` (1-based), or null to give up.
 * Network failures, 408, 429 and 5xx are retried at most twice; safe because every attempt carries
 * the same messageId (platform-api.md: only then is the POST idempotent), and nothing of an answer
 * has been read yet. A `Retry-After` is honoured up to MAX_RETRY_AFTER_MS.
 */
function chatRetryDelay(
  attempt: number,
  failure: PlatformError,
  retryDelaysMs: readonly number[],
): number | null {
  if (!(failure.kind === "network" || (failure.status != null && isTransientStatus(failure.status)))) {
    return null;
  }
  const planned = retryDelaysMs.slice(0, MAX_RETRIES)[attempt - 1];
  if (planned === undefined) return null;
  const retryAfterMs = failure.retryAfterSeconds != null ? failure.retryAfterSeconds * 1000 : 0;
  if (retryAfterMs > MAX_RETRY_AFTER_MS) return null;
  return Math.max(planned, retryAfterMs);
}

/** The POST that stops a running answer: `/chat/abort` beside the chat URL, `{chatId, sessionSettings}`. */
function abortRequestOf(
  options: { chatUrl: string; apiKey: string; sessionSettings?: SessionSettings },
  chatId: string,
  sessionSettings: SessionSettings | undefined,
): { url: URL; request: ChatHttpRequest } {
  const url = new URL(chatUrlOf(options.chatUrl, options.apiKey).href);
  url.pathname = url.pathname.slice(0, -CHAT_PATH_SUFFIX.length) + ABORT_PATH_SUFFIX;
  const settings = normalizeSessionSettings(sessionSettings ?? options.sessionSettings);
  const body = JSON.stringify(settings ? { chatId, sessionSettings: settings } : { chatId });
  return { url, request: { method: "POST", url: url.href, headers: chatHeaders(options.apiKey), body } };
}

/** An `{"error": ...}` line (no id, no role) carries its text in `error` (a string or `{message}`). */
function streamErrorOf(line: unknown): string | null {
  if (line === null || typeof line !== "object" || Array.isArray(line)) return null;
  const rec = line as Record<string, unknown>;
  if (rec.id !== undefined || rec.role !== undefined || rec.error == null) return null;
  return serviceMessageOf(JSON.stringify({ error: rec.error })) ?? "unknown error";
}

/**
 * One question, sans I/O: the requests to send and what the decoded lines of each answer mean. A
 * runner sends `nextLeg()`, feeds the answer's lines to `take` (and its unreadable ones to
 * `invalidLine`), then asks `endLeg()` whether to send the resumed request or read `answer()`.
 */
interface ChatRun {
  readonly url: URL;
  readonly secrets: readonly string[];
  /** The conversation id known so far (the request's, or a new conversation's `__cutoff__`). */
  readonly chatId: string | null;
  /** The POST of the next leg: the question, or its resumption (same messageId, the chat id known so far). */
  nextLeg(): ChatHttpRequest;
  /**
   * Takes one decoded line of the leg. A message is merged and handed to `seen`; then
   * `__aborted__` throws "aborted", and `__suspended__` ends the leg (returns true: nothing after
   * it belongs to this run). An `{"error": ...}` line throws "stream".
   */
  take(line: unknown, seen?: (message: MergedChatMessage) => void): boolean;
  /** A line of the leg that was not JSON. */
  invalidLine(): void;
  /** Reading stopped early (a limit, a time-out): the answer so far is returned, marked incomplete. */
  cut(reason: IncompleteReason): void;
  /**
   * The leg is read. True: it was suspended, send `nextLeg()` to resume. False: the answer is
   * whole. Throws "stream" on a second suspension, "invalid-response" when nothing was NDJSON.
   */
  endLeg(): boolean;
  messages(): MergedChatMessage[];
  answer(): AgentAnswer;
}

function startChatRun(
  options: {
    chatUrl: string;
    apiKey: string;
    sessionSettings?: SessionSettings;
    now?: () => number;
    randomBytes: RandomBytes;
    idleTimeoutMs?: number;
  },
  request: AskRequest,
): ChatRun {
  const url = chatUrlOf(options.chatUrl, options.apiKey);
  const secrets = [options.apiKey];
  const candidate = {
    input: request.input,
    // An empty chat id is no conversation (a sidebar may send "" for none).
    chatId: request.chatId || undefined,
    messageId: request.messageId ?? newMessageId((options.now ?? Date.now)(), options.randomBytes),
    sessionSettings: normalizeSessionSettings(request.sessionSettings ?? options.sessionSettings),
  };
  const parsed = ChatRequestSchema.safeParse(candidate);
  if (!parsed.success) throw validationError(parsed.error.issues);
  const chatRequest: ChatRequest = parsed.data;
  if (chatRequest.input === undefined && !chatRequest.chatId) {
    throw new PlatformError("bad-request", "Type a question first.");
  }
  const messageId = chatRequest.messageId as string;

  const merger = createMessageMerger();
  let chatId = chatRequest.chatId;
  let suspensions = 0;
  let suspended: MergedChatMessage | null = null;
  let values = 0;
  let invalidLines = 0;
  let cut: IncompleteReason | null = null;

  return {
    url,
    secrets,
    get chatId() {
      return chatId ?? null;
    },
    nextLeg() {
      suspended = null;
      values = 0;
      invalidLines = 0;
      return {
        method: "POST",
        url: url.href,
        headers: chatHeaders(options.apiKey),
        body: JSON.stringify({ ...chatRequest, chatId }),
      };
    },
    take(line, seen) {
      values += 1;
      const message = merger.push(line);
      if (message === null) {
        const error = streamErrorOf(line);
        if (error !== null) {
          const detail = redact(error, secrets);
          throw new PlatformError(
            "stream",
            `The agent stopped with an error: "${detail}". Ask again; if it keeps failing, check the agent's settings or ask an admin.`,
            { serviceMessage: detail },
          );
        }
        return false;
      }
      if (message.role === "assistant" && (message.content?.length ?? 0) > MAX_ANSWER_CHARS) {
        // An answer past the limit is cut here and reading stops: the pane would freeze on it.
        const kept = { ...message, content: (message.content ?? "").slice(0, MAX_ANSWER_CHARS) };
        merger.push({ ...kept, isDelta: false });
        cut = "too-large";
        seen?.(kept);
        return true;
      }
      seen?.(message);
      if (message.id === ABORTED_ID) {
        throw new PlatformError(
          "aborted",
          "The answer was stopped before it was finished. Ask again to get a full answer.",
        );
      }
      if (message.id !== SUSPENDED_ID) return false;
      suspended = message;
      return true;
    },
    invalidLine() {
      invalidLines += 1;
    },
    cut(reason) {
      cut = reason;
    },
    endLeg() {
      if (cut !== null) return false;
      if (suspended === null) {
        if (values === 0 && invalidLines > 0) throw invalidResponse("an answer", "not NDJSON");
        return false;
      }
      suspensions += 1;
      const detail = typeof suspended.error === "string" ? redact(suspended.error, secrets) : null;
      if (suspensions > 1 || (suspended as { retryable?: unknown }).retryable === false) {
        throw new PlatformError(
          "stream",
          "The agent's run was interrupted again before it finished (the service restarted). Ask again in a minute.",
          { serviceMessage: detail },
        );
      }
      // platform-api.md: the same request again (same chatId, input, messageId) resumes the run;
      // a new conversation's id is known only from this answer's __cutoff__ (spec 4.2 rule 4).
      chatId = chatId ?? conversationId(merger.messages()) ?? undefined;
      merger.beginReplay();
      return true;
    },
    messages: () => merger.messages(),
    answer() {
      const messages = merger.messages();
      const answer = finalAnswer(messages);
      let incomplete: IncompleteReason | null = cut;
      if (incomplete === null && answer !== null) {
        if (!messages.some(isFinalAnswerMessage)) incomplete = "fallback";
        else if (!messages.some((m) => m.id === USAGE_ID)) incomplete = "unfinished";
      }
      return {
        answer,
        chatId: conversationId(messages) ?? chatRequest.chatId ?? null,
        messageId,
        messages,
        incomplete: incomplete === null ? null : incompleteAnswer(incomplete, options.idleTimeoutMs),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The async runner: reads the answer as it streams.

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function stoppedByUser(): PlatformError {
  return new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.");
}

/** Races each chunk against the signal, so a transport that ignores signals still stops at once. */
async function* untilAborted<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => {});
  let finished = false;
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), aborted]);
      if (step.done) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Not awaited: a stalled source would hold its return() until its pending read settles.
    if (!finished) iterator.return?.()?.catch(() => {});
  }
}

/** Aborts a leg when the service has sent nothing for `ms`; each sign of life starts the wait again. */
interface IdleTimer {
  touch(): void;
  stop(): void;
  readonly expired: boolean;
}

function idleTimer(ms: number, onExpire: () => void): IdleTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired = false;
  return {
    touch() {
      clearTimeout(timer);
      if (!expired) {
        timer = setTimeout(() => {
          expired = true;
          onExpire();
        }, ms);
      }
    },
    stop() {
      clearTimeout(timer);
    },
    get expired() {
      return expired;
    },
  };
}

function chatTimedOut(ms: number): PlatformError {
  return new PlatformError(
    "timeout",
    `The agent sent nothing for ${Math.round(ms / 1000)} s, so the add-in stopped waiting. Ask again, or try a simpler question.`,
  );
}

/** Passes chunks on, keeping the idle timer alive, and stops at MAX_CHAT_STREAM_BYTES (the answer so far is kept, marked cut). */
async function* limitedChunks(
  source: AsyncIterable<Uint8Array | string>,
  idle: IdleTimer,
  run: ChatRun,
): AsyncGenerator<Uint8Array | string> {
  let size = 0;
  for await (const chunk of source) {
    idle.touch();
    size += chunk.length;
    if (size > MAX_CHAT_STREAM_BYTES) {
      run.cut("too-large");
      return;
    }
    yield chunk;
  }
}

/** Creates the agent chat client: POSTs to the agent's chat URL with `Authorization: Api-Key`. */
export function createAgentChat(options: AgentChatOptions): AgentChat {
  const transport = options.transport;
  const sleep = options.sleep ?? defaultSleep;
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? CHAT_IDLE_TIMEOUT_MS;

  /** Sends the chat POST, retrying as `chatRetryDelay` says. */
  async function send(
    run: ChatRun,
    request: ChatHttpRequest,
    signal: AbortSignal,
    callerSignal: AbortSignal | undefined,
    idle: IdleTimer,
  ): Promise<HttpResponse> {
    for (let attempt = 1; ; attempt++) {
      let failure: PlatformError;
      try {
        idle.touch();
        const response = await transport({ ...request, signal });
        if (response.status >= 200 && response.status < 300) return response;
        const text = await readBodyText(response.body, MAX_CHAT_LINE_CHARS);
        throw chatStatusError(response.status, response.headers, text, "ask the agent", run.secrets);
      } catch (error) {
        if (callerSignal?.aborted) throw stoppedByUser();
        // Waiting again after waiting the whole limit would only double the wait.
        if (idle.expired) throw chatTimedOut(idleTimeoutMs);
        failure = chatAttemptFailure(error, run.url, "ask the agent", run.secrets);
      }
      const delayMs = chatRetryDelay(attempt, failure, retryDelays);
      if (delayMs === null) throw failure;
      try {
        await sleep(delayMs, signal);
      } catch {
        throw idle.expired ? chatTimedOut(idleTimeoutMs) : stoppedByUser();
      }
    }
  }

  async function ask(request: AskRequest, askOptions: AskOptions = {}): Promise<AgentAnswer> {
    const { signal: callerSignal, onMessage } = askOptions;
    const run = startChatRun(options, request);
    const seen = (message: MergedChatMessage) => onMessage?.(message, run.messages());
    for (;;) {
      if (callerSignal?.aborted) throw stoppedByUser();
      await readLeg(run.nextLeg());
      if (!run.endLeg()) return run.answer();
    }

    /** Sends once (with retries) and reads the stream, up to its end or its suspension. */
    async function readLeg(request: ChatHttpRequest): Promise<void> {
      // One controller per request: the caller's abort reaches the transport through it, and
      // aborting it when we stop reading early releases the connection.
      const leg = new AbortController();
      const forwardAbort = () => leg.abort(callerSignal?.reason);
      callerSignal?.addEventListener("abort", forwardAbort, { once: true });
      const idle = idleTimer(idleTimeoutMs, () => leg.abort());
      try {
        const response = await send(run, request, leg.signal, callerSignal, idle);
        idle.touch();
        const source: ByteSource | string =
          typeof response.body === "string" || response.body === null
            ? (response.body ?? "").slice(0, MAX_CHAT_STREAM_BYTES)
            : untilAborted(limitedChunks(iterateChunks(response.body), idle, run), leg.signal);
        const lines = decodeNdjson(source, {
          onInvalidLine: run.invalidLine,
          maxLineLength: MAX_CHAT_LINE_CHARS,
        });
        for (;;) {
          let step: IteratorResult<unknown>;
          try {
            step = await lines.next();
          } catch (error) {
            if (callerSignal?.aborted) throw stoppedByUser();
            if (error instanceof NdjsonLineTooLong) {
              run.cut("too-large");
              return;
            }
            if (idle.expired) {
              // Whatever arrived is kept and marked; with nothing to show it is a time-out.
              if (finalAnswer(run.messages()) === null) throw chatTimedOut(idleTimeoutMs);
              run.cut("timeout");
              return;
            }
            if (error instanceof PlatformError) throw error;
            throw new PlatformError(
              "network",
              `The connection to the agent at ${run.url.host} broke while it was answering. Ask again.`,
              { cause: error },
            );
          }
          if (step.done || run.take(step.value, seen)) return;
        }
      } finally {
        idle.stop();
        callerSignal?.removeEventListener("abort", forwardAbort);
        leg.abort();
      }
    }
  }

  async function abort(chatId: string, sessionSettings?: SessionSettings): Promise<boolean> {
    const { url, request } = abortRequestOf(options, chatId, sessionSettings);
    const secrets = [options.apiKey];
    let response: HttpResponse;
    try {
      response = await transport(request);
    } catch (error) {
      throw chatAttemptFailure(error, url, "stop the answer", secrets);
    }
    const text = await readBodyText(response.body);
    if (response.status >= 200 && response.status < 300) return true;
    throw chatStatusError(response.status, response.headers, text, "stop the answer", secrets);
  }

  return { ask, abort };
}

// ---------------------------------------------------------------------------------------------
// The synchronous runner, for Apps Script: a server function cannot return a promise, and
// UrlFetchApp answers at once and whole.

/** Creates the agent chat over a synchronous transport: the same requests and rules as `createAgentChat`. */
export function createSyncAgentChat(options: SyncAgentChatOptions): SyncAgentChat {
  const retryDelays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;

  /** Sends the chat POST, retrying as `chatRetryDelay` says; returns the body of a 2xx. */
  function send(run: ChatRun, request: ChatHttpRequest): string {
    for (let attempt = 1; ; attempt++) {
      let failure: PlatformError;
      try {
        const response = options.transport(request);
        if (response.status >= 200 && response.status < 300) return response.body;
        throw chatStatusError(response.status, response.headers, response.body, "ask the agent", run.secrets);
      } catch (error) {
        failure = chatAttemptFailure(error, run.url, "ask the agent", run.secrets);
      }
      const delayMs = chatRetryDelay(attempt, failure, retryDelays);
      if (delayMs === null) throw failure;
      options.sleep(delayMs);
    }
  }

  function ask(request: AskRequest): AgentAnswer {
    const run = startChatRun(options, request);
    for (;;) {
      let body = send(run, run.nextLeg());
      if (body.length > MAX_CHAT_STREAM_BYTES) {
        body = body.slice(0, MAX_CHAT_STREAM_BYTES);
        run.cut("too-large");
      }
      let lines: unknown[];
      try {
        lines = decodeNdjsonText(body, {
          onInvalidLine: run.invalidLine,
          maxLineLength: MAX_CHAT_LINE_CHARS,
        });
      } catch (error) {
        if (!(error instanceof NdjsonLineTooLong)) throw error;
        lines = error.values;
        run.cut("too-large");
      }
      for (const line of lines) if (run.take(line)) break;
      if (!run.endLeg()) return run.answer();
    }
  }

  function abort(chatId: string, sessionSettings?: SessionSettings): boolean {
    const { url, request } = abortRequestOf(options, chatId, sessionSettings);
    const secrets = [options.apiKey];
    let response: ReturnType<SyncTransport>;
    try {
      response = options.transport(request);
    } catch (error) {
      throw chatAttemptFailure(error, url, "stop the answer", secrets);
    }
    if (response.status >= 200 && response.status < 300) return true;
    throw chatStatusError(response.status, response.headers, response.body, "stop the answer", secrets);
  }

  return { ask, abort };
}
