/**
 * The refresh worker (src/hosts/prepare-result.ts, prepare-off-thread.ts, direct-refresh.ts): where
 * the page can start one, a placement's data is loaded through the page's data client (every effect
 * done on the page), parsed, laid out, split and hashed in the worker, and the page gets each block's
 * values as it writes it, never the answer or the whole grid; without one, or when it cannot run,
 * the page does the work itself. The worker here is the real worker code run in this process behind
 * a stand-in that passes every message through structuredClone, as postMessage does.
 */
import { describe, expect, it } from "vitest";
import {
  type DataEffect,
  type GridCell,
  PlatformError,
  placedReports,
  planRefresh,
  type RefreshInput,
  type Report,
  reportGrid,
  resultChecksum,
} from "../../src/core/index.js";
import { readBodyBytes } from "../../src/core/transport.js";
import { refreshWithGateway } from "../../src/hosts/direct-refresh.js";
import type { WorkerLike } from "../../src/hosts/prepare-off-thread.js";
import { servePreparation } from "../../src/hosts/prepare-result.js";
import { ordersByCity } from "../core/fixtures.js";

const SHEET = { id: "{S1}", name: "Sales" };
const ROWS = 2_000;
const { report, answer } = ordersByCity(ROWS, SHEET, "p7");
const items = planRefresh(placedReports([report]), { kind: "all" }, [SHEET]).items;
const grid = reportGrid(report, answer);
const LIMITS = { maxBlockBytes: 20_000, maxReadCells: 200_000 };

/** The real worker code behind a Worker's interface; every message structured-cloned, a task later. */
function inProcessWorker(log: { toPage: unknown[]; terminated: number }): WorkerLike {
  const pageListeners: ((event: { data: unknown }) => void)[] = [];
  const workerListeners: ((event: { data: unknown }) => void)[] = [];
  const deliver = (to: typeof pageListeners, message: unknown) => {
    const data = structuredClone(message);
    setTimeout(() => {
      for (const l of to) l({ data });
    }, 0);
  };
  servePreparation({
    postMessage: (message) => {
      log.toPage.push(message);
      deliver(pageListeners, message);
    },
    addEventListener: (_type, listener) => workerListeners.push(listener),
  });
  return {
    postMessage: (message) => deliver(workerListeners, message),
    addEventListener: (type: "message" | "error", listener: (event: { data: unknown }) => void) => {
      if (type === "message") pageListeners.push(listener);
    },
    terminate: () => {
      log.terminated++;
    },
  } as WorkerLike;
}

/**
 * The page's data client, as far as the worker's load needs it: one data URL, one token, the answer
 * (as the bytes read, since the worker asks for them).
 */
function pageEffects(respond: (request: number) => { status: number; text: string } | PlatformError) {
  const done: string[] = [];
  const asBytes: boolean[] = [];
  let requests = 0;
  const runDataEffect = async (effect: DataEffect, options: { asBytes?: boolean } = {}) => {
    done.push(effect.type);
    switch (effect.type) {
      case "data-url":
        return "https://data.example.com";
      case "token":
        return "t0ken-of-the-deployment";
      case "request": {
        asBytes.push(options.asBytes === true);
        const r = respond(++requests);
        if (r instanceof PlatformError) throw r;
        return {
          status: r.status,
          headers: { "content-type": "application/json" },
          body: new TextEncoder().encode(r.text),
        };
      }
      default:
        return undefined;
    }
  };
  return { done, asBytes, runDataEffect };
}

function cells() {
  const written: GridCell[][][] = [];
  return {
    written,
    read: async () => [[]],
    write: async (block: { values: GridCell[][] }) => {
      written.push(block.values);
    },
  };
}

