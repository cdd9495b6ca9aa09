/**
 * Asking the agent within Apps Script's limits. UrlFetchApp cannot stream: it hands back the
 * answer whole, and gives up on a fetch after about 60 seconds; one execution (this google.script.run
 * call) ends after 6 minutes, whatever the script is doing. So:
 *
 * - a fetch that times out is sent again with the same `messageId`, which re-subscribes to the run
 *   still going on the service (platform-api.md: the same messageId is idempotent), as long as
 *   another full fetch fits in what is left of the 6 minutes;
 * - when it no longer fits, the answer ends with a "timeout" PlatformError that says the agent is
 *   still working and how to get the answer: asking the same question again sends the same
 *   messageId (the sidebar keeps it), so the finished run is replayed and its conversation goes on;
 * - the sidebar's Stop is addressed by the request's own messageId (`stopAnswer`), because the
 *   conversation id of a new conversation is only known once its answer arrives: the running
 *   execution checks that flag before every attempt and discards a late answer.
 *
 * No Apps Script names here: the clock, the wait and the flag are passed in (main.ts wires them).
 */
import type { SyncAgentChat } from "../../../core/chat-client.js";
import { type AgentAnswer, type AskRequest, isTransientChatFailure } from "../../../core/chat-request.js";
import { PlatformError } from "../../../core/errors.js";

/** Apps Script ends an execution after 6 minutes. */
const EXECUTION_LIMIT_MS = 6 * 60_000;
/** UrlFetchApp gives up on a fetch after about 60 seconds. */
const FETCH_LIMIT_MS = 60_000;
/** Kept free at the end of the execution: the answer still has to travel back to the sidebar. */
const SAFETY_MS = 15_000;
/** A network failure that took this long is UrlFetchApp's time-out, not a refused connection. */
const TIMED_OUT_AFTER_MS = 45_000;
/** Quick failures (a dropped connection, 408, 429, 5xx) are retried twice, as the core does. */
const RETRY_DELAYS_MS = [300, 1000] as const;
const MAX_RETRY_AFTER_MS = 10_000;

/** platform-api.md: a messageId is a Unix-millisecond timestamp followed by `-message`. */
export const MESSAGE_ID_PATTERN = /^\d{13,30}-message$/;

export interface AskWithinLimitsOptions {
  /** The chat over UrlFetchApp, with the core's own retries off (they would not watch the clock). */
  chat: SyncAgentChat;
  /** The request, with its messageId fixed: every attempt must carry the same one. */
  request: AskRequest & { messageId: string };
  /** When this execution started, and the clock (Date.now). */
  startedAt: number;
  now: () => number;
  /** A blocking wait (Utilities.sleep). */
  sleep: (ms: number) => void;
  /** Whether the sidebar asked to stop this messageId's answer. */
  stopRequested: () => boolean;
}

function stoppedByUser(): PlatformError {
  return new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.");
}

function stillWorking(): PlatformError {
  return new PlatformError(
    "timeout",
    "The agent is still working on this answer, longer than Google Sheets can wait for one question (about 5 minutes). Ask the same question again in a minute to get its answer; the conversation is kept.",
  );
}

/** Asks, re-subscribing after UrlFetchApp's time-outs while the execution has time; see above. */
export function askWithinLimits(options: AskWithinLimitsOptions): AgentAnswer {
  const { chat, request, startedAt, now, sleep, stopRequested } = options;
  let quickFailures = 0;
  for (;;) {
    if (stopRequested()) throw stoppedByUser();
    const left = startedAt + EXECUTION_LIMIT_MS - now();
    if (left < FETCH_LIMIT_MS + SAFETY_MS) throw stillWorking();
    const sentAt = now();
    try {
      const answer = chat.ask(request);
      // Stopped while the answer travelled: the sidebar has moved on, and shows nothing late.
      if (stopRequested()) throw stoppedByUser();
      return answer;
    } catch (error) {
      if (!(error instanceof PlatformError) || !isTransientChatFailure(error)) throw error;
      if (error.kind === "network" && now() - sentAt >= TIMED_OUT_AFTER_MS) {
        // UrlFetchApp's time-out: the run goes on at the service; ask for it again.
        quickFailures = 0;
        continue;
      }
      const planned = RETRY_DELAYS_MS[quickFailures];
      const retryAfterMs = (error.retryAfterSeconds ?? 0) * 1000;
      if (planned === undefined || retryAfterMs > MAX_RETRY_AFTER_MS) throw error;
      quickFailures += 1;
      sleep(Math.max(planned, retryAfterMs));
    }
  }
}
