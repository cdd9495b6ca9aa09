/**
 * Agent chat (spec 4.2, platform-api.md B): `POST .../agents/{agentId}/chat/stream-chat-state`
 * answers NDJSON (served as `application/json`, chunked), `POST .../chat/abort` stops a run.
 *
 * A run is independent of the HTTP response that started it, as on the real service: it keeps the
 * lines it sent, so the same `messageId` re-subscribes to a running stream (replaying what was
 * sent) or replays a finished one, and resumes a suspended one. Threads belong to the caller's
 * identity (`sessionSettings.externalId`, or `internalId`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ChatRequestSchema, type UserAttribute } from "../core/schema.js";
import { CORS_HEADERS, describeZodIssues, HttpError, readJsonBody } from "./respond.js";
import { CONFIGURED_ATTRIBUTES, planAnswer, splitIntoPieces, type Topic } from "./scripted-agent.js";
import type { Agent, SandboxState } from "./state.js";

/** Delay between pieces of a `trigger:slow` stream. */
export const SLOW_DELAY_MS = 1500;
const MODEL = "sandbox-scripted-1";

type Line = Record<string, unknown>;

interface StoredMessage extends Line {
  id: string;
  role: string;
  content: string;
  graphPath: string[];
  sort: number;
}

interface Thread {
  chatId: string;
  agentId: string;
  owner: string;
  messages: StoredMessage[];
  turns: { messageId: string; input: string; topic: Topic }[];
  running: Run | null;
}

interface Subscriber {
  write(line: string): void;
  end(): void;
}

/** One step of a run: after `delay` ms, send a line (an object, or raw text for the malformed line). */
interface Step {
  delay: number;
  make: () => Line | string;
  /** The run pauses after this step (`__suspended__`); the same request resumes it. */
  suspends?: boolean;
}

interface Run {
  messageId: string;
  input: string;
  thread: Thread;
  steps: Step[];
  next: number;
  status: "running" | "suspended" | "done" | "aborted";
  /** Lines sent in the current segment (since start or resume), for re-subscribers. */
  lines: string[];
  subscribers: Set<Subscriber>;
  timer: NodeJS.Timeout | null;
  usage: { llmCalls: number; inputTokens: number; outputTokens: number };
}

interface Caller {
  owner: string;
  externalId: string;
  email?: string | undefined;
  userAttributes?: UserAttribute[] | undefined;
}

export class AgentChat {
  private readonly threads = new Map<string, Thread>();
  private readonly runs = new Map<string, Run>();
  private closed = false;

  constructor(
    private readonly state: SandboxState,
    private readonly chatDelayMs: number,
  ) {}

