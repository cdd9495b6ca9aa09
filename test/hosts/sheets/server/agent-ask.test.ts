/**
 * The agent through Code.js under Apps Script's time limits (fake clock, nothing waits): UrlFetchApp
 * cuts a fetch at about 60 s and an execution ends at 6 minutes. A long answer still arrives whole;
 * one longer than an execution can wait ends with a clear message and can be picked up by asking
 * again; Stop works from the first question, addressed by the request's own messageId.
 */
import { describe, expect, it } from "vitest";
import {
  callError,
  callOk,
  type FetchAnswer,
  type FetchedRequest,
  loadAppsScript,
  type World,
} from "../../../support/apps-script.js";

const TENANT = "https://acme.reporting.example";
const CHAT_URL = "https://ai.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state";
const MESSAGE_ID = "1767603600000123456-message";

const lines = (...values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
const answerBody = (chatId: string) =>
  lines(
    { id: "__cutoff__", state: { chatId } },
    { id: "m1", role: "assistant", content: "Revenue grew 12%.", graphPath: ["final"] },
  );

/** A world whose agent finishes its answer `takesMs` after the question first arrives. */
function slowAgent(takesMs: number, onRequest: (request: FetchedRequest, world: World) => void = () => {}) {
  let readyAt: number | null = null;
  const world: World = loadAppsScript({
    fetch: (request): FetchAnswer => {
      if (request.url !== CHAT_URL) return { status: 404, body: "{}" };
      onRequest(request, world);
      readyAt ??= world.clock.now + takesMs;
      return {
        status: 200,
        body: answerBody("chat-slow"),
        durationMs: Math.max(0, readyAt - world.clock.now),
      };
    },
  });
  callOk(world, "saveSettings", {
    tenantUrl: TENANT,
    deploymentId: 7,
    apiKey: "sk-live-limits",
    chatUrl: CHAT_URL,
    agentApiKey: "ak-live-limits",
    externalId: "ann.lee",
  });
  world.requests.length = 0;
  return world;
}

const sentIds = (world: World) => world.requests.map((r) => JSON.parse(r.payload ?? "{}").messageId);

describe("an answer that takes longer than one fetch", () => {
  it("200 s: each fetch cut at 60 s is sent again with the same messageId, and the answer arrives whole", () => {
    const world = slowAgent(200_000);
    const answer = callOk<{ answer: string; chatId: string }>(world, "askAgent", {
      input: "Revenue?",
      messageId: MESSAGE_ID,
    });
    expect(answer).toMatchObject({ answer: "Revenue grew 12%.", chatId: "chat-slow" });
    expect(world.requests.length).toBe(4);
    expect(new Set(sentIds(world))).toEqual(new Set([MESSAGE_ID]));
    expect(world.clock.timeouts).toEqual([]);
  });

  it("past what one execution can wait: a clear message before the 6 minutes, and asking again gets the answer", () => {
    const world = slowAgent(8 * 60_000);
    const started = world.clock.now;
    const error = callError(world, "askAgent", { input: "Revenue?", messageId: MESSAGE_ID });
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/still working/);
    expect(error.message).toMatch(/Ask the same question again/);
    expect(error.message).not.toMatch(/script failed|Exceeded maximum execution time/);
    // Never cut by Apps Script: the script answered before its 6 minutes were up.
    expect(world.clock.timeouts).toEqual([]);
    expect(world.clock.now - started).toBeLessThan(6 * 60_000);
    expect(world.requests.every((r) => JSON.parse(r.payload!).messageId === MESSAGE_ID)).toBe(true);

    // The same question again (the sidebar sends the same messageId): the finished run comes back.
    world.clock.now += 3 * 60_000;
    const answer = callOk<{ answer: string; chatId: string }>(world, "askAgent", {
      input: "Revenue?",
      messageId: MESSAGE_ID,
    });
    expect(answer).toMatchObject({ answer: "Revenue grew 12%.", chatId: "chat-slow" });
  });

  it("a continued conversation keeps its chatId on every attempt", () => {
    const world = slowAgent(8 * 60_000);
    callError(world, "askAgent", { input: "And Q2?", chatId: "chat-9", messageId: MESSAGE_ID });
    for (const request of world.requests) expect(JSON.parse(request.payload!).chatId).toBe("chat-9");
  });

  it("a quick failure is still retried twice, then said plainly", () => {
    const world = slowAgent(0);
    world.fetch = () => ({ status: 503, body: '{"message":"busy"}' });
    const error = callError(world, "askAgent", { input: "Revenue?", messageId: MESSAGE_ID });
    expect(error.status).toBe(503);
    expect(world.requests).toHaveLength(3);
    expect(world.sleeps).toEqual([300, 1000]);
  });
});

describe("Stop from the first question (no conversation id yet)", () => {
  it("stopAnswer(messageId) while the answer is awaited: the execution stops before its next attempt", () => {
    const world = slowAgent(10 * 60_000, (_request, w) => {
      // The sidebar's Stop, in another execution, while this fetch waits.
      if (w.requests.length === 1) callOk(w, "stopAnswer", MESSAGE_ID);
    });
    const error = callError(world, "askAgent", { input: "Revenue?", messageId: MESSAGE_ID });
    expect(error.kind).toBe("aborted");
    expect(world.requests).toHaveLength(1);
    expect(world.clock.timeouts).toEqual([]);
  });

  it("an answer that arrives after Stop is discarded", () => {
    const world = slowAgent(20_000, (_request, w) => callOk(w, "stopAnswer", MESSAGE_ID));
    expect(callError(world, "askAgent", { input: "Revenue?", messageId: MESSAGE_ID }).kind).toBe("aborted");
  });

  it("another question is not stopped by it; stopAnswer refuses what is not a messageId", () => {
    const world = slowAgent(1000);
    callOk(world, "stopAnswer", MESSAGE_ID);
    const other = "1767603600001654321-message";
    expect(callOk<{ answer: string }>(world, "askAgent", { input: "Q?", messageId: other }).answer).toBe(
      "Revenue grew 12%.",
    );
    expect(callError(world, "stopAnswer", "../../x").kind).toBe("bad-request");
    expect(callError(world, "askAgent", { input: "Q?", messageId: "1-message" }).kind).toBe("bad-request");
  });
});
