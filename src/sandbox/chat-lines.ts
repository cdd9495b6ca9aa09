/**
 * The control lines of the chat stream (platform-api.md, Agent chat): `__cutoff__` opens every stream, `__usage__`
 * closes it, `__aborted__` ends a run stopped by `/chat/abort`. Content lines are the scripted
 * turn's (`chat-turn-script.ts`).
 */

/** One line of the stream, as an object (the malformed line of `trigger:malformed` is raw text). */
export type Line = Record<string, unknown>;

export interface Usage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
}

const MODEL = "sandbox-scripted-1";

export function cutoffLine(chatId: string, isStreaming: boolean): Line {
  return { id: "__cutoff__", sort: 0, state: { chatId, isStreaming } };
}

export function usageLine(u: Usage): Line {
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

export function abortedLine(messageId: string): Line {
  return {
    id: "__aborted__",
    type: "abort",
    code: "chat_aborted",
    messageId,
    message: "The run was stopped by the caller.",
  };
}
