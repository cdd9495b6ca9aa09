/**
 * The right-click command, registered before the pane's code has loaded. A right-click on a cold
 * shared runtime starts the page and runs the command as soon as it is associated; Microsoft's
 * advice is to associate commands early, so this file is small and imports no code. Commands that
 * arrive before the pane's core is ready wait in order and run once it is.
 */

import type { CommandEvent } from "./office.js";

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
 * The page's one "Disconnect report here" queue: early.ts hands Office's invocations to it, main.ts
 * makes it ready. Both import this module, so they share it.
 */
export const disconnectHereEarly = createEarlyCommand<CommandEvent>();
