/**
 * The listener plumbing the hosts share: listeners told in turn, a watch (events, a poll) that runs
 * only while someone listens, and a timer that settles a burst of events into one read.
 */

/** The timers a host waits with (tests and the bench drive a virtual clock); the global ones by default. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const globalTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The listeners of one kind of change. */
export interface Listeners<A extends unknown[]> {
  readonly size: number;
  /** Adds a listener; returns the function that removes it (calling that again does nothing). */
  add(listener: (...args: A) => void): () => void;
  /** Calls every listener in turn (those present when it started, so one may unsubscribe meanwhile). */
  notify(...args: A): void;
}

/** Listener sets that share one watch: started with the first listener of any, stopped after the last leaves. */
export interface ListenerGroup {
  /** Whether any set of the group has a listener. */
  readonly listening: boolean;
  /** A new set in the group. */
  listeners<A extends unknown[]>(): Listeners<A>;
}

export interface Watch {
  start(): void;
  stop(): void;
}

export function createListenerGroup(watch: Watch): ListenerGroup {
  let count = 0;
  return {
    get listening() {
      return count > 0;
    },
    listeners<A extends unknown[]>(): Listeners<A> {
      const set = new Set<(...args: A) => void>();
      return {
        get size() {
          return set.size;
        },
        add(listener) {
          // Each subscription is its own entry: the same function added twice is removed twice.
          const entry = (...args: A) => listener(...args);
          set.add(entry);
          count += 1;
          if (count === 1) watch.start();
          return () => {
            if (!set.delete(entry)) return;
            count -= 1;
            if (count === 0) watch.stop();
          };
        },
        notify(...args) {
          for (const listener of [...set]) listener(...args);
        },
      };
    },
  };
}

/** One set of listeners with no watch of its own. */
export function createListeners<A extends unknown[]>(): Listeners<A> {
  return createListenerGroup({ start() {}, stop() {} }).listeners<A>();
}

export interface Settler {
  /** Something changed: `settled` runs `ms` after the last of a burst of triggers. */
  trigger(): void;
  cancel(): void;
}

/** Settles a burst of events (a selection dragged across cells) into one call of `settled`. */
export function settler(settled: () => void, ms: number, timers: Timers = globalTimers): Settler {
  let handle: unknown = null;
  const cancel = () => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  return {
    trigger() {
      cancel();
      handle = timers.setTimeout(() => {
        handle = null;
        settled();
      }, ms);
    },
    cancel,
  };
}

/**
 * Runs `read` each time it is called and hands `deliver` only the newest answer: an older read
 * that answers after a newer one started is dropped. Every failed read goes to `failed`.
 */
export function newestOnly<T>(
  read: () => Promise<T>,
  deliver: (value: T) => void,
  failed: (error: unknown) => void,
): () => void {
  let generation = 0;
  return () => {
    const mine = ++generation;
    read().then((value) => {
      if (mine === generation) deliver(value);
    }, failed);
  };
}
