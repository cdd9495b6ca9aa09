/**
 * The Sheets sidebar's polling cost: `google.script.run` calls per hour while the sidebar is open
 * and visible. Sheets tells a sidebar nothing when the selection moves, so the host polls
 * `getActiveContext`; each poll is one Apps Script execution and one property read, and property
 * reads count against a daily quota (50,000 a day on consumer accounts). The host backs off while
 * nothing changes: 1.5 s after a user action or a change, rising to 10 s.
 *
 * createSheetsHost over the real bridge and a counting google.script.run, on a virtual clock (the
 * host's timers are injected): an hour takes milliseconds, and the count is exact, not sampled.
 * Three hours of use: the user moving around all the time, the sidebar left open and idle, and a
 * user who does something every 2 minutes.
 */
import type { ActiveContext } from "../src/hosts/host.js";
import { createBridge } from "../src/hosts/sheets/sidebar/bridge.js";
import { createSheetsHost, type Timers } from "../src/hosts/sheets/sidebar/host.js";
import { fakeScriptRun } from "../test/support/fake-script-run.js";

const HOUR_MS = 3_600_000;
/** Property reads a day on a consumer account (Apps Script quotas). */
const DAILY_PROPERTY_READS = 50_000;
/** The target for an idle sidebar: a poll about every 10 s. */
const IDLE_BUDGET_PER_HOUR = 400;

/** Timers on a virtual clock: `advance` runs what falls due, letting promises settle in between. */
class VirtualTimers implements Timers {
  now = 0;
  private seq = 0;
  private queue: { at: number; id: number; callback: () => void }[] = [];

  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.queue.push({ at: this.now + Math.max(0, ms), id, callback });
    this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }

  async advance(ms: number, onTick?: (now: number) => void | Promise<void>): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const next = this.queue[0];
      if (!next || next.at > end) break;
      this.queue.shift();
      this.now = next.at;
      await onTick?.(this.now);
      next.callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.now = end;
  }
}

const base: ActiveContext = {
  workbookId: "sheet-1",
  workbookName: "Budget",
  sheetId: "0",
  sheetName: "Sheet1",
  cell: "A1",
};

/** One hour of a visible sidebar; `scenario` moves the selection or acts, given the virtual time. */
async function callsPerHour(
  scenario: "active" | "idle" | "every-2-minutes",
): Promise<{ polls: number; other: number }> {
  const timers = new VirtualTimers();
  let context = base;
  let moves = 0;
  const { run, calls } = fakeScriptRun({
    getActiveContext: () => ({ ok: true, value: { context, revision: "0.00000000" } }),
    selectRange: () => ({ ok: true, value: null }),
  });
  const visible = {
    visibilityState: "visible",
    addEventListener() {},
    removeEventListener() {},
  } as unknown as Document;
  const host = createSheetsHost(
    createBridge(() => run),
    { document: visible, window: null, timers },
  );
  host.onContextChanged(() => {});
  let nextAction = 120_000;
  await timers.advance(HOUR_MS, async (now) => {
    if (scenario === "active") {
      // The user moves before every poll: each one finds a new cell.
      context = { ...base, cell: `B${++moves}` };
    } else if (scenario === "every-2-minutes" && now >= nextAction) {
      nextAction += 120_000;
      await host.selectRange({ sheetId: "0", sheetName: "Sheet1", range: "B2" });
      context = { ...base, cell: `C${++moves}` };
    }
  });
  const polls = calls.filter((c) => c.name === "getActiveContext").length;
  return { polls, other: calls.length - polls };
}

export async function run(): Promise<void> {
  const active = await callsPerHour("active");
  const idle = await callsPerHour("idle");
  const mixed = await callsPerHour("every-2-minutes");
  const dayShare = (perHour: number) => ((perHour * 8 * 100) / DAILY_PROPERTY_READS).toFixed(1);
  console.log(
    `sheets polling, active (the selection moves before every poll): ${active.polls} getActiveContext calls per hour (every 1.5 s); 8 hours: ${dayShare(active.polls)}% of ${DAILY_PROPERTY_READS.toLocaleString("en")} property reads a day`,
  );
  console.log(
    `sheets polling, idle (nothing changes for an hour): ${idle.polls} calls per hour (rising to every 10 s) · goal: at most ${IDLE_BUDGET_PER_HOUR} · ${idle.polls <= IDLE_BUDGET_PER_HOUR ? "meets" : "misses"}; 8 hours: ${dayShare(idle.polls)}% of the daily property reads (a fixed 1.5 s poll: 2400 calls, 38.4%)`,
  );
  console.log(
    `sheets polling, a user action every 2 minutes: ${mixed.polls} polls + ${mixed.other} action calls per hour; 8 hours: ${dayShare(mixed.polls)}% of the daily property reads`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
