/**
 * The Excel page's one early script, loaded before the pane's module (an entry of its own,
 * tooling/excel/build.ts, an async module script that runs as soon as its own small graph has
 * loaded). It does two things the pane's code must not wait for:
 *
 * 1. It associates the right-click command as soon as Office is ready. A right-click can be what
 *    starts this shared runtime, and Office runs the command as soon as it is associated;
 *    Microsoft's advice is to associate commands early, so this file imports no code statically.
 *    Invocations that arrive before the pane's core is ready wait here, in order, in
 *    `disconnectHereEarly`, and run once main.ts makes it ready (main.ts imports this module, so
 *    the page loads it once and both share the one queue).
 * 2. It starts what the first list waits for (start.ts): the transport and the gateway's code at
 *    once, and, once Office is ready, the host with the first screen's reads, so the first list's
 *    requests go out while the pane's larger module is still loading. start.ts is imported
 *    dynamically, so the command's association never waits for its code to load; its chunk is
 *    already on its way when this runs (the page's `modulepreload` links name it, as the pane's
 *    module imports it too).
 *
 * Without a page (a unit test importing `createEarlyCommand` in Node) nothing starts: there is no
 * `Office` to associate with, no start limit to keep, no `document` to write to and nothing to load.
 */
import type { CommandEvent, OfficeApi } from "./office.js";

/** The manifest's `<FunctionName>` for "Disconnect report here". */
export const DISCONNECT_HERE_ACTION = "disconnectReportHere";

export interface EarlyCommand<E extends { completed(options?: unknown): void }> {
  /** What Office calls (`Office.actions.associate`). */
  invoke(event: E): void;
  /** The core is ready: run what waited, in order, then every later command at once. */
  ready(run: (event: E) => void): void;
  /** The core could not load: tell the user once and complete every waiting command. */
  failed(tell: () => void): void;
  /** How many commands are waiting (for tests). */
  readonly waiting: number;
  /** True once `ready` was called. */
  readonly isReady: boolean;
}

export function createEarlyCommand<E extends { completed(options?: unknown): void }>(): EarlyCommand<E> {
  const queue: E[] = [];
  let run: ((event: E) => void) | null = null;
  let broken: (() => void) | null = null;
  return {
    invoke(event) {
      if (run) run(event);
      else if (broken) {
        broken();
        event.completed();
      } else queue.push(event);
    },
    ready(runner) {
      run = runner;
      for (const event of queue.splice(0)) runner(event);
    },
    failed(tell) {
      broken = tell;
      const waiting = queue.splice(0);
      if (waiting.length) tell();
      // Office shows a command as running until it is completed, whatever happened.
      for (const event of waiting) event.completed();
    },
    get waiting() {
      return queue.length;
    },
    get isReady() {
      return run !== null;
    },
  };
}

/**
 * The page's one "Disconnect report here" queue: Office's invocations are handed to it below,
 * main.ts makes it ready.
 */
export const disconnectHereEarly = createEarlyCommand<CommandEvent>();

/** If the pane's code has not started by then, it will not: complete what waits, and say so. */
const START_LIMIT_MS = 60_000;

const office = (
  globalThis as { Office?: OfficeApi & { onReady?(callback: (info?: { host?: unknown }) => void): unknown } }
).Office;

/** The page's static explanation (taskpane.html), shown at once: no pane will replace it. */
function explainOutsideOffice() {
  if (typeof document === "undefined") return;
  document.getElementById("outside")?.classList.add("addin-outside-now");
}

// As Office's own command template does: associate once Office.js is ready, which does not wait
// for this page's other scripts. Without Office.js (blocked, offline), or when Office.onReady
// reports no host (the page opened outside Office), the page says what it is; nothing can then
// invoke the command, so no start limit is kept.
if (!office?.onReady) explainOutsideOffice();
else {
  // What needs no Office starts at once; a failure to load is the pane's module's to show (it starts
  // the same host, from the same module, and says what failed).
  const start = import("./start.js");
  start.then((s) => s.prepareExcel()).catch(() => undefined);

  office.onReady((info) => {
    if (!info?.host) {
      explainOutsideOffice();
      return;
    }
    office.actions?.associate(DISCONNECT_HERE_ACTION, (event) => disconnectHereEarly.invoke(event));
    start.then((s) => s.startExcel()).catch(() => undefined);
  });

  setTimeout(() => {
    if (disconnectHereEarly.isReady) return;
    disconnectHereEarly.failed(() => {
      const notice = document.getElementById("notice");
      if (!notice) return;
      notice.textContent = "The Reports pane could not start. Close it and open it again.";
      notice.dataset.ok = "false";
      notice.hidden = false;
    });
  }, START_LIMIT_MS);
}
