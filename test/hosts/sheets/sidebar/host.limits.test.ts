/**
 * The Sheets host under Apps Script's quotas: the poll backs off while nothing changes (each poll
 * is an execution and a property read), and the agent's answer, which arrives whole, can be stopped
 * from the first question and picked up again after a time-out by its messageId.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../../../src/core/errors.js";
import type { ActiveContext } from "../../../../src/hosts/host.js";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { fakeScriptRun } from "../../../support/fake-script-run.js";

const context: ActiveContext = {
  workbookId: "sheet-1",
  workbookName: "Budget",
  sheetId: "0",
  sheetName: "Sheet1",
  cell: "A1",
};

const ok = (value: unknown) => ({ ok: true, value });
const polled = (c: ActiveContext, revision = "0.00000001") => ok({ context: c, revision });

const doc = {
  visibilityState: "visible",
  addEventListener() {},
  removeEventListener() {},
} as unknown as Document;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the poll's back-off (PropertiesService reads count against a daily quota)", () => {
  /** When each poll was made (ms from now), over the next `totalMs` of fake time. */
  async function pollTimes(calls: { name: string }[], totalMs: number) {
    const times: number[] = [];
    const start = Date.now();
    let seen = calls.length;
    for (let t = 0; t < totalMs; t += 250) {
      await vi.advanceTimersByTimeAsync(250);
      while (seen < calls.length) {
        if (calls[seen]!.name === "getActiveContext") times.push(Date.now() - start);
        seen++;
      }
    }
    return times;
  }

  it("1.5 s at first, rising while nothing changes to about 10 s, and no faster", async () => {
    const { run, calls } = fakeScriptRun({ getActiveContext: () => polled(context) });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null },
    );
    await host.activeContext();
    host.onContextChanged(() => {});
    const times = await pollTimes(calls, 120_000);
    const gaps = times.map((t, i) => t - (times[i - 1] ?? 0));
    expect(gaps[0]).toBe(1500);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]!);
    expect(gaps.at(-1)).toBeGreaterThanOrEqual(9_000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(10_000);
    // Idle for two minutes: about a dozen polls, not 80.
    expect(times.length).toBeLessThan(20);
  });

  it("a change seen by a poll brings it back to 1.5 s", async () => {
    let current = context;
    const { run, calls } = fakeScriptRun({ getActiveContext: () => polled(current) });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null },
    );
    await host.activeContext();
    host.onContextChanged(() => {});
    await pollTimes(calls, 60_000);
    current = { ...context, cell: "D4" };
    const times = await pollTimes(calls, 20_000);
    const gaps = times.map((t, i) => t - (times[i - 1] ?? 0)).slice(1);
    expect(gaps[0]).toBe(1500);
  });

  it("a user action in the sidebar (a server call) brings it back to 1.5 s", async () => {
    const { run, calls } = fakeScriptRun({
      getActiveContext: () => polled(context),
      selectRange: () => ok(null),
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null },
    );
    await host.activeContext();
    host.onContextChanged(() => {});
    await pollTimes(calls, 60_000);
    await host.selectRange({ sheetId: "0", sheetName: "Sheet1", range: "B2" });
    const times = await pollTimes(calls, 3_000);
    expect(times).toEqual([1500]);
  });

  it("focus on the sidebar polls at once", async () => {
    const focusListeners = new Map<string, () => void>();
    const win = {
      addEventListener: (type: string, fn: () => void) => focusListeners.set(type, fn),
      removeEventListener: (type: string) => focusListeners.delete(type),
    } as unknown as Window;
    const { run, calls } = fakeScriptRun({ getActiveContext: () => polled(context) });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: win },
    );
    await host.activeContext();
    const stop = host.onContextChanged(() => {});
    await pollTimes(calls, 60_000);
    const before = calls.length;
    focusListeners.get("focus")?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.length).toBe(before + 1);
    stop();
    expect(focusListeners.size).toBe(0);
  });
});

describe("the agent's answer, which arrives whole", () => {
  it("says the agent's answer arrives whole (Apps Script cannot stream)", () => {
    const host = createSheetsHost(
      createBridge(() => fakeScriptRun({}).run),
      { document: doc, window: null },
    );
    expect(host.agentAnswers).toBe("whole");
  });

  it("Stop works from the first question: the host names the request's messageId and stops it by that id", async () => {
    const { run, calls } = fakeScriptRun({
      askAgent: () => new Promise(() => {}), // still waiting for the agent
      stopAnswer: () => ok(null),
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null },
    );
    const controller = new AbortController();
    const asked = host.platform.ask({ input: "Long?", sessionSettings: {} }, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(0);
    controller.abort();
    await expect(asked).rejects.toMatchObject({ kind: "aborted" });
    await vi.advanceTimersByTimeAsync(0);
    const sent = calls.find((c) => c.name === "askAgent")!.args[0] as { messageId: string; chatId?: string };
    expect(sent.messageId).toMatch(/^\d{13,}-message$/);
    expect(sent.chatId).toBeUndefined();
    expect(calls.filter((c) => c.name === "stopAnswer")).toEqual([
      { name: "stopAnswer", args: [sent.messageId] },
    ]);
  });

  it("after a time-out, the same question again carries the same messageId (the run is picked up); another question a new one", async () => {
    let answer: unknown = {
      ok: false,
      error: new PlatformError("timeout", "The agent is still working on this answer.").toJSON(),
    };
    const { run, calls } = fakeScriptRun({ askAgent: () => answer });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null },
    );
    const ids = () => calls.map((c) => (c.args[0] as { messageId: string }).messageId);
    await expect(host.platform.ask({ input: "Long?", sessionSettings: {} })).rejects.toMatchObject({
      kind: "timeout",
    });
    answer = ok({ answer: "Done.", chatId: "chat-1", messageId: "x", messages: [] });
    await host.platform.ask({ input: "Long?", sessionSettings: {} });
    expect(ids()[1]).toBe(ids()[0]);
    await host.platform.ask({ input: "Long?", sessionSettings: {} });
    await host.platform.ask({ input: "Other?", chatId: "chat-1", sessionSettings: {} });
    expect(new Set(ids()).size).toBe(3);
  });
});
