/**
 * The agent chat for Apps Script, where a request answers at once and whole: the same request and
 * rules as the core's streaming client (spec 4.2, 5 rule 6), read with the core's whole-text NDJSON
 * decoder, message merger and answer rules.
 *
 * The core's `createAgentChat` is asynchronous (it reads a stream) and an Apps Script server
 * function cannot return a promise, so the request loop is repeated here in its synchronous form:
 * - `Authorization: Api-Key <key>`, a `messageId` of `<ms>-message` kept for every attempt;
 * - network failures, 408, 429 and 5xx retried at most twice (safe: same messageId);
 * - an `{"error": ...}` line ends the answer with a "stream" error; `__aborted__` with "aborted";
 * - `__suspended__` resends the same request once (same messageId, the chat id known so far) and
 *   reads the new answer as a replay; a second suspension is a "stream" error.
 */
import {
  ABORTED_ID,
  type AgentAnswer,
  conversationId,
  createMessageMerger,
  decodeNdjsonText,
  finalAnswer,
  type MergedChatMessage,
  SUSPENDED_ID,
} from "../../../core/chat.js";
import {
  errorFromStatus,
  invalidResponse,
  PlatformError,
  redact,
  serviceMessageOf,
} from "../../../core/errors.js";
import { type ChatRequest, ChatRequestSchema, type SessionSettings } from "../../../core/schema.js";
import { requireSecureUrl, type SyncTransport } from "../../../core/transport.js";
import { abortUrlOf } from "./url-fetch-transport.js";

const CHAT_SUFFIX = "/chat/stream-chat-state";
const RETRY_DELAYS_MS = [300, 1000] as const;
const MAX_RETRY_AFTER_MS = 10_000;

export interface SyncAgentChatOptions {
  chatUrl: string;
  apiKey: string;
  transport: SyncTransport;
  sleep: (ms: number) => void;
  now?: () => number;
}

export interface SyncAskRequest {
  input?: string;
  chatId?: string;
  sessionSettings: SessionSettings;
}

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** An `{"error": ...}` line (no id, no role) carries its text in `error` (a string or `{message}`). */
function streamErrorOf(line: unknown): string | null {
  if (line === null || typeof line !== "object" || Array.isArray(line)) return null;
  const rec = line as Record<string, unknown>;
  if (rec.id !== undefined || rec.role !== undefined || rec.error == null) return null;
  return serviceMessageOf(JSON.stringify({ error: rec.error })) ?? "unknown error";
}

