/**
 * The bench's reading of a Chromium trace (bench/trace.ts): the main-thread CPU to the painted list is
 * the thread time of the top-level tasks of the thread that set the mark, up to and including the
 * task holding it; one kind of event's share is counted the same way.
 */
import { describe, expect, it } from "vitest";
import { eventCpuMs, mainThreadCpuMs } from "../../bench/trace.js";

const MAIN = { pid: 1, tid: 10 };

function task(ts: number, tdur: number, where = MAIN) {
  return { name: "RunTask", cat: "toplevel", ph: "X", ts, dur: tdur * 2, tdur, ...where };
}

function event(name: string, ts: number, tdur: number, where = MAIN) {
  return { name, cat: "v8", ph: "X", ts, dur: tdur, tdur, ...where };
}

const mark = (ts: number, where = MAIN) => ({
  name: "list-painted",
  cat: "blink.user_timing",
  ph: "R",
  ts,
  ...where,
});

describe("main-thread CPU from a trace", () => {
  const trace = [
    task(0, 4_000),
    event("v8.produceModuleCache", 100, 1_500),
    // Another renderer's and another thread's tasks are not the page's main thread.
    task(500, 9_000, { pid: 2, tid: 10 }),
    task(600, 9_000, { pid: 1, tid: 11 }),
    event("v8.produceModuleCache", 700, 9_000, { pid: 1, tid: 11 }),
    task(10_000, 2_000),
    mark(10_500),
    // After the frame that painted the list: not counted.
    task(20_000, 7_000),
    event("v8.produceModuleCache", 20_100, 3_000),
  ];

  it("sums the thread time of the marking thread's tasks up to the mark", () => {
    expect(mainThreadCpuMs(trace)).toBe(6);
  });

  it("counts one kind of event on that thread up to the mark", () => {
    expect(eventCpuMs(trace, "v8.produceModuleCache")).toBe(1.5);
    expect(eventCpuMs(trace, "v8.compileModule")).toBe(0);
  });

  it("says so when the trace has no mark", () => {
    const unmarked = trace.filter((e) => e.name !== "list-painted");
    expect(() => mainThreadCpuMs(unmarked)).toThrow("the trace has no list-painted mark");
    expect(() => eventCpuMs(unmarked, "v8.produceModuleCache")).toThrow("no list-painted mark");
  });
});
