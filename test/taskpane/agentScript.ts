/**
 * Scripted agents for the chat tests: a stream merged by message id the way the core merges it,
 * and an agent that answers one text.
 */
import { type ChatMessage, finalAnswer, type MergedChatMessage } from "../../src/core/chat-messages.js";
import type { AgentAnswer } from "../../src/core/chat-request.js";
import { PlatformError } from "../../src/core/errors.js";
import type { AskInput, AskOptions } from "../../src/hosts/host.js";
import { click, fieldByLabel, waitFor } from "../support/fakeHost.js";

export type Ask = (request: AskInput, options: AskOptions) => Promise<AgentAnswer>;

/** A scripted agent: streams `lines` (merged by id like the core does) and answers with them. */
export function streamOf(lines: ChatMessage[], options: AskOptions): AgentAnswer {
  const merged = new Map<string, MergedChatMessage>();
  for (const line of lines) {
    const id = line.id as string;
    const previous = merged.get(id);
    const next =
      previous && line.isDelta
        ? { ...previous, ...line, id, content: (previous.content ?? "") + (line.content ?? "") }
        : ({ ...line, id } as MergedChatMessage);
    merged.set(id, next);
    options.onMessage?.(next, [...merged.values()]);
  }
  const messages = [...merged.values()];
  const cutoff = messages.find((m) => m.id === "__cutoff__");
  return {
    answer: finalAnswer(messages),
    chatId: (cutoff?.state?.chatId as string) ?? null,
    messageId: "1-message",
    messages,
    incomplete: null,
  };
}

export function answerWith(text: string, chatId = "chat-1"): Ask {
  return async (_request, options) =>
    streamOf(
      [
        { id: "__cutoff__", state: { chatId } },
        { id: "final-1", role: "assistant", graphPath: ["final"], content: text },
      ],
      options,
    );
}

/** An agent that works on one step, then answers: the answer comes with "1 step" to disclose. */
export function answerWithStep(text: string, chatId = "chat-1"): Ask {
  return async (_request, options) =>
    streamOf(
      [
        { id: "__cutoff__", state: { chatId } },
        {
          id: "tool-1",
          role: "assistant",
          graphPath: ["cube_data_analyst_agent", "tools"],
          content: "",
          toolCall: { name: "query_revenue", result: "ok" },
        } as ChatMessage,
        { id: "final-1", role: "assistant", graphPath: ["final"], content: text },
      ],
      options,
    );
}

/** An agent that streams a conversation id, then waits until stopped (rejecting with "aborted"). */
export function waitsUntilStopped(chatId = "chat-7"): Ask {
  return (_request, options) => {
    streamOf([{ id: "__cutoff__", state: { chatId } }], options);
    return new Promise((_resolve, reject) => {
      options.signal?.addEventListener("abort", () =>
        reject(new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.")),
      );
    });
  };
}

/** An agent that refuses the key with this error. */
export function refusedWith(error: unknown): Ask {
  return async () => {
    throw error;
  };
}

/**
 * Shows the Ask view and waits for its question box: a pane with tabs shows it behind its "Ask"
 * tab; a pane without shows it always. Throws when the question box stays hidden.
 */
export async function showAsk(root: HTMLElement): Promise<HTMLElement> {
  const tab = [...root.querySelectorAll('[role="tab"]')].find((t) => t.textContent?.trim() === "Ask");
  if (tab) await click(tab);
  await waitFor(() => {
    const box = fieldByLabel(root, "Ask the agent");
    if (box.closest("[hidden]")) throw new Error("the Ask view is hidden");
  });
  return root;
}
