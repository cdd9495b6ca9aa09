/**
 * A day of an open, idle sidebar against the built Code.js stays far inside Apps Script's quotas
 * (developers.google.com/apps-script/guides/services/quotas): property reads and writes (50,000 a
 * day on a consumer account), URL Fetch calls (20,000) and simultaneous executions (30 per user).
 * The Apps Script fakes count each and throw past it, as Apps Script does (apps-script-limits.ts).
 * Virtual time: the host's timers are vitest's fake ones and the script's clock follows them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createBridge } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost } from "../../../../src/hosts/sheets/sidebar/host.js";
import { callOk, loadAppsScript, type World } from "../../../support/apps-script.js";
import { DAILY_QUOTAS, SIMULTANEOUS_EXECUTIONS } from "../../../support/apps-script-limits.js";
import { fakeScriptRun, type ScriptHandler } from "../../../support/fake-script-run.js";

const DAY_MS = 24 * 60 * 60_000;

function sidebarOver(world: World) {
  const start = world.clock.now;
  const t0 = Date.now();
  const handlers = new Proxy({} as Record<string, ScriptHandler>, {
    get: (_target, name: string) =>
      typeof world.global[name] === "function"
        ? (...args: unknown[]) => {
            // The script's clock follows the sidebar's (virtual) time.
            world.clock.now = Math.max(world.clock.now, start + (Date.now() - t0));
            return world.global[name](...args);
          }
        : undefined,
  });
  const { run, calls, stats } = fakeScriptRun(handlers);
  const visible = {
    visibilityState: "visible",
    addEventListener() {},
    removeEventListener() {},
  } as unknown as Document;
  const host = createSheetsHost(
    createBridge(() => run),
    { document: visible, window: null },
  );
  return { host, calls, stats };
}

describe("Apps Script's quotas", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a day of idle polling uses a small share of the daily property and fetch quotas, one execution at a time", async () => {
    const world = loadAppsScript({ sheets: [{ id: 0, name: "Sheet1", cell: "A1" }] });
    callOk(world, "saveSettings", {
      tenantUrl: "https://acme.reporting.example",
      deploymentId: 7,
      apiKey: "sk-x",
    });
    const { host, calls, stats } = sidebarOver(world);
    host.onContextChanged(() => {});
    await vi.advanceTimersByTimeAsync(DAY_MS);
    const polls = calls.filter((c) => c.name === "getActiveContext").length;
    // It did poll all day (about every 10 s once idle), so the counts below are of real use.
    expect(polls).toBeGreaterThan(DAY_MS / 20_000);
    const { properties, urlfetch } = world.quotas.peak;
    expect(properties).toBeGreaterThan(0);
    // Far inside: under a fifth of a consumer account's day (the smallest quota).
    expect(properties).toBeLessThan(DAILY_QUOTAS.properties.consumer / 5);
    expect(urlfetch).toBeLessThan(DAILY_QUOTAS.urlfetch.consumer / 5);
    expect(world.executions.max).toBeLessThanOrEqual(1);
    expect(stats.maxInFlight).toBeLessThan(SIMULTANEOUS_EXECUTIONS);
  });
});

describe("the fakes enforce them", () => {
  it("the 50,001st property read of a day throws Apps Script's quota error; the next day it works again", () => {
    const world = loadAppsScript();
    const store = (
      world.global.PropertiesService as { getUserProperties(): { getProperty(k: string): unknown } }
    ).getUserProperties();
    for (let i = 0; i < DAILY_QUOTAS.properties.consumer; i++) store.getProperty("k");
    expect(() => store.getProperty("k")).toThrow("Service invoked too many times for one day: properties.");
    world.clock.now += DAY_MS;
    expect(store.getProperty("k")).toBeNull();
  });

  it("a Workspace account has ten times the property quota", () => {
    const world = loadAppsScript({ account: "workspace" });
    const store = (
      world.global.PropertiesService as { getUserProperties(): { getProperty(k: string): unknown } }
    ).getUserProperties();
    for (let i = 0; i < DAILY_QUOTAS.properties.consumer + 1; i++) store.getProperty("k");
    expect(world.quotas.used.properties).toBe(DAILY_QUOTAS.properties.consumer + 1);
  });

  it("a 31st simultaneous execution is refused", () => {
    const world = loadAppsScript();
    for (let i = 0; i < SIMULTANEOUS_EXECUTIONS; i++) world.executions.enter();
    expect(() => world.executions.enter()).toThrow(/too many scripts/);
  });
});