describe("refresh with the refresh worker", () => {
  it("loads, lays out and hashes in the worker; the page gets the blocks one by one and records the same checksum", async () => {
    const log = { toPage: [] as unknown[], terminated: 0 };
    const page = pageEffects(() => ({ status: 200, text: JSON.stringify(answer) }));
    const c = cells();
    let loadsOnPage = 0;
    let recorded: RefreshInput | null = null;
    const progress: string[] = [];
    const outcomes = await refreshWithGateway(
      items,
      { confirmOverwrite: async () => true, onProgress: (p) => progress.push(p.phase) },
      {
        loadReportData: async () => {
          loadsOnPage++;
          return answer;
        },
        recordRefresh: async (_d, _r, input) => {
          recorded = input;
          return report as Report;
        },
        runDataEffect: page.runDataEffect,
      },
      c,
      LIMITS,
      () => inProcessWorker(log),
    );
    expect(outcomes[0]?.status).toBe("refreshed");
    // The worker's path: the page did the I/O, never the load, the parse or the layout.
    expect(loadsOnPage).toBe(0);
    expect(page.done).toEqual(expect.arrayContaining(["data-url", "token", "request", "progress"]));
    // The answer's bytes go to the worker undecoded.
    expect(page.asBytes).toEqual([true]);
    expect(progress).toContain("loading");
    expect(progress).toContain("writing");
    // Written whole, in several blocks; no message to the page held the whole grid.
    expect(c.written.length).toBeGreaterThan(2);
    expect(c.written.flat()).toEqual(grid.values);
    const valueMessages = log.toPage.filter((m) => (m as { t: string }).t === "values") as {
      values: GridCell[][];
    }[];
    expect(valueMessages).toHaveLength(c.written.length);
    for (const m of valueMessages) expect(m.values.length).toBeLessThan(grid.rows / 2);
    expect(recorded!.resultChecksum).toEqual(resultChecksum(grid.values));
    // The worker lives for the run.
    expect(log.terminated).toBe(1);
  });

  it("an error of the page's I/O crosses to the worker's load as the same kind: a token refused twice is no access", async () => {
    const log = { toPage: [] as unknown[], terminated: 0 };
    const page = pageEffects(
      () => new PlatformError("forbidden", "The data API refused the token.", { status: 403 }),
    );
    const outcomes = await refreshWithGateway(
      items,
      { confirmOverwrite: async () => true },
      {
        loadReportData: async () => answer,
        recordRefresh: async () => report as Report,
        runDataEffect: page.runDataEffect,
      },
      cells(),
      LIMITS,
      () => inProcessWorker(log),
    );
    // The load program renewed the token once (rule 1), then gave up with the service's refusal.
    expect(page.done.filter((t) => t === "token")).toHaveLength(2);
    expect(outcomes[0]).toMatchObject({ status: "not-refreshed", reason: "no-access" });
    expect(outcomes[0]?.message).toContain("The data API refused the token.");
  });

  it("an answer the worker cannot read is a query that failed, said in the page", async () => {
    const page = pageEffects(() => ({ status: 200, text: "{not json" }));
    const outcomes = await refreshWithGateway(
      items,
      { confirmOverwrite: async () => true },
      {
        loadReportData: async () => answer,
        recordRefresh: async () => report as Report,
        runDataEffect: page.runDataEffect,
      },
      cells(),
      LIMITS,
      () => inProcessWorker({ toPage: [], terminated: 0 }),
    );
    expect(outcomes[0]).toMatchObject({ status: "not-refreshed", reason: "query-failed" });
  });

  it("Stop while the worker loads leaves the placement as it was", async () => {
    const controller = new AbortController();
    const page = pageEffects(() => {
      controller.abort();
      return { status: 200, text: JSON.stringify(answer) };
    });
    const c = cells();
    const outcomes = await refreshWithGateway(
      items,
      { confirmOverwrite: async () => true, signal: controller.signal },
      {
        loadReportData: async () => answer,
        recordRefresh: async () => report as Report,
        runDataEffect: page.runDataEffect,
      },
      c,
      LIMITS,
      () => inProcessWorker({ toPage: [], terminated: 0 }),
    );
    expect(outcomes[0]).toMatchObject({ status: "not-refreshed", reason: "stopped" });
    expect(c.written).toHaveLength(0);
  });

  it("a worker that cannot start, or fails, leaves the work to the page", async () => {
    for (const createWorker of [
      () => {
        throw new Error("Refused by the Content-Security-Policy.");
      },
      () => {
        const errors: ((event: unknown) => void)[] = [];
        return {
          // Its script did not load: the error event, no answer ever.
          postMessage: () =>
            setTimeout(() => {
              for (const l of errors) l({});
            }, 0),
          addEventListener: (type: string, listener: (event: unknown) => void) => {
            if (type === "error") errors.push(listener);
          },
          terminate: () => undefined,
        } as WorkerLike;
      },
    ]) {
      let loadsOnPage = 0;
      const c = cells();
      const outcomes = await refreshWithGateway(
        items,
        { confirmOverwrite: async () => true },
        {
          loadReportData: async () => {
            loadsOnPage++;
            return answer;
          },
          recordRefresh: async () => report as Report,
          runDataEffect: pageEffects(() => ({ status: 200, text: JSON.stringify(answer) })).runDataEffect,
        },
        c,
        LIMITS,
        createWorker,
      );
      expect(outcomes[0]?.status).toBe("refreshed");
      expect(loadsOnPage).toBe(1);
      expect(c.written.flat()).toEqual(grid.values);
    }
  });

  it("without a worker (no Worker in this runtime) the page does the work", async () => {
    let loadsOnPage = 0;
    const outcomes = await refreshWithGateway(
      items,
      { confirmOverwrite: async () => true },
      {
        loadReportData: async () => {
          loadsOnPage++;
          return answer;
        },
        recordRefresh: async () => report as Report,
        runDataEffect: pageEffects(() => ({ status: 200, text: "" })).runDataEffect,
      },
      cells(),
      LIMITS,
    );
    expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe("undefined");
    expect(outcomes[0]?.status).toBe("refreshed");
    expect(loadsOnPage).toBe(1);
  });
});

describe("readBodyBytes (what the page hands the worker)", () => {
  const stream = (chunks: (Uint8Array | string)[]) =>
    new ReadableStream<Uint8Array | string>({
      start(controller) {
        for (const c of chunks) controller.enqueue(c);
        controller.close();
      },
    });

  it("a stream of bytes comes whole and undecoded, a multi-byte character split across chunks included", async () => {
    const bytes = new TextEncoder().encode('{"city":"Gdańsk"}');
    const split = bytes.indexOf(0xc5) + 1; // inside "ń"
    const body = await readBodyBytes(stream([bytes.slice(0, split), bytes.slice(split)]));
    expect(body).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(body as Uint8Array)).toBe('{"city":"Gdańsk"}');
  });

  it("text stays text, and past the limit it stops with the same error as readBodyText", async () => {
    expect(await readBodyBytes("{}")).toBe("{}");
    expect(await readBodyBytes(stream([new TextEncoder().encode("{"), "}"]))).toBe("{}");
    await expect(readBodyBytes(stream([new Uint8Array(10), new Uint8Array(10)]), 15)).rejects.toMatchObject({
      kind: "invalid-response",
    });
  });
});