export function createSyncAgentChat(options: SyncAgentChatOptions) {
  const now = options.now ?? Date.now;
  const secrets = [options.apiKey];
  const headers = (): Record<string, string> => ({
    "Content-Type": "application/json",
    Accept: "application/x-ndjson, application/json",
    // Spec 5 rule 6: the chat takes `Api-Key`, not `Bearer` like the management API.
    Authorization: `Api-Key ${options.apiKey}`,
  });

  function chatUrl(): string {
    const url = requireSecureUrl(options.chatUrl, "The agent chat URL");
    if (!url.pathname.endsWith(CHAT_SUFFIX)) {
      throw new PlatformError(
        "bad-request",
        `The agent chat URL must end in ${CHAT_SUFFIX}. Copy it from the agent's settings in the Reporting Platform.`,
      );
    }
    return options.chatUrl;
  }

  function hostOf(url: string): string {
    return requireSecureUrl(url).host;
  }

  function networkError(url: string, action: string, cause: unknown): PlatformError {
    const detail = cause instanceof Error ? redact(cause.message, secrets) : "";
    return new PlatformError(
      "network",
      `Could not reach the agent at ${hostOf(url)} to ${action}${detail ? ` (${detail})` : ""}. Check your connection and the agent chat URL in Settings, then try again.`,
    );
  }

  /** One POST, retried on network failures and transient statuses; returns the body of a 2xx. */
  function send(url: string, body: string): string {
    for (let attempt = 0; ; attempt++) {
      let failure: PlatformError;
      try {
        const response = options.transport({ method: "POST", url, headers: headers(), body });
        if (response.status >= 200 && response.status < 300) return response.body;
        failure = errorFromStatus(response.status, response.body, response.headers, {
          credential: "agent-key",
          action: "ask the agent",
          secrets,
        });
        if (!isTransientStatus(response.status)) throw failure;
      } catch (error) {
        if (error instanceof PlatformError) {
          if (!(error.kind === "network" || (error.status != null && isTransientStatus(error.status)))) {
            throw error;
          }
          failure = error;
        } else {
          failure = networkError(url, "ask the agent", error);
        }
      }
      const planned = RETRY_DELAYS_MS[attempt];
      if (planned === undefined) throw failure;
      const retryAfterMs = failure.retryAfterSeconds != null ? failure.retryAfterSeconds * 1000 : 0;
      if (retryAfterMs > MAX_RETRY_AFTER_MS) throw failure;
      options.sleep(Math.max(planned, retryAfterMs));
    }
  }

  function ask(request: SyncAskRequest): AgentAnswer {
    const url = chatUrl();
    const settings = request.sessionSettings;
    const candidate = {
      input: request.input,
      chatId: request.chatId || undefined,
      messageId: `${now()}-message`,
      // platform-api.md: the external id is lowercase and trimmed.
      sessionSettings:
        settings && typeof settings.externalId === "string"
          ? { ...settings, externalId: settings.externalId.trim().toLowerCase() }
          : settings,
    };
    const parsed = ChatRequestSchema.safeParse(candidate);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first && first.path.length > 0 ? `${first.path.map(String).join(".")}: ` : "";
      throw new PlatformError(
        "bad-request",
        `The question could not be sent (${where}${first?.message ?? "invalid request"}). Check the agent settings (external id, user attributes).`,
      );
    }
    const chatRequest: ChatRequest = parsed.data;
    if (chatRequest.input === undefined && !chatRequest.chatId) {
      throw new PlatformError("bad-request", "Type a question first.");
    }
    const messageId = chatRequest.messageId as string;
    const merger = createMessageMerger();
    let chatId = chatRequest.chatId;
    for (let suspensions = 0; ; ) {
      const suspended = readAnswer(send(url, JSON.stringify({ ...chatRequest, chatId })));
      if (suspended === null) break;
      suspensions += 1;
      const detail = typeof suspended.error === "string" ? redact(suspended.error, secrets) : null;
      if (suspensions > 1 || (suspended as { retryable?: unknown }).retryable === false) {
        throw new PlatformError(
          "stream",
          "The agent's run was interrupted again before it finished (the service restarted). Ask again in a minute.",
          { serviceMessage: detail },
        );
      }
      // The same request again (same messageId) resumes the run; a new conversation's id is
      // known only from this answer's __cutoff__ (spec 4.2 rule 4).
      chatId = chatId ?? conversationId(merger.messages()) ?? undefined;
      merger.beginReplay();
    }
    const messages = merger.messages();
    return {
      answer: finalAnswer(messages),
      chatId: conversationId(messages) ?? chatRequest.chatId ?? null,
      messageId,
      messages,
    };

    /** Reads one whole answer into the merger; returns the suspension line, if any. */
    function readAnswer(text: string): MergedChatMessage | null {
      let invalidLines = 0;
      const lines = decodeNdjsonText(text, {
        onInvalidLine: () => {
          invalidLines += 1;
        },
      });
      for (const line of lines) {
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
          continue;
        }
        if (message.id === ABORTED_ID) {
          throw new PlatformError(
            "aborted",
            "The answer was stopped before it was finished. Ask again to get a full answer.",
          );
        }
        // Nothing after a suspension belongs to this run: the resumed request carries on.
        if (message.id === SUSPENDED_ID) return message;
      }
      if (lines.length === 0 && invalidLines > 0) throw invalidResponse("an answer", "not NDJSON");
      return null;
    }
  }

  /** Stops a running answer (POST `/chat/abort`); a 2xx is success. */
  function abort(chatId: string, sessionSettings?: SessionSettings): void {
    const url = abortUrlOf(chatUrl());
    const body = JSON.stringify(sessionSettings ? { chatId, sessionSettings } : { chatId });
    let response: ReturnType<SyncTransport>;
    try {
      response = options.transport({ method: "POST", url, headers: headers(), body });
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      throw networkError(url, "stop the answer", error);
    }
    if (response.status >= 200 && response.status < 300) return;
    throw errorFromStatus(response.status, response.body, response.headers, {
      credential: "agent-key",
      action: "stop the answer",
      secrets,
    });
  }

  return { ask, abort };
}
