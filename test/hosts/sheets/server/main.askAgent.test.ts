import { beforeAll, describe, expect, it } from "vitest";
import { callError, callOk, type FetchAnswer } from "../../../support/apps-script.js";
import { AGENT_KEY, CHAT_URL, configured, json, requireBuiltCodeJs } from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

describe("askAgent", () => {
  const lines = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
  const answerBody = lines(
    { id: "__cutoff__", state: { chatId: "chat-77" } },
    { id: "m1", role: "assistant", content: "Looking", graphPath: ["tools"], isDelta: true },
    { id: "m2", role: "assistant", content: "Revenue ", graphPath: ["final"], isDelta: true },
    { id: "m2", role: "assistant", content: "grew 12%.", graphPath: ["final"], isDelta: true },
  );

  function chatWorld(answers: FetchAnswer[]) {
    return configured((request) => {
      if (request.url !== CHAT_URL) return json(404, {});
      return answers.shift() ?? { status: 500, body: "no more answers" };
    });
  }

  it("posts the chat request with Api-Key and a <ms>-message id, and returns the whole answer", () => {
    const world = chatWorld([
      { status: 200, headers: { "Content-Type": "application/x-ndjson" }, body: answerBody },
    ]);
    const answer = callOk<{ answer: string; chatId: string; messageId: string; messages: { id: string }[] }>(
      world,
      "askAgent",
      { input: "How did revenue do?", sessionSettings: { externalId: " Ann.Lee " } },
    );
    expect(answer.answer).toBe("Revenue grew 12%.");
    expect(answer.chatId).toBe("chat-77");
    expect(answer.messages.map((m) => m.id)).toEqual(["__cutoff__", "m1", "m2"]);
    expect(world.requests).toHaveLength(1);
    const request = world.requests[0]!;
    expect(request).toMatchObject({ method: "POST", url: CHAT_URL, contentType: "application/json" });
    expect(request.headers.Authorization).toBe(`Api-Key ${AGENT_KEY}`);
    const body = JSON.parse(request.payload!);
    expect(body).toEqual({
      input: "How did revenue do?",
      messageId: expect.stringMatching(/^\d{13,}-message$/),
      sessionSettings: { externalId: "ann.lee" },
    });
    expect(body.messageId).toBe(answer.messageId);
  });

  it("__suspended__ resends the same request once (same messageId, the chat id known so far)", () => {
    const world = chatWorld([
      {
        status: 200,
        body: lines(
          { id: "__cutoff__", state: { chatId: "chat-9" } },
          { id: "m1", role: "assistant", content: "Part", graphPath: ["final"] },
          { id: "__suspended__", error: "restarting" },
        ),
      },
      { status: 200, body: answerBody.replace("chat-77", "chat-9") },
    ]);
    const answer = callOk<{ answer: string; chatId: string }>(world, "askAgent", {
      input: "Again?",
      sessionSettings: {},
    });
    expect(answer).toMatchObject({ answer: "Revenue grew 12%.", chatId: "chat-9" });
    const [first, second] = world.requests.map((r) => JSON.parse(r.payload!));
    expect(second.messageId).toBe(first.messageId);
    expect(second.chatId).toBe("chat-9");
    expect(first.chatId).toBeUndefined();
  });

  it('an {"error": ...} line ends the answer with a stream error', () => {
    const world = chatWorld([
      {
        status: 200,
        body: lines({ id: "m1", role: "assistant", content: "Hm" }, { error: "model overloaded" }),
      },
    ]);
    expect(callError(world, "askAgent", { input: "Q", sessionSettings: {} })).toMatchObject({
      kind: "stream",
      message: expect.stringMatching(/The agent stopped with an error: "model overloaded"/),
    });
  });

  it("a 403 from the agent names the agent key", () => {
    const world = chatWorld([json(403, { error: "no access to agent" })]);
    expect(callError(world, "askAgent", { input: "Q", sessionSettings: {} })).toMatchObject({
      kind: "forbidden",
      message: expect.stringMatching(/^The agent API key is valid but not allowed to ask the agent \(403\)/),
    });
  });

  it("abortChat posts to the agent's /chat/abort", () => {
    const world = configured(() => ({ status: 204, body: "" }));
    callOk(world, "abortChat", "chat-77");
    expect(world.requests[0]).toMatchObject({
      method: "POST",
      url: CHAT_URL.replace("/chat/stream-chat-state", "/chat/abort"),
      payload: JSON.stringify({ chatId: "chat-77", sessionSettings: { externalId: "ann.lee" } }),
    });
    expect(world.requests[0]?.headers.Authorization).toBe(`Api-Key ${AGENT_KEY}`);
  });
});
