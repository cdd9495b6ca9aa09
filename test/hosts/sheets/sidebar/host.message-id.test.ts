/**
 * The messageId the Sheets sidebar sends with a question (it names it so that Stop can address the
 * run): within the documented pattern `^\d{13,}-message$`, the millisecond then random digits from a
 * cryptographic source, as docs/security.md says for every host. Math.random is not one: its output
 * can be predicted from a few earlier values, so an id drawn from it is guessable.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { fakeScriptRun } from "../../../support/fake-script-run.js";

const doc = {
  visibilityState: "visible",
  addEventListener() {},
  removeEventListener() {},
} as unknown as Document;

const ok = (value: unknown) => ({ ok: true, value });

beforeEach(() => {
  vi.useFakeTimers({ now: Date.UTC(2026, 0, 5, 9, 0, 0) });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function askedIds(times: number): Promise<string[]> {
  const { run, calls } = fakeScriptRun({
    askAgent: () => ok({ answer: "Done.", chatId: "chat-1", messageId: "x", messages: [] }),
  });
  const host = createSheetsHost(
    createBridge(() => run),
    { document: doc, window: null },
  );
  for (let i = 0; i < times; i++) {
    await host.platform.ask({ input: `Question ${i}?`, sessionSettings: {} });
  }
  return calls
    .filter((c) => c.name === "askAgent")
    .map((c) => (c.args[0] as { messageId: string }).messageId);
}

describe("the sidebar's messageId", () => {
  it("is the millisecond then at least 12 random digits, within the documented pattern", async () => {
    const [id] = await askedIds(1);
    expect(id).toMatch(/^\d{13,}-message$/);
    expect(id!.startsWith(String(Date.now()))).toBe(true);
    expect(id!.length - "-message".length - String(Date.now()).length).toBeGreaterThanOrEqual(12);
  });

  it("draws its digits from crypto.getRandomValues, not Math.random: two questions in the same millisecond differ", async () => {
    // A predictable Math.random must not make two ids equal: it is not where the digits come from.
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const getRandomValues = vi.spyOn(globalThis.crypto, "getRandomValues");
    const ids = await askedIds(2);
    expect(ids[0]!.slice(0, 13)).toBe(ids[1]!.slice(0, 13));
    expect(ids[0]).not.toBe(ids[1]);
    expect(getRandomValues).toHaveBeenCalled();
  });
});
