/**
 * early.ts, the Excel page's one early script, starts the first list's reads (start.ts) as well as
 * associating the right-click command: what needs no Office (`prepareExcel`) at once, the host with
 * the first screen's reads (`startExcel`) once Office is ready, and only after the command is
 * associated. Outside Office (no host) nothing is started; a start.ts that fails to load is left to
 * the pane's module to report, without an unhandled rejection here.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

type Ready = (info?: { host?: unknown }) => void;

/** A stand-in Office and page, and start.ts replaced by a recorder of what early.ts calls. */
function stage(startModule: () => Promise<unknown>) {
  const log: string[] = [];
  let ready: Ready | null = null;
  vi.stubGlobal("document", { getElementById: () => ({ classList: { add: () => log.push("explained") } }) });
  vi.stubGlobal("Office", {
    onReady: (callback: Ready) => {
      ready = callback;
    },
    actions: { associate: (id: string) => log.push(`associate ${id}`) },
  });
  vi.doMock("../../../src/hosts/excel/start.js", startModule);
  return { log, ready: (info: { host?: unknown }) => ready?.(info) };
}

async function runEarly() {
  vi.resetModules();
  await import("../../../src/hosts/excel/early.js");
  // Let the dynamic import of start.ts settle.
  await vi.dynamicImportSettled();
}

describe("the early script starts the first load", () => {
  afterEach(() => {
    vi.doUnmock("../../../src/hosts/excel/start.js");
    vi.unstubAllGlobals();
  });

  it("prepares at once, and starts the host once Office is ready, after the command is associated", async () => {
    const { log, ready } = stage(async () => ({
      prepareExcel: () => log.push("prepareExcel"),
      startExcel: () => log.push("startExcel"),
    }));
    await runEarly();
    expect(log).toEqual(["prepareExcel"]);
    ready({ host: "Excel" });
    await vi.dynamicImportSettled();
    expect(log).toEqual(["prepareExcel", "associate disconnectReportHere", "startExcel"]);
  });

  it("starts no host when Office reports none (the page opened outside Office)", async () => {
    const { log, ready } = stage(async () => ({
      prepareExcel: () => log.push("prepareExcel"),
      startExcel: () => log.push("startExcel"),
    }));
    await runEarly();
    ready({});
    await vi.dynamicImportSettled();
    expect(log).toEqual(["prepareExcel", "explained"]);
  });

  it("still associates the command when start.ts cannot load, and leaves no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const { log, ready } = stage(async () => {
        throw new Error("the chunk failed to load");
      });
      await runEarly();
      ready({ host: "Excel" });
      await vi.dynamicImportSettled();
      // A rejection is reported after the microtasks of the turn that made it.
      await new Promise((resolve) => setImmediate(resolve));
      expect(log).toEqual(["associate disconnectReportHere"]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
