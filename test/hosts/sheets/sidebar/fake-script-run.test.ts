// @vitest-environment jsdom
/**
 * The sidebar's google.script.run fake keeps Google's rules for what crosses, both ways
 * (developers.google.com/apps-script/guides/html/reference/run and .../guides/html/communication):
 * what a test of the sidebar may pass or return is what the real one lets across.
 */
import { describe, expect, it, vi } from "vitest";
import type { ScriptRun } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { CONCURRENT_CALLS, fakeScriptRun } from "../../../support/fake-script-run.js";

type Callable = ScriptRun & Record<string, (...args: unknown[]) => void>;

function call(run: ScriptRun, name: string, ...args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    (run.withSuccessHandler(resolve).withFailureHandler(reject) as Callable)[name]!(...args);
  });
}

describe("parameters", () => {
  it.each([
    ["a Date", new Date(0)],
    ["a function", () => 1],
    ["a Date inside an object", { when: new Date(0) }],
    ["a function inside an array", [1, () => 2]],
    ["a Map", new Map()],
    ["a DOM element other than a form", document.createElement("div")],
  ])("%s makes the call fail before the server runs", async (_name, value) => {
    const server = vi.fn();
    const { run } = fakeScriptRun({ server });
    await expect(call(run, "server", value)).rejects.toThrow(/Failed due to illegal value in property/);
    expect(server).not.toHaveBeenCalled();
  });

  it("a circular reference makes the call fail", async () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    const { run } = fakeScriptRun({ server: () => null });
    await expect(call(run, "server", loop)).rejects.toThrow(/illegal value in property: self/);
  });

  it("undefined in an array becomes null; an undefined property is dropped; the server gets a copy", async () => {
    const sent = { list: [1, undefined, "x"], gone: undefined, nested: { n: 1 } };
    const { run, calls } = fakeScriptRun({
      server(arg) {
        (arg as { nested: { n: number } }).nested.n = 2;
        return null;
      },
    });
    await call(run, "server", sent);
    expect(calls[0]!.args).toEqual([{ list: [1, null, "x"], nested: { n: 2 } }]);
    expect(Object.hasOwn(calls[0]!.args[0] as object, "gone")).toBe(false);
    expect(sent.nested.n).toBe(1);
  });

  it("a form is legal only as the only parameter, and arrives as its named fields", async () => {
    const form = document.createElement("form");
    form.innerHTML = '<input name="tenant" value="https://t.example.com"><input name="key" value="k">';
    const { run, calls } = fakeScriptRun({ server: () => null });
    await call(run, "server", form);
    expect(calls[0]!.args).toEqual([{ tenant: "https://t.example.com", key: "k" }]);
    await expect(call(run, "server", form, 1)).rejects.toThrow(/illegal value/);
  });
});

describe("return values", () => {
  it("a Date or a function in what the server returns fails the call, naming it", async () => {
    const { run } = fakeScriptRun({ dated: () => ({ at: new Date(0) }), fn: () => [() => 1] });
    await expect(call(run, "dated")).rejects.toThrow(/illegal value in property: at/);
    await expect(call(run, "fn")).rejects.toThrow(/illegal value in property: 0/);
  });

  it("arrives as a copy, with the same changes on the way", async () => {
    const kept = { list: [undefined, 2], nothing: undefined };
    const { run } = fakeScriptRun({ server: () => kept });
    const got = (await call(run, "server")) as typeof kept;
    expect(got).toEqual({ list: [null, 2] });
    expect(got).not.toBe(kept);
  });
});

describe("concurrency", () => {
  it(`runs at most ${CONCURRENT_CALLS} calls at once; the next waits for a free one`, async () => {
    const gates: (() => void)[] = [];
    const { run, stats } = fakeScriptRun({
      slow: () => new Promise<null>((resolve) => gates.push(() => resolve(null))),
    });
    const all = Array.from({ length: CONCURRENT_CALLS + 2 }, () => call(run, "slow"));
    await vi.waitFor(() => expect(gates).toHaveLength(CONCURRENT_CALLS));
    expect(stats.inFlight).toBe(CONCURRENT_CALLS);
    gates.shift()!();
    // The 11th starts only now that one of the 10 has finished.
    await vi.waitFor(() => expect(gates).toHaveLength(CONCURRENT_CALLS));
    let finished = false;
    void Promise.all(all).then(() => {
      finished = true;
    });
    await vi.waitFor(() => {
      while (gates.length) gates.shift()!();
      expect(finished).toBe(true);
    });
    expect(stats.maxInFlight).toBe(CONCURRENT_CALLS);
  });
});
