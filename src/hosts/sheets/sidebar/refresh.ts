/**
 * Refresh in the Google Sheets sidebar (docs/google-sheets.md, "Refresh in Google Sheets"). The
 * sidebar cannot write cells or call the service: the Apps Script server does both, in one or more
 * `refreshPlacementsStep` executions, each within the 6-minute limit. This drives them: it calls a
 * step, hands each outcome to the pane, asks the overwrite question the server hands back and calls
 * again with the answer, and calls again where the last execution stopped, until none is left.
 *
 * Progress: while a step runs, `refreshStatus` is polled (another google.script.run call; the
 * server keeps the status in the user's cache). Stop: `stopRefresh` marks the run at once, and the
 * next step is sent with `stop`: the server finishes a placement it is writing and starts no other.
 * Loaded with the first refresh: the sidebar's first screen does without it.
 */
import type { RefreshOutcome } from "../../../core/refresh-flow.js";
import type { RefreshItem } from "../../../core/refresh-plan.js";
import type { RefreshHandlers } from "../../host.js";
import type { Timers } from "../../listeners.js";
import type {
  RefreshStepAnswer,
  RefreshStepRequest,
  SheetsRefreshOutcome,
} from "../server/refresh-protocol.js";
import type { ServerCall } from "./bridge.js";

/** How often a running refresh's progress is asked for. */
export const STATUS_POLL_MS = 1000;

/** A run's id: 16 random bytes in hex (the server accepts letters, digits and dashes). */
function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `run-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

export async function refreshInSheets(
  run: ServerCall,
  items: readonly RefreshItem[],
  handlers: RefreshHandlers,
  options: { timers: Timers; runId?: string },
): Promise<RefreshOutcome[]> {
  const { timers } = options;
  const byKey = new Map(items.map((item) => [item.placement.key, item]));
  const finished = new Set<string>();
  const outcomes: RefreshOutcome[] = [];
  const runId = options.runId ?? newRunId();
  const signal = handlers.signal;

  let stopSent = false;
  const onAbort = () => {
    if (stopSent) return;
    stopSent = true;
    run("stopRefresh", runId).catch(() => {});
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  let polling = true;
  let timer: unknown = null;
  const poll = async () => {
    timer = null;
    try {
      const status = await run("refreshStatus", runId);
      const item = status ? byKey.get(status.key) : undefined;
      // A late answer about a placement already done would show it as refreshing again.
      if (polling && status && item && !finished.has(status.key)) {
        handlers.onProgress?.({ item, phase: status.phase, rows: status.rows, totalRows: status.totalRows });
      }
    } catch {
      // Progress is a courtesy: the refresh goes on without it.
    }
    if (polling) timer = timers.setTimeout(() => void poll(), STATUS_POLL_MS);
  };
  timer = timers.setTimeout(() => void poll(), STATUS_POLL_MS);

  const revive = (o: SheetsRefreshOutcome): RefreshOutcome | null => {
    const item = byKey.get(o.key);
    if (!item) return null;
    const { key: _key, ...rest } = o;
    return (
      rest.status === "refreshed" ? { ...rest, item } : { ...rest, item, placement: item.placement }
    ) as RefreshOutcome;
  };

  try {
    let request: RefreshStepRequest | null = { runId, keys: items.map((i) => i.placement.key) };
    while (request) {
      if (signal?.aborted) request = { ...request, stop: true };
      const answer: RefreshStepAnswer = await run("refreshPlacementsStep", request);
      for (const o of answer.outcomes) {
        const outcome = revive(o);
        if (!outcome) continue;
        finished.add(o.key);
        outcomes.push(outcome);
        handlers.onOutcome?.(outcome);
      }
      if (!answer.next) break;
      if (answer.question !== null) {
        // Nothing of this placement was written: the server waits for the answer (Stop answers no).
        const yes = signal?.aborted ? false : await handlers.confirmOverwrite(answer.question);
        request = { ...answer.next, overwrite: yes };
      } else {
        request = answer.next;
      }
    }
  } finally {
    polling = false;
    if (timer !== null) timers.clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  return outcomes;
}
