import { afterEach, describe, expect, it } from "vitest";
import { finalAnswer, type MergedChatMessage } from "../../src/core/index.js";
import {
  API_KEY,
  CHAT_ID,
  chatFor,
  closeServers,
  MESSAGE_ID,
  ndjsonResponse,
  type Received,
  realStream,
  rejection,
  SESSION,
  startServer,
  writeLines,
} from "../support/chat-service.js";

afterEach(closeServers);

describe("createAgentChat", () => {
  it("auth rule 6: the agent chat request carries Authorization: Api-Key <API_KEY>, with JSON content type and an NDJSON accept", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    await chatFor(server.chatUrl).chat.ask({ input: "How many orders last month?" });
    const [request] = server.received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/v1/public/acme/agents/42/chat/stream-chat-state");
    expect(request?.headers.authorization).toBe(`Api-Key ${API_KEY}`);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.accept).toBe("application/x-ndjson, application/json");
  });

  it("sends the chat request (platform-api.md, Agent chat) with a generated messageId, and no chatId for a new conversation", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({
      input: "How many orders last month?",
      sessionSettings: {
        externalId: "  Ana@Example.com ",
        userAttributes: [{ name: "region", value: "EU" }],
      },
    });
    expect(server.received[0]?.json).toEqual({
      input: "How many orders last month?",
      messageId: MESSAGE_ID,
      // platform-api.md: externalId must be lowercase and trimmed.
      sessionSettings: { externalId: "ana@example.com", userAttributes: [{ name: "region", value: "EU" }] },
    });
    expect(result).toMatchObject({
      answer: "There were 1,204 orders last month.",
      chatId: CHAT_ID,
      messageId: MESSAGE_ID,
    });
    expect(result.messages.map((m) => m.id)).toContain("__usage__");
    expect(result.messages.find((m) => m.role === "user")?.content).toBe("How many orders last month?");
  });

  it("rule 4: sending that value as chatId in the next request keeps the conversation context", async () => {
    const server = await startServer(async (req, res) => {
      ndjsonResponse(res);
      const chatId = typeof req.json.chatId === "string" ? req.json.chatId : "chat-new-1";
      await writeLines(res, realStream({ chatId }));
      res.end();
    });
    const { chat } = chatFor(server.chatUrl);
    const first = await chat.ask({ input: "How many orders last month?" });
    const second = await chat.ask({ input: "And the month before?", chatId: first.chatId ?? undefined });
    expect(first.chatId).toBe("chat-new-1");
    expect(server.received[1]?.json.chatId).toBe("chat-new-1");
    expect(second.chatId).toBe("chat-new-1");
  });

  it("rule 1: requests to different agents have an identical shape; only the URL differs", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream());
      res.end();
    });
    const otherAgent = server.chatUrl.replace("/agents/42/", "/agents/77/");
    await chatFor(server.chatUrl).chat.ask({ input: "Same question" });
    await chatFor(otherAgent).chat.ask({ input: "Same question" });
    const [a, b] = server.received;
    expect(a?.path).not.toBe(b?.path);
    expect(b?.path).toBe("/api/v1/public/acme/agents/77/chat/stream-chat-state");
    expect(a?.body).toBe(b?.body);
    const shape = (r: Received | undefined) => ({
      method: r?.method,
      authorization: r?.headers.authorization,
      contentType: r?.headers["content-type"],
      accept: r?.headers.accept,
    });
    expect(shape(a)).toEqual(shape(b));
  });

  it("delivers each merged message to onMessage while the stream is still open", async () => {
    let ended = false;
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream(), 25);
      ended = true;
      res.end();
    });
    const seen: { id: string; content: string | null | undefined; total: number; ended: boolean }[] = [];
    const result = await chatFor(server.chatUrl).chat.ask(
      { input: "How many orders last month?" },
      { onMessage: (m, all) => seen.push({ id: m.id, content: m.content, total: all.length, ended }) },
    );
    expect(seen).toHaveLength(10);
    expect(seen[0]).toMatchObject({ id: "__cutoff__", total: 1, ended: false });
    expect(seen.filter((s) => s.id === "m-3").map((s) => s.content)).toEqual([
      "There were ",
      "There were 1,204 orders ",
      "There were 1,204 orders last month.",
    ]);
    expect(seen.filter((s) => s.ended)).toHaveLength(0);
    expect(result.answer).toBe("There were 1,204 orders last month.");
  });

  it("returns the thread for a chatId without input", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream({ chatId: "c-old" }));
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ chatId: "c-old" });
    expect(server.received[0]?.json).not.toHaveProperty("input");
    expect(server.received[0]?.json.chatId).toBe("c-old");
    expect(result.chatId).toBe("c-old");
    expect(result.messages.length).toBeGreaterThan(0);
  });

  it("rejects an error line mid-stream with kind stream, the service's text without the key, and what to do", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 3));
      await writeLines(res, [{ error: `Model quota exceeded for key ${API_KEY}` }]);
      await writeLines(res, realStream().slice(3));
      res.end();
    });
    const seen: string[] = [];
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask({ input: "q" }, { onMessage: (m) => seen.push(m.id) }),
    );
    expect(error.kind).toBe("stream");
    expect(error.message).toContain("Model quota exceeded");
    expect(error.message).toMatch(/Ask again/);
    expect(error.message).not.toContain(API_KEY);
    expect(error.serviceMessage).not.toContain(API_KEY);
    expect(seen).toEqual(["__cutoff__", MESSAGE_ID, "m-1"]);
  });

  it("resumes once after __suspended__ with the same chatId, input and messageId", async () => {
    const server = await startServer(async (req, res, n) => {
      ndjsonResponse(res);
      if (n === 1) {
        await writeLines(res, [
          ...realStream({ chatId: "c-9" }).slice(0, 6),
          {
            id: "__suspended__",
            type: "suspend",
            code: "chat_suspended",
            retryable: true,
            messageId: req.json.messageId,
            error: "Server restarting",
          },
          { id: "__usage__", type: "usage", usage: {} },
        ]);
      } else if (req.json.messageId === MESSAGE_ID && req.json.chatId === "c-9" && req.json.input === "q") {
        // A re-subscribed run replays its messages from the start.
        await writeLines(res, realStream({ chatId: "c-9" }));
      } else {
        await writeLines(res, [{ error: "resumed with a different request" }]);
      }
      res.end();
    });
    const result = await chatFor(server.chatUrl).chat.ask({ input: "q", messageId: MESSAGE_ID });
    expect(server.received).toHaveLength(2);
    expect(server.received[0]?.json).not.toHaveProperty("chatId");
    expect(result.answer).toBe("There were 1,204 orders last month.");
    expect(result.chatId).toBe("c-9");
  });

  it("rejects a second __suspended__ with kind stream and does not ask a third time", async () => {
    const server = await startServer(async (req, res) => {
      ndjsonResponse(res);
      await writeLines(res, [
        { id: "__cutoff__", sort: 0, state: { chatId: "c-9" } },
        {
          id: "__suspended__",
          type: "suspend",
          retryable: true,
          messageId: req.json.messageId,
          error: "restart",
        },
      ]);
      res.end();
    });
    const error = await rejection(chatFor(server.chatUrl).chat.ask({ input: "q" }));
    expect(error.kind).toBe("stream");
    expect(error.message).toMatch(/interrupted/);
    expect(server.received).toHaveLength(2);
  });

  it("rejects with kind aborted when the stream ends with __aborted__", async () => {
    const server = await startServer(async (_req, res) => {
      ndjsonResponse(res);
      await writeLines(res, [
        ...realStream().slice(0, 6),
        { id: "__aborted__", type: "abort", code: "chat_aborted" },
        { id: "__usage__", type: "usage", usage: {} },
      ]);
      res.end();
    });
    const seen: MergedChatMessage[] = [];
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask(
        { input: "q" },
        { onMessage: (_m, all) => seen.splice(0, Infinity, ...all) },
      ),
    );
    expect(error.kind).toBe("aborted");
    // The partial answer reached the caller before the rejection.
    expect(finalAnswer(seen)).toBe("There were ");
  });

  it("stops reading and rejects with kind aborted when the caller's signal aborts", async () => {
    let serverSawClose = false;
    const server = await startServer(async (_req, res) => {
      res.on("close", () => {
        serverSawClose = true;
      });
      ndjsonResponse(res);
      await writeLines(res, realStream().slice(0, 3));
      // Then hang, as a long-running answer does.
    });
    const controller = new AbortController();
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask(
        { input: "q" },
        {
          signal: controller.signal,
          onMessage: (m) => {
            if (m.id === "m-1") controller.abort();
          },
        },
      ),
    );
    expect(error.kind).toBe("aborted");
    await expect.poll(() => serverSawClose).toBe(true);
  });

  it("does not send anything when the signal is already aborted", async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const error = await rejection(
      chatFor(server.chatUrl).chat.ask({ input: "q" }, { signal: AbortSignal.abort() }),
    );
    expect(error.kind).toBe("aborted");
    expect(server.received).toHaveLength(0);
  });
});

describe("AgentChat.abort", () => {
  it("POSTs {chatId, sessionSettings} to /chat/abort with the Api-Key header and resolves true on 204", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    expect(await chatFor(server.chatUrl).chat.abort("c-1")).toBe(true);
    const [request] = server.received;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/api/v1/public/acme/agents/42/chat/abort");
    expect(request?.headers.authorization).toBe(`Api-Key ${API_KEY}`);
    expect(request?.json).toEqual({ chatId: "c-1", sessionSettings: SESSION });
  });

  it.each([
    [404, "not-found"],
    [403, "forbidden"],
  ] as const)("rejects %i with kind %s", async (status, kind) => {
    const server = await startServer((_req, res) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: `chat c-1 not yours (${API_KEY})` }));
    });
    const error = await rejection(chatFor(server.chatUrl).chat.abort("c-1"));
    expect(error.kind).toBe(kind);
    expect(error.message).not.toContain(API_KEY);
  });
});
