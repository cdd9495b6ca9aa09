import { describe, expect, it } from "vitest";
import { abortUrlOf, CHAT_PATH, createSyncAgentChat } from "../../src/core/index.js";

const CHAT = "https://ai.reporting.example/api/v1/public/acme/agents/a1/chat/stream-chat-state";

describe("the agent's chat and abort URLs, built once", () => {
  it("a chat URL ends in the chat path; its abort URL swaps it for /chat/abort, the query kept", () => {
    expect(CHAT.endsWith(CHAT_PATH)).toBe(true);
    expect(abortUrlOf(CHAT)).toBe("https://ai.reporting.example/api/v1/public/acme/agents/a1/chat/abort");
    expect(abortUrlOf(`${CHAT}?region=eu`)).toBe(
      "https://ai.reporting.example/api/v1/public/acme/agents/a1/chat/abort?region=eu",
    );
    expect(abortUrlOf("https://ai.reporting.example/other")).toBe("https://ai.reporting.example/other");
  });

  it("the chat client's Stop posts to that abort URL", () => {
    const sent: string[] = [];
    const chat = createSyncAgentChat({
      chatUrl: `${CHAT}?region=eu`,
      apiKey: "ak-1",
      transport: (request) => {
        sent.push(`${request.method} ${request.url}`);
        return { status: 204, headers: {}, body: "" };
      },
      sleep: () => {},
      randomBytes: (n) => new Uint8Array(n),
    });
    expect(chat.abort("chat-1")).toBe(true);
    expect(sent).toEqual([`POST ${abortUrlOf(`${CHAT}?region=eu`)}`]);
  });
});
