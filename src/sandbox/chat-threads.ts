/**
 * The chat threads: each belongs to one agent and one owner, and keeps its messages merged as they
 * were streamed, so a follow-up keeps the conversation and `{chatId}` without input reads it back.
 */
import type { Caller } from "./chat-callers.js";
import { cutoffLine, type Line, usageLine } from "./chat-lines.js";
import type { StoredMessage, Thread } from "./chat-types.js";
import { HttpError } from "./respond.js";

export type { Thread };

export class ThreadStore {
  private readonly threads = new Map<string, Thread>();

  /** A new, empty thread with a fresh chatId. */
  open(agentId: string, owner: string): Thread {
    const thread: Thread = {
      chatId: crypto.randomUUID(),
      agentId,
      owner,
      messages: [],
      turns: [],
      running: null,
    };
    this.threads.set(thread.chatId, thread);
    return thread;
  }

  /**
   * The thread `chatId` of this agent: 404 when unknown or another agent's, 403 when `caller` is
   * given and is not its owner.
   */
  get(agentId: string, chatId: string, caller: Caller | null): Thread {
    const thread = this.threads.get(chatId);
    if (!thread || thread.agentId !== agentId)
      throw new HttpError(404, `No chat "${chatId}" with this agent.`);
    if (caller && caller.owner !== thread.owner) {
      throw new HttpError(403, "This chat belongs to another user (sessionSettings.externalId).");
    }
    return thread;
  }
}

/** The thread read back as a stream: `__cutoff__`, the stored messages, `__usage__` (no model call). */
export function threadLines(thread: Thread): Line[] {
  return [
    cutoffLine(thread.chatId, thread.running !== null),
    ...thread.messages.map((m) => ({ ...m, isDelta: false, isInProcess: false })),
    usageLine({ llmCalls: 0, inputTokens: 0, outputTokens: 0 }),
  ];
}

/** Merges a streamed message into the thread by id: a delta adds to the content, else it replaces. */
export function mergeIntoThread(thread: Thread, line: Line): void {
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
