/**
 * A service's message is redacted whole before it is cut to its display length: a key that
 * straddles the cut never shows its first characters, and a key's URL-encoded form is redacted too.
 */
import { describe, expect, it } from "vitest";
import { errorFromStatus } from "../../src/core/errors.js";
import { createAgentChat } from "../../src/core/index.js";
import type { Transport } from "../../src/core/transport.js";

const KEY = "sk-live-Zq9/Xw+7Hk3Lm2Pn8Rt";

function shown(body: string): string {
  const error = errorFromStatus(400, body, {}, { secrets: [KEY] });
  return `${error.message}\n${error.serviceMessage ?? ""}`;
}

describe("redaction before truncation", () => {
  for (const [kind, at, wrap] of [
    ["a JSON message (cut at 500)", 490, (t: string) => JSON.stringify({ message: t })],
    ["plain text (cut at 300)", 290, (t: string) => t],
    ["HTML (cut at 300)", 290, (t: string) => `<html><body><p>${t}</p></body></html>`],
  ] as const) {
    it(`${kind}: a key across the cut shows none of its characters`, () => {
      const text = `${"a".repeat(at)}${KEY} and more`;
      const out = shown(wrap(text));
      expect(out).not.toContain(KEY.slice(0, 6));
    });
  }

  it("the key's URL-encoded form is redacted too", () => {
    const out = shown(
      JSON.stringify({ message: `Bad token in https://x.example/?key=${encodeURIComponent(KEY)}` }),
    );
    expect(out).not.toContain(encodeURIComponent(KEY));
    expect(out).toContain("[redacted]");
  });

  it("an error line of the agent's stream: the same", async () => {
    const transport: Transport = async () => ({
      status: 200,
      headers: {},
      body: `${JSON.stringify({ error: { message: `${"b".repeat(494)}${KEY}` } })}\n`,
    });
    const chat = createAgentChat({
      chatUrl: "https://ai.example.com/api/v1/public/acme/agents/7/chat/stream-chat-state",
      apiKey: KEY,
      transport,
      randomBytes: (n) => new Uint8Array(n),
      sessionSettings: { externalId: "ann" },
    });
    const error = await chat.ask({ input: "q" }).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toBeDefined();
    expect(error?.message).not.toContain(KEY.slice(0, 6));
  });
});
