/**
 * The sidebar's side: the typed bridge over google.script.run and the Sheets host adapter. One
 * server call per user action; the selection is polled gently, only while visible and listened to.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../../src/core/errors.js";
import type { ActiveContext } from "../../../src/hosts/host.js";
import { createBridge, type ScriptRun, type ServerCall } from "../../../src/hosts/sheets/bridge.js";
import { createSheetsHost } from "../../../src/hosts/sheets/host.js";

type Handler = (...args: unknown[]) => unknown;

/** A google.script.run that answers from `handlers` asynchronously, as the real one does. */
function fakeScriptRun(handlers: Record<string, Handler>) {
  const calls: { name: string; args: unknown[] }[] = [];
  const make = (onSuccess?: (v: unknown) => void, onFailure?: (e: unknown) => void): ScriptRun =>
    new Proxy({} as ScriptRun, {
      get(_target, prop: string) {
        if (prop === "withSuccessHandler") return (fn: (v: unknown) => void) => make(fn, onFailure);
        if (prop === "withFailureHandler") return (fn: (e: unknown) => void) => make(onSuccess, fn);
        const handler = handlers[prop];
        if (!handler) return undefined;
        return (...args: unknown[]) => {
          calls.push({ name: prop, args });
          // Answers later, as the real one does; a handler may return a promise to answer later still.
          Promise.resolve()
            .then(() => handler(...args))
            .then(
              (value) => onSuccess?.(JSON.parse(JSON.stringify(value ?? null))),
              (error) => onFailure?.(error),
            );
        };
      },
    });
  return { run: make(), calls };
}

const context: ActiveContext = {
  workbookId: "sheet-1",
  workbookName: "Budget",
  sheetId: "0",
  sheetName: "Sheet1",
  cell: "A1",
};

const ok = (value: unknown) => ({ ok: true, value });

describe("bridge", () => {
  it("resolves a server function's value and rejects its PlatformError with kind and message", async () => {
    const { run, calls } = fakeScriptRun({
      getSettings: () => ok({ tenantUrl: "https://t.example", apiKeySet: true }),
      listDeployments: () => ({
        ok: false,
        error: new PlatformError("unauthorized", "The API key was refused (401).", { status: 401 }).toJSON(),
      }),
    });
    const call = createBridge(() => run);
    await expect(call("getSettings")).resolves.toEqual({ tenantUrl: "https://t.example", apiKeySet: true });
    const error = await call("listDeployments").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      kind: "unauthorized",
      status: 401,
      message: "The API key was refused (401).",
    });
    expect(calls.map((c) => c.name)).toEqual(["getSettings", "listDeployments"]);
  });

  it("passes arguments as given", async () => {
    const { run, calls } = fakeScriptRun({ disconnectPlacement: () => ok({ id: 42 }) });
    const call = createBridge(() => run);
    await call("disconnectPlacement", 7, 42, { placementId: "p-1" });
    expect(calls).toEqual([{ name: "disconnectPlacement", args: [7, 42, { placementId: "p-1" }] }]);
  });

  it("what Apps Script itself refuses becomes a 'server' PlatformError that says what happened", async () => {
    const { run } = fakeScriptRun({
      refreshPane: () => {
        throw new Error("Authorization is required to perform that action.");
      },
    });
    const error = await createBridge(() => run)("refreshPane").catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: "server",
      message: expect.stringMatching(
        /^Google Apps Script could not run refreshPane: Authorization is required/,
      ),
    });
  });

  it("outside Google Sheets it rejects instead of hanging", async () => {
    await expect(createBridge(() => undefined)("getActiveContext")).rejects.toMatchObject({ kind: "server" });
  });

  it("names and argument types are checked at compile time", () => {
    const call: ServerCall = async () => undefined as never;
    // @ts-expect-error: no such server function.
    void call("deleteEverything");
    // @ts-expect-error: disconnectPlacement takes (deploymentId, reportId, input).
    void call("disconnectPlacement", "7", 42, {});
    // @ts-expect-error: a menu item is not a sidebar function (it answers no envelope).
    void call("disconnectReportHere");
    expect(true).toBe(true);
  });
});

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
      refreshPane: () => ok(snapshot),
      getActiveContext: () => ok(context),
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
    const { run, calls } = fakeScriptRun({ getActiveContext: () => ok(current) });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, pollMs: 1500 },
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
        return ok(context);
      },
    });
    const host = createSheetsHost(
      createBridge(() => run),
      { document: doc, pollMs: 1000 },
    );
    host.onContextChanged(() => {});
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(calls).toHaveLength(3);
    failing = false;
    await vi.advanceTimersByTimeAsync(8000);
    await vi.advanceTimersByTimeAsync(1000 * 3);
    expect(calls).toHaveLength(7);
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
      { name: "askAgent", args: [{ input: "How?", sessionSettings: { externalId: "ann" } }] },
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
