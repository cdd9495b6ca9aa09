/**
 * Agent chat over HTTP (platform-api.md, Agent chat): `POST .../agents/{agentId}/chat/stream-chat-state`
 * answers NDJSON (served as `application/json`, chunked, each line sent as it is produced), and
 * `POST .../chat/abort` stops a run. This file reads the requests and shapes the answers; callers,
 * threads, runs and the agent's script each live in their own file.
 */
import { ChatRequestSchema } from "../core/schema.js";
import { type Caller, identifyCaller } from "./chat-callers.js";
import { type Run, RunScheduler, type Subscriber } from "./chat-runs.js";
import { type Thread, ThreadStore, threadLines } from "./chat-threads.js";
import { scriptTurn } from "./chat-turn-script.js";
import { describeZodIssues, HttpError, readJsonBody } from "./respond.js";
import type { SandboxState } from "./state.js";

export class ChatEndpoints {
  private readonly threads = new ThreadStore();
  private readonly runs = new RunScheduler();

  constructor(
    private readonly state: SandboxState,
    private readonly chatDelayMs: number,
  ) {}

  /** Stops every run's timers and ends their streams (server shutdown). */
  close(): void {
    this.runs.close();
  }

  /** POST .../chat/stream-chat-state */
  async stream(request: Request, agentId: string): Promise<Response> {
    const agent = this.state.authorizeAgent(request, agentId);
    const body = await readJsonBody(request);
    if (body === undefined) throw new HttpError(400, "The chat request needs a JSON body.");
    const parsed = ChatRequestSchema.safeParse(body);
    if (!parsed.success)
      throw new HttpError(400, `Invalid chat request: ${describeZodIssues(parsed.error.issues)}`);
    const chat = parsed.data;
    const caller = identifyCaller(this.state.users, chat.sessionSettings);
    const input = chat.input?.trim() ? chat.input : undefined;

    // The same messageId: re-subscribe, replay or resume (platform-api.md, Agent chat).
    const known = chat.messageId ? this.runs.find(chat.messageId) : undefined;
    if (known) {
      if (known.thread.agentId !== agent.id || (chat.chatId && chat.chatId !== known.thread.chatId)) {
        throw new HttpError(409, `messageId "${chat.messageId}" was already used in another chat.`);
      }
      if (known.thread.owner !== caller.owner) {
        throw new HttpError(403, "This chat belongs to another user (sessionSettings.externalId).");
      }
      if (input !== undefined && input !== known.input) {
        throw new HttpError(409, `messageId "${chat.messageId}" was already used for another question.`);
      }
      // Resume first: the new segment starts with a fresh __cutoff__, not the suspended lines.
      if (known.status === "suspended") this.runs.resume(known);
      return this.streamOf(known);
    }

    if (input === undefined) {
      if (!chat.chatId)
        throw new HttpError(400, "input: a question is required (or a chatId to read a thread).");
      const lines = threadLines(this.threads.get(agent.id, chat.chatId, caller));
      return ndjsonResponse((sub) => {
        for (const line of lines) sub.write(JSON.stringify(line));
        sub.end();
        return () => undefined;
      });
    }

    let thread: Thread;
    if (chat.chatId) {
      thread = this.threads.get(agent.id, chat.chatId, caller);
      if (thread.running) {
        throw new HttpError(
          409,
          `A question is still being answered in chat "${thread.chatId}": wait or abort it.`,
        );
      }
    } else {
      thread = this.threads.open(agent.id, caller.owner);
    }
    const messageId = chat.messageId ?? `${Date.now()}${String(this.runs.size).padStart(3, "0")}-message`;
    const reports = [...this.state.reports.values()].filter((r) => r.deploymentId === agent.deploymentId);
    const script = scriptTurn({ thread, caller, input, messageId, reports, chatDelayMs: this.chatDelayMs });
    thread.turns.push({ messageId, input, topic: script.topic });
    const run = this.runs.start(thread, messageId, input, script);
    const response = this.streamOf(run);
    this.runs.advance(run);
    return response;
  }

  /** POST .../chat/abort: 204 when stopped (or nothing was running), 404 unknown chat, 403 another caller's. */
  async abort(request: Request, agentId: string): Promise<Response> {
    const agent = this.state.authorizeAgent(request, agentId);
    const body = await readJsonBody(request);
    const record =
      body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
    if (!record || typeof record.chatId !== "string" || record.chatId === "") {
      throw new HttpError(400, "chatId: a string is required.");
    }
    let caller: Caller | null = null;
    if (record.sessionSettings !== undefined) {
      const settings = ChatRequestSchema.shape.sessionSettings.safeParse(record.sessionSettings);
      if (!settings.success) {
        throw new HttpError(400, `Invalid sessionSettings: ${describeZodIssues(settings.error.issues)}`);
      }
      caller = identifyCaller(this.state.users, settings.data);
    }
    const thread = this.threads.get(agent.id, record.chatId, caller);
    if (thread.running) this.runs.abort(thread.running);
    return new Response(null, { status: 204 });
  }

  /** A run as an answer: what it sent so far, then live until it ends; a caller leaving only unsubscribes. */
  private streamOf(run: Run): Response {
    return ndjsonResponse((sub) => this.runs.subscribe(run, sub));
  }
}

/**
 * An NDJSON answer fed by `feed`, which gets a subscriber and returns how to stop feeding it (when
 * the caller disconnects). Each line is enqueued as it is written, so it leaves at once.
 */
function ndjsonResponse(feed: (subscriber: Subscriber) => () => void): Response {
  const encoder = new TextEncoder();
  let open = true;
  let stop: () => void = () => undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stop = feed({
        write(line) {
          if (open) controller.enqueue(encoder.encode(`${line}\n`));
        },
        end() {
          if (!open) return;
          open = false;
          controller.close();
        },
      });
    },
    cancel() {
      open = false;
      stop();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      // NDJSON served as application/json, like the real service, and always chunked (never a
      // Content-Length, even for a stream that is complete at once: a replay or a thread).
      "Content-Type": "application/json",
      "Transfer-Encoding": "chunked",
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
