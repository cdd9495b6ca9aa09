/**
 * The runners of the core's flows. A flow (refresh, place, disconnect, undo, a data load) is a
 * program: a generator that yields effects (requests, reads, writes) and takes their answers,
 * deciding everything itself and doing no I/O. A runner drives it with the host's effect handler:
 * each answer goes back into the program, each failed effect's error is thrown into it, so the
 * program decides what a failure means. One asynchronous runner (the pane, the Excel command) and
 * one synchronous runner (Apps Script, where every call blocks) serve every flow.
 */

/** Stops a run early: after an effect, a value to return from the program instead of going on. */
export type StopCheck<E, R> = (effect: E) => R | undefined;

export async function runProgram<E, R>(
  program: Generator<E, R, unknown>,
  handle: (effect: E) => unknown,
  stop?: StopCheck<E, R>,
): Promise<R> {
  let next = program.next();
  while (!next.done) {
    const effect = next.value;
    let value: unknown;
    try {
      value = await handle(effect);
    } catch (e) {
      next = program.throw(e);
      continue;
    }
    const stopped = stop?.(effect);
    next = stopped === undefined ? program.next(value) : program.return(stopped);
  }
  return next.value;
}

export function runProgramSync<E, R>(program: Generator<E, R, unknown>, handle: (effect: E) => unknown): R {
  let next = program.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = handle(next.value);
    } catch (e) {
      next = program.throw(e);
      continue;
    }
    next = program.next(value);
  }
  return next.value;
}
