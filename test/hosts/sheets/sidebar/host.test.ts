/**
 * The sidebar's side: the Sheets host adapter (the bridge has bridge.test.ts). One server call per
 * user action; the selection is polled gently, only while visible and listened to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
/** What getActiveContext answers: the context and the workbook's revision. */
const polled = (c: ActiveContext, revision = "0.00000001") => ok({ context: c, revision });

describe("createSheetsHost", () => {
  let visibility: "visible" | "hidden";
  let visibilityListeners: Set<() => void>;
  const doc = {
    get visibilityState() {
      return visibility;
    },
    addEventListener: (_type: string, fn: () => void) => visibilityListeners.add(fn),
    removeEventListener: (_type: string, fn: () => void) => visibilityListeners.delete(fn),
  } as unknown as Document;
  const setVisibility = (v: "visible" | "hidden") => {
    visibility = v;
    for (const fn of [...visibilityListeners]) fn();
  };

  beforeEach(() => {
    vi.useFakeTimers();
    visibility = "visible";
    visibilityListeners = new Set();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is the Google Sheets host, light, with no cell commands", () => {
    const host = createSheetsHost(
      createBridge(() => fakeScriptRun({}).run),
      { document: doc },
    );
    expect(host.kind).toBe("sheets");
    expect(host.label).toBe("Google Sheets");
    expect(host.theme()).toBe("light");
    const listener = vi.fn();
    host.onCommand(listener)();
    expect(listener).not.toHaveBeenCalled();
  });

  it("loads the workbook in one refreshPane call, and the context in one getActiveContext call", async () => {
    const snapshot = { context, sheets: [{ id: "0", name: "Sheet1" }], reports: [], problems: [] };
    const { run, calls } = fakeScriptRun({
      refreshPane: () => ok({ ...snapshot, revision: "0.00000001" }),
      getActiveContext: () => polled(context),
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc },
    );
    await expect(host.loadWorkbook()).resolves.toEqual(snapshot);
    await expect(host.activeContext()).resolves.toEqual(context);
    expect(calls.map((c) => c.name)).toEqual(["refreshPane", "getActiveContext"]);
  });

  it("polls while listened to and visible, notifies only on change, stops while hidden and when unsubscribed", async () => {
    let current = context;
    const { run, calls } = fakeScriptRun({ getActiveContext: () => polled(current) });
    // A fixed cadence here (no idle back-off): this test is about when polling runs at all.
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null, pollMs: 1500, idlePollMs: 1500 },
    );
    await host.activeContext();
    const seen: string[] = [];
    const unsubscribe = host.onContextChanged((c) => seen.push(c.cell));
    const polls = () => calls.filter((c) => c.name === "getActiveContext").length - 1;

    await vi.advanceTimersByTimeAsync(1500 * 3);
    expect(polls()).toBe(3);
    expect(seen).toEqual([]);

    current = { ...context, cell: "B7" };
    await vi.advanceTimersByTimeAsync(1500);
    expect(seen).toEqual(["B7"]);
    await vi.advanceTimersByTimeAsync(1500 * 2);
    expect(seen).toEqual(["B7"]);

    setVisibility("hidden");
    const whileHidden = polls();
    await vi.advanceTimersByTimeAsync(1500 * 10);
    expect(polls()).toBe(whileHidden);

    current = { ...context, sheetName: "Other", sheetId: "9", cell: "C3" };
    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(["B7", "C3"]);

    unsubscribe();
    const afterUnsubscribe = polls();
    await vi.advanceTimersByTimeAsync(1500 * 10);
    expect(polls()).toBe(afterUnsubscribe);
    expect(visibilityListeners.size).toBe(0);
  });

  it("backs off while polls fail, and recovers", async () => {
    let failing = true;
    const { run, calls } = fakeScriptRun({
      getActiveContext: () => {
        if (failing) throw new Error("Service unavailable");
        return polled(context);
      },
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
    );
    host.onContextChanged(() => {});
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(calls).toHaveLength(3);
    failing = false;
    await vi.advanceTimersByTimeAsync(8000);
    await vi.advanceTimersByTimeAsync(1000 * 3);
    expect(calls).toHaveLength(7);
  });

  describe("the workbook's revision", () => {
    const snapshotAt = (revision: string) =>
      ok({ context, sheets: [{ id: "0", name: "Sheet1" }], reports: [], problems: [], revision });

    it("a new revision (a menu disconnect, a sheet added or renamed) is told once; a quiet poll tells nothing; one call per poll", async () => {
      let current = context;
      let revision = "0.aaaaaaaa";
      const { run, calls } = fakeScriptRun({
        refreshPane: () => snapshotAt(revision),
        getActiveContext: () => polled(current, revision),
      });
      const host = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1500, idlePollMs: 1500 },
      );
      await host.loadWorkbook();
      const contexts: ActiveContext[] = [];
      let workbookChanges = 0;
      host.onContextChanged((c) => contexts.push(c));
      host.onWorkbookChanged?.(() => workbookChanges++);

      await vi.advanceTimersByTimeAsync(1500 * 3);
      expect([contexts, workbookChanges]).toEqual([[], 0]);

      // "Disconnect report here" from the add-on menu: the server bumped its counter.
      revision = "1.aaaaaaaa";
      await vi.advanceTimersByTimeAsync(1500);
      expect([contexts, workbookChanges]).toEqual([[], 1]);
      await vi.advanceTimersByTimeAsync(1500 * 2);
      expect(workbookChanges).toBe(1);

      // A sheet added elsewhere: only the revision says so.
      revision = "1.bbbbbbbb";
      await vi.advanceTimersByTimeAsync(1500);
      expect([contexts, workbookChanges]).toEqual([[], 2]);

      // The active sheet renamed: the context says it, and the revision too.
      current = { ...context, sheetName: "Renamed" };
      revision = "1.cccccccc";
      await vi.advanceTimersByTimeAsync(1500);
      expect(contexts).toEqual([current]);
      expect(workbookChanges).toBe(3);

      await vi.advanceTimersByTimeAsync(1500 * 3);
      expect([contexts.length, workbookChanges]).toEqual([1, 3]);
      // One refresh, then nothing but one getActiveContext per poll.
      expect(calls.map((c) => c.name)).toEqual(["refreshPane", ...Array(11).fill("getActiveContext")]);
    });

    it("a change between the refresh and the first poll is not missed; before any refresh the first poll only learns it", async () => {
      let revision = "0.aaaaaaaa";
      const { run } = fakeScriptRun({
        refreshPane: () => snapshotAt(revision),
        getActiveContext: () => polled(context, revision),
      });
      const fresh = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
      );
      let unrefreshed = 0;
      fresh.onWorkbookChanged?.(() => unrefreshed++);
      await vi.advanceTimersByTimeAsync(1000);
      expect(unrefreshed).toBe(0);
      revision = "0.bbbbbbbb";
      await vi.advanceTimersByTimeAsync(1000);
      expect(unrefreshed).toBe(1);

      const host = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
      );
      await host.loadWorkbook();
      revision = "1.bbbbbbbb";
      let changes = 0;
      host.onWorkbookChanged?.(() => changes++);
      await vi.advanceTimersByTimeAsync(1000);
      expect(changes).toBe(1);
    });

    it("activeContext() does not swallow a change the pane has not seen", async () => {
      let revision = "0.aaaaaaaa";
      const { run } = fakeScriptRun({
        refreshPane: () => snapshotAt(revision),
        getActiveContext: () => polled(context, revision),
      });
      const host = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
      );
      await host.loadWorkbook();
      let changes = 0;
      host.onWorkbookChanged?.(() => changes++);
      revision = "1.aaaaaaaa";
      await expect(host.activeContext()).resolves.toEqual(context);
      await vi.advanceTimersByTimeAsync(1000);
      expect(changes).toBe(1);
    });

    it("a poll answered after a newer refresh does not count its older revision as a change", async () => {
      let answerPoll: () => void = () => {};
      const { run } = fakeScriptRun({
        refreshPane: () => snapshotAt("1.aaaaaaaa"),
        getActiveContext: () =>
          new Promise((resolve) => {
            answerPoll = () => resolve(polled(context, "0.aaaaaaaa"));
          }),
      });
      const host = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
      );
      let changes = 0;
      host.onWorkbookChanged?.(() => changes++);
      await vi.advanceTimersByTimeAsync(1000); // the poll is asked, and waits
      await host.loadWorkbook(); // the pane reloads meanwhile, and sees revision 1
      answerPoll();
      await vi.advanceTimersByTimeAsync(0);
      expect(changes).toBe(0);
    });

    it("listening only for workbook changes polls too; the last unsubscribe stops polling", async () => {
      const { run, calls } = fakeScriptRun({ getActiveContext: () => polled(context) });
      const host = createSheetsHost(
        createBridge(() => run),
        { document: doc, window: null, pollMs: 1000, idlePollMs: 1000 },
      );
      const stopWorkbook = host.onWorkbookChanged?.(() => {});
      const stopContext = host.onContextChanged(() => {});
      await vi.advanceTimersByTimeAsync(1000 * 2);
      expect(calls).toHaveLength(2);
      stopContext();
      await vi.advanceTimersByTimeAsync(1000);
      expect(calls).toHaveLength(3);
      stopWorkbook?.();
      await vi.advanceTimersByTimeAsync(1000 * 5);
      expect(calls).toHaveLength(3);
      expect(visibilityListeners.size).toBe(0);
    });
  });

  it("the gateway: one server call per method; ask hands over each message of the whole answer", async () => {
    const answer = {
      answer: "Revenue grew.",
      chatId: "chat-1",
      messageId: "1730000000000-message",
      messages: [
        { id: "__cutoff__", state: { chatId: "chat-1" } },
        { id: "m1", role: "assistant", content: "Revenue grew.", graphPath: ["final"] },
      ],
    };
    const { run, calls } = fakeScriptRun({
      askAgent: () => ok(answer),
      saveSettings: (patch) => ok({ ...(patch as object), apiKeySet: true }),
      listScimUsers: () => ok({ users: [], totalResults: 0, startIndex: 1, itemsPerPage: 0 }),
      abortChat: () => ok(null),
      selectRange: () => ok(null),
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc },
    );
    const seen: [string, number][] = [];
    const result = await host.platform.ask(
      { input: "How?", sessionSettings: { externalId: "ann" } },
      { onMessage: (m, all) => seen.push([m.id as string, all.length]) },
    );
    expect(result).toEqual(answer);
    expect(seen).toEqual([
      ["__cutoff__", 1],
      ["m1", 2],
    ]);
    await host.platform.saveSettings({ apiKey: "sk-x" });
    await host.platform.listScimUsers({ count: 10, startIndex: 1 });
    await host.platform.abortChat("chat-1");
    await host.selectRange({ sheetId: "0", sheetName: "Sheet1", range: "B2:F9" });
    expect(calls).toEqual([
      {
        name: "askAgent",
        args: [
          {
            input: "How?",
            sessionSettings: { externalId: "ann" },
            messageId: expect.stringMatching(/^\d{13,}-message$/),
          },
        ],
      },
      { name: "saveSettings", args: [{ apiKey: "sk-x" }] },
      { name: "listScimUsers", args: [{ count: 10, startIndex: 1 }] },
      { name: "abortChat", args: ["chat-1"] },
      { name: "selectRange", args: [{ sheetId: "0", sheetName: "Sheet1", range: "B2:F9" }] },
    ]);
  });

  it("stopping an answer rejects at once and asks the server to stop the conversation's run", async () => {
    let release: () => void = () => {};
    const { run, calls } = fakeScriptRun({
      askAgent: () =>
        new Promise((resolve) => {
          release = () => resolve(ok({ answer: null, chatId: "chat-1", messageId: "x", messages: [] }));
        }),
      abortChat: () => ok(null),
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc },
    );
    const controller = new AbortController();
    const asked = host.platform.ask(
      { input: "Long?", chatId: "chat-1", sessionSettings: {} },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(asked).rejects.toMatchObject({ kind: "aborted" });
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.name)).toContain("abortChat");
  });
});
