/**
 * One turn of the scripted agent as a timed list of lines, in the real service's order (platform-api.md, Agent chat):
 * `__cutoff__`, the user's message, progress, the tool call and its result, a non-final message,
 * the answer in deltas, `__state__`, `__usage__`. Trigger words in the question bend the script
 * (`trigger:error`, `trigger:malformed`, `trigger:suspend`, `trigger:slow`).
 */
import type { Report } from "../core/schema.js";
import type { Caller } from "./chat-callers.js";
import { cutoffLine, type Line, usageLine } from "./chat-lines.js";
import type { Step, Thread, TurnScript } from "./chat-types.js";
import { planAnswer, splitIntoPieces } from "./scripted-agent.js";

/** Delay between pieces of a `trigger:slow` stream. */
const SLOW_DELAY_MS = 1500;

export type { Step, TurnScript };

export interface TurnInput {
  thread: Thread;
  caller: Caller;
  input: string;
  messageId: string;
  /** The reports of the agent's deployment, as they stand now. */
  reports: readonly Report[];
  /** The pause between lines (`--chat-delay-ms`). */
  chatDelayMs: number;
}

/** The script of the next turn of `thread`; its lines are made when sent, so `__state__` is current. */
export function scriptTurn({
  thread,
  caller,
  input,
  messageId,
  reports,
  chatDelayMs,
}: TurnInput): TurnScript {
  const plan = planAnswer({
    question: input,
    earlier: thread.turns.map((t) => t.input),
    previousTopic: thread.turns.at(-1)?.topic,
    externalId: caller.externalId,
    email: caller.email,
    userAttributes: caller.userAttributes,
    reports,
  });
  const q = input.toLowerCase();
  const slow = q.includes("trigger:slow");
  const d = chatDelayMs;
  const late = slow ? SLOW_DELAY_MS : d;
  const key = `${thread.chatId}-t${thread.turns.length + 1}`;
  let sort = thread.messages.length;
  const s = () => ++sort;
  const chatId = thread.chatId;
  const steps: Step[] = [];
  const script: TurnScript = { steps, usage: plan.usage, topic: plan.topic };

  steps.push({ delay: 0, make: () => cutoffLine(chatId, true) });
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
    steps.push({ delay: d, make: () => usageLine(plan.usage) });
    return script;
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
  steps.push({ delay: 0, make: () => usageLine(plan.usage) });
  return script;
}
