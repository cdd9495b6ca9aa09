/**
 * Reading Chromium traces for the bench (bench/cpu.ts): main-thread CPU time to the frame that
 * painted the list, and one kind of event's share of it. Kept apart from the bench's browser and
 * build code so its tests load nothing else.
 */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/**
 * The main-thread CPU time (ms) of the renderer that painted the list: the thread time of its
 * top-level tasks from the trace's start (just before the navigation) to the "list-painted" mark
 * (browser-timing.ts) or `markName`, the task holding the mark included.
 */
export function mainThreadCpuMs(events: readonly TraceEvent[], markName = "list-painted"): number {
  return eventCpuMs(events, "RunTask", markName);
}

/**
 * The main-thread CPU time (ms) of one kind of trace event up to the list-painted mark, on the
 * thread that painted it: how much of `mainThreadCpuMs` went to, say, V8 producing its code cache.
 */
export function eventCpuMs(events: readonly TraceEvent[], name: string, markName = "list-painted"): number {
  const mark = events.find((e) => e.name === markName && e.cat.includes("blink.user_timing"));
  if (!mark) throw new Error(`the trace has no ${markName} mark`);
  let us = 0;
  for (const e of events) {
    if (e.pid !== mark.pid || e.tid !== mark.tid || e.ph !== "X" || e.name !== name || e.ts > mark.ts)
      continue;
    us += e.tdur ?? e.dur ?? 0;
  }
  return us / 1000;
}

/** V8 writing a script's code cache, which Chromium asks of it on the second run of a script it keeps. */
export const PRODUCE_CODE_CACHE = "v8.produceModuleCache";
