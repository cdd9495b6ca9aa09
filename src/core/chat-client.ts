/**
 * The agent chat client (platform-api.md, Agent chat; auth rule 6) over a transport the caller
 * passes in. Two thin runners share the sans-I/O rules of chat-request.ts: `createAgentChat` over an
 * async transport (it reads the answer as it streams) and `createSyncAgentChat` over a synchronous
 * one (Apps Script, where a server function cannot return a promise and UrlFetchApp answers whole).
 */
import { finalAnswer, type MergedChatMessage } from "./chat-messages.js";
import {
  type AgentAnswer,
  type AskRequest,
  abortRequestOf,
  type ChatHttpRequest,
  type ChatRun,
  chatAttemptFailure,
  chatRetryDelay,
  chatStatusError,
  DEFAULT_RETRY_DELAYS_MS,
  type RandomBytes,
  startChatRun,
} from "./chat-request.js";
import { PlatformError } from "./errors.js";
import {
  CHAT_IDLE_TIMEOUT_MS,
  MAX_CHAT_LINE_CHARS,
  MAX_CHAT_STREAM_BYTES,
  REQUEST_TIMEOUT_MS,
} from "./limits.js";
import { decodeNdjson, decodeNdjsonText, NdjsonLineTooLong } from "./ndjson.js";
import type { SessionSettings } from "./schema.js";
import {
  type ByteSource,
  type HttpResponse,
  iterateChunks,
  readBodyText,
  type SyncTransport,
  type Transport,
} from "./transport.js";

export interface AgentChatOptions {
  /** The agent's chat URL from its settings; its path ends in `/chat/stream-chat-state`. */
  chatUrl: string;
  /** An API key with access to the agent (auth rule 6). */
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
  /** How long a stop (`/chat/abort`) may take, answer and body (REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** Waits before retry 1 and 2, in ms (platform-api.md: bounded retry with backoff). */
  retryDelaysMs?: readonly number[];
  /** How to wait; injectable so tests need not sleep. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface AskOptions {
  signal?: AbortSignal;
  /** Called as each line arrives, with the message as merged so far and all messages so far. */
  onMessage?: (message: MergedChatMessage, all: readonly MergedChatMessage[]) => void;
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
  /** An API key with access to the agent (auth rule 6). */
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
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

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

  /**
   * Stops a run. Bounded like every other request: the whole exchange (answer and body) within
   * REQUEST_TIMEOUT_MS, and of the body no more than MAX_CHAT_LINE_CHARS is read (a 2xx's body is
   * not read at all).
   */
  async function abort(chatId: string, sessionSettings?: SessionSettings): Promise<boolean> {
    const { url, request } = abortRequestOf(options, chatId, sessionSettings);
    const secrets = [options.apiKey];
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, requestTimeoutMs);
    try {
      const response = await transport({ ...request, signal: controller.signal });
      if (response.status >= 200 && response.status < 300) return true;
      const text = await readBodyText(response.body, MAX_CHAT_LINE_CHARS).catch((error: unknown) => {
        // Past the cap the status alone tells what happened; the rest is not read.
        if (error instanceof PlatformError && !timedOut) return "";
        throw error;
      });
      throw chatStatusError(response.status, response.headers, text, "stop the answer", secrets);
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      if (timedOut) {
        throw new PlatformError(
          "timeout",
          `The agent did not confirm the stop within ${Math.round(requestTimeoutMs / 1000)} s. The answer may still be running; ask again later.`,
        );
      }
      throw chatAttemptFailure(error, url, "stop the answer", secrets);
    } finally {
      clearTimeout(timer);
      // Frees the connection of an answer not read to its end.
      controller.abort();
    }
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