  /** Stops every run's timers and ends their streams (server shutdown). */
  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) {
      if (run.timer) clearTimeout(run.timer);
      run.timer = null;
      for (const s of run.subscribers) s.end();
      run.subscribers.clear();
    }
  }

  private caller(settings: {
    externalId?: string | undefined;
    internalId?: string | undefined;
    email?: string | undefined;
    userAttributes?: UserAttribute[] | undefined;
  }): Caller {
    for (const [i, a] of (settings.userAttributes ?? []).entries()) {
      if (!(CONFIGURED_ATTRIBUTES as readonly string[]).includes(a.name)) {
        throw new HttpError(
          400,
          `sessionSettings.userAttributes.${i}.name: "${a.name}" is not a configured attribute (configured: ${CONFIGURED_ATTRIBUTES.join(", ")}).`,
        );
      }
    }
    const common = { email: settings.email, userAttributes: settings.userAttributes };
    if (settings.externalId !== undefined) {
      const id = settings.externalId;
      if (id === "" || id !== id.trim() || id !== id.toLowerCase()) {
        throw new HttpError(400, "sessionSettings.externalId must be non-empty, lowercase and trimmed.");
      }
      return { owner: `external:${id}`, externalId: id, ...common };
    }
    if (settings.internalId !== undefined) {
      const user = this.state.users.find(
        (u) => String(u.id) === settings.internalId || u.email === settings.internalId,
      );
      if (!user) throw new HttpError(400, `sessionSettings.internalId: no user "${settings.internalId}".`);
      return {
        owner: `internal:${user.id}`,
        externalId: user.email,
        ...common,
        email: settings.email ?? user.email,
      };
    }
    throw new HttpError(400, "sessionSettings needs externalId (or internalId).");
  }

  private threadFor(agent: Agent, chatId: string, caller: Caller | null): Thread {
    const thread = this.threads.get(chatId);
    if (!thread || thread.agentId !== agent.id)
      throw new HttpError(404, `No chat "${chatId}" with this agent.`);
    if (caller && caller.owner !== thread.owner) {
      throw new HttpError(403, "This chat belongs to another user (sessionSettings.externalId).");
    }
    return thread;
  }

  /** POST .../chat/stream-chat-state */
  async stream(req: IncomingMessage, res: ServerResponse, agentId: string): Promise<void> {
    const agent = this.state.authorizeAgent(req, agentId);
    const body = await readJsonBody(req);
    if (body === undefined) throw new HttpError(400, "The chat request needs a JSON body.");
    const parsed = ChatRequestSchema.safeParse(body);
    if (!parsed.success)
      throw new HttpError(400, `Invalid chat request: ${describeZodIssues(parsed.error.issues)}`);
    const request = parsed.data;
    const caller = this.caller(request.sessionSettings);
    const input = request.input?.trim() ? request.input : undefined;

    // The same messageId: re-subscribe, replay or resume (platform-api.md B).
    const known = request.messageId ? this.runs.get(request.messageId) : undefined;
    if (known) {
      if (known.thread.agentId !== agent.id || (request.chatId && request.chatId !== known.thread.chatId)) {
        throw new HttpError(409, `messageId "${request.messageId}" was already used in another chat.`);
      }
      if (known.thread.owner !== caller.owner) {
        throw new HttpError(403, "This chat belongs to another user (sessionSettings.externalId).");
      }
      if (input !== undefined && input !== known.input) {
        throw new HttpError(409, `messageId "${request.messageId}" was already used for another question.`);
      }
      // Resume first: the new segment starts with a fresh __cutoff__, not the suspended lines.
      if (known.status === "suspended") this.resume(known);
      this.subscribe(known, res);
      return;
    }

    if (input === undefined) {
      if (!request.chatId)
        throw new HttpError(400, "input: a question is required (or a chatId to read a thread).");
      this.sendThread(this.threadFor(agent, request.chatId, caller), res);
      return;
    }

    let thread: Thread;
    if (request.chatId) {
      thread = this.threadFor(agent, request.chatId, caller);
      if (thread.running) {
        throw new HttpError(
          409,
          `A question is still being answered in chat "${thread.chatId}": wait or abort it.`,
        );
      }
    } else {
      thread = {
        chatId: crypto.randomUUID(),
        agentId: agent.id,
        owner: caller.owner,
        messages: [],
        turns: [],
        running: null,
      };
      this.threads.set(thread.chatId, thread);
    }
    const messageId = request.messageId ?? `${Date.now()}${String(this.runs.size).padStart(3, "0")}-message`;
    const run = this.startRun(agent, thread, caller, input, messageId);
    this.subscribe(run, res);
    this.advance(run);
  }

  /** POST .../chat/abort: 204 when stopped (or nothing was running), 404 unknown chat, 403 another caller's. */
  async abort(req: IncomingMessage, res: ServerResponse, agentId: string): Promise<void> {
    const agent = this.state.authorizeAgent(req, agentId);
    const body = await readJsonBody(req);
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
      caller = this.caller(settings.data);
    }
    const thread = this.threadFor(agent, record.chatId, caller);
    const run = thread.running;
    if (run) {
      if (run.timer) clearTimeout(run.timer);
      run.timer = null;
      if (run.status === "running") {
        this.emit(run, {
          id: "__aborted__",
          type: "abort",
          code: "chat_aborted",
          messageId: run.messageId,
          message: "The run was stopped by the caller.",
        });
        this.emit(run, this.usageLine(run));
      }
      this.finish(run, "aborted");
    }
    res.writeHead(204, CORS_HEADERS);
    res.end();
  }

  private sendThread(thread: Thread, res: ServerResponse): void {
    const lines: Line[] = [
      { id: "__cutoff__", sort: 0, state: { chatId: thread.chatId, isStreaming: thread.running !== null } },
      ...thread.messages.map((m) => ({ ...m, isDelta: false, isInProcess: false })),
      usageLine({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
    ];
    startStream(res);
    res.end(lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  }

  private startRun(agent: Agent, thread: Thread, caller: Caller, input: string, messageId: string): Run {
    const previous = thread.turns.at(-1);
    const plan = planAnswer({
      question: input,
      earlier: thread.turns.map((t) => t.input),
      previousTopic: previous?.topic,
      externalId: caller.externalId,
      email: caller.email,
      userAttributes: caller.userAttributes,
      reports: [...this.state.reports.values()].filter((r) => r.deploymentId === agent.deploymentId),
    });
    thread.turns.push({ messageId, input, topic: plan.topic });
    const q = input.toLowerCase();
    const slow = q.includes("trigger:slow");
    const d = this.chatDelayMs;
    const late = slow ? SLOW_DELAY_MS : d;
    const key = `${thread.chatId}-t${thread.turns.length}`;
    let sort = thread.messages.length;
    const s = () => ++sort;
    const chatId = thread.chatId;

    const run: Run = {
      messageId,
      input,
      thread,
      steps: [],
      next: 0,
      status: "running",
      lines: [],
      subscribers: new Set(),
      timer: null,
      usage: plan.usage,
    };
    const steps: Step[] = run.steps;
    steps.push({
      delay: 0,
      make: () => ({ id: "__cutoff__", sort: 0, state: { chatId, isStreaming: true } }),
    });
    const userSort = s();
    steps.push({
      delay: d,
      make: () => ({ id: messageId, role: "user", content: input, graphPath: [], sort: userSort }),
    });
    const progressSort = s();
    steps.push({
      delay: d,
      make: () => ({
        id: `${key}-progress`,
        role: "assistant",
        content: plan.progress,
        graphPath: ["analyst"],
        sort: progressSort,
        isInProcess: false,
      }),
    });
    if (q.includes("trigger:malformed")) {
      steps.push({
        delay: d,
        make: () => `{"id": "${key}-broken", "role": "assistant", "content": "this line is cut`,
      });
    }
    if (q.includes("trigger:error")) {
      steps.push({
        delay: d,
        make: () => ({ error: "The sandbox agent failed on purpose (trigger:error)." }),
      });
      steps.push({ delay: d, make: () => this.usageLine(run) });
      return this.register(run);
    }
    const toolSort = s();
    const tool = (result: boolean): Line => ({
      id: `${key}-tool`,
      role: "assistant",
      content: "",
      graphPath: ["analyst", "tools"],
      sort: toolSort,
      toolCall: {
        name: plan.toolCall.name,
        input: plan.toolCall.input,
        ...(result ? { result: plan.toolCall.result } : {}),
      },
      isInProcess: !result,
    });
    steps.push({ delay: d, make: () => tool(false) });
    steps.push({ delay: d, make: () => tool(true) });
    if (q.includes("trigger:suspend")) {
      steps.push({
        delay: d,
        suspends: true,
        make: () => ({
          id: "__suspended__",
          type: "suspend",
          code: "chat_suspended",
          retryable: true,
          messageId,
          error: "The run was suspended (trigger:suspend). Send the same request again to resume it.",
        }),
      });
    }
    const thinkingSort = s();
    steps.push({
      delay: late,
      make: () => ({
        id: `${key}-thinking`,
        role: "assistant",
        content: plan.thinking,
        graphPath: ["analyst"],
        sort: thinkingSort,
        isInProcess: false,
      }),
    });
    const answerSort = s();
    const pieces = splitIntoPieces(plan.answer, slow ? 12 : 6);
    pieces.forEach((piece, i) => {
      steps.push({
        delay: late,
        make: () => ({
          id: `${key}-answer`,
          role: "assistant",
          content: piece,
          graphPath: ["final"],
          sort: answerSort,
          isDelta: true,
          isInProcess: i < pieces.length - 1,
        }),
      });
    });
    steps.push({
      delay: d,
      make: () => ({
        id: "__state__",
        sort: s(),
        state: { chatId, isStreaming: false, messages: thread.messages.map((m) => ({ ...m })) },
      }),
    });
    steps.push({ delay: 0, make: () => this.usageLine(run) });
    return this.register(run);
  }

  private register(run: Run): Run {
    this.runs.set(run.messageId, run);
    run.thread.running = run;
    return run;
  }

  private usageLine(run: Run): Line {
    return usageLine(run.usage);
  }

  /** Runs the next steps: those without delay at once, then one timer for the next. */
  private advance(run: Run): void {
    if (run.timer !== null) return;
    while (run.status === "running" && !this.closed) {
      const step = run.steps[run.next];
      if (!step) {
        this.finish(run, "done");
        return;
      }
      if (step.delay > 0) {
        run.timer = setTimeout(() => {
          run.timer = null;
          if (run.status !== "running" || this.closed) return;
          this.runStep(run, step);
          this.advance(run);
        }, step.delay);
        return;
      }
      this.runStep(run, step);
    }
  }

  private runStep(run: Run, step: Step): void {
    run.next++;
    this.emit(run, step.make());
    if (step.suspends) {
      run.status = "suspended";
      for (const sub of run.subscribers) sub.end();
      run.subscribers.clear();
      run.thread.running = null;
    }
  }

  private resume(run: Run): void {
    run.status = "running";
    run.thread.running = run;
    run.lines = [];
    this.emit(run, { id: "__cutoff__", sort: 0, state: { chatId: run.thread.chatId, isStreaming: true } });
    this.advance(run);
  }

  private finish(run: Run, status: "done" | "aborted"): void {
    run.status = status;
    if (run.thread.running === run) run.thread.running = null;
    for (const sub of run.subscribers) sub.end();
    run.subscribers.clear();
  }

  /** Sends a line to every subscriber and records user and assistant messages in the thread. */
  private emit(run: Run, line: Line | string): void {
    const text = typeof line === "string" ? line : JSON.stringify(line);
    run.lines.push(text);
    if (typeof line !== "string" && typeof line.role === "string" && typeof line.id === "string") {
      mergeIntoThread(run.thread, line);
    }
    for (const sub of run.subscribers) sub.write(text);
  }

  /** Streams a run to `res`: what it sent so far, then live until it ends. */
  private subscribe(run: Run, res: ServerResponse): void {
    startStream(res);
    for (const line of run.lines) res.write(`${line}\n`);
    if (run.status === "done" || run.status === "aborted") {
      res.end();
      return;
    }
    const sub: Subscriber = {
      write: (line) => res.write(`${line}\n`),
      end: () => res.end(),
    };
    run.subscribers.add(sub);
    res.on("close", () => run.subscribers.delete(sub));
  }
}

function usageLine(u: { llmCalls: number; inputTokens: number; outputTokens: number }): Line {
  return {
    id: "__usage__",
    type: "usage",
    usage: {
      models: u.llmCalls ? [MODEL] : [],
      llmCalls: u.llmCalls,
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      totalTokens: u.inputTokens + u.outputTokens,
    },
  };
}

function startStream(res: ServerResponse): void {
  // NDJSON served as application/json, like the real service; no Content-Length: chunked.
  res.writeHead(200, {
    ...CORS_HEADERS,
    "Content-Type": "application/json",
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
  });
  res.flushHeaders();
}

/** Merges a streamed message into the thread by id: a delta adds to the content, else it replaces. */
function mergeIntoThread(thread: Thread, line: Line): void {
  const { isDelta, isInProcess: _inProcess, ...rest } = line;
  const existing = thread.messages.find((m) => m.id === line.id);
  if (existing && isDelta === true) {
    existing.content += String(line.content ?? "");
    return;
  }
  const message = { ...rest, content: String(line.content ?? "") } as StoredMessage;
  if (existing) Object.assign(existing, message);
  else thread.messages.push(message);
}
