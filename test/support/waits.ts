/**
 * Set up before every test file (vite.config.ts `setupFiles`): waits end when what they wait for
 * shows, not at a deadline shorter than the test's own time limit.
 *
 * `vi.waitFor` and `vi.waitUntil` give up after 1 s unless told otherwise: on a loaded machine
 * (two cores shared by every worker, the browser and the servers a test starts) that deadline, not
 * the code, failed tests. Here their default becomes WAIT_LIMIT_MS, just inside the default test
 * time limit, so a wait that never succeeds still fails with its own error rather than the test's
 * time-out; a test that passes its own `timeout` keeps it. `expect.poll` gets the same default in
 * vite.config.ts.
 */
import { onTestFinished, vi } from "vitest";

/** How long a wait with no timeout of its own may take: just inside the default test time limit (20 s). */
export const WAIT_LIMIT_MS = 19_000;

type WaitOptions = number | { timeout?: number; interval?: number } | undefined;

function withDefault(options: WaitOptions): { timeout: number; interval?: number } {
  if (typeof options === "number") return { timeout: options };
  return { ...options, timeout: options?.timeout ?? WAIT_LIMIT_MS };
}

/**
 * A wait whose test ended first (its time limit ran out) gives up quietly: its failure after that
 * belongs to no test, and must not be reported against whichever test runs then.
 */
function quietAfterTest<T>(pending: Promise<T>): Promise<T> {
  try {
    onTestFinished(() => {
      pending.catch(() => {});
    });
  } catch {
    // Outside a test (a hook): nothing to attach to.
  }
  return pending;
}

const waitFor = vi.waitFor;
const waitUntil = vi.waitUntil;
vi.waitFor = ((callback: Parameters<typeof waitFor>[0], options?: WaitOptions) =>
  quietAfterTest(waitFor(callback, withDefault(options)))) as typeof waitFor;
vi.waitUntil = ((callback: Parameters<typeof waitUntil>[0], options?: WaitOptions) =>
  quietAfterTest(waitUntil(callback, withDefault(options)))) as typeof waitUntil;
