/** A google.script.run for the sidebar's tests and the bench: answers later, as the real one does. */
import type { ScriptRun } from "../../src/hosts/sheets/sidebar/bridge.js";

export type ScriptHandler = (...args: unknown[]) => unknown;

/**
 * Answers each call from `handlers` after the caller returns (a handler may return a promise to
 * answer later still), through a JSON round trip as Google's serialisation does, and records it.
 */
export function fakeScriptRun(handlers: Record<string, ScriptHandler>) {
  const calls: { name: string; args: unknown[] }[] = [];
  const make = (onSuccess?: (v: unknown) => void, onFailure?: (e: unknown) => void): ScriptRun =>
    new Proxy({} as ScriptRun, {
      get(_target, prop: string) {
        if (prop === "withSuccessHandler") return (fn: (v: unknown) => void) => make(fn, onFailure);
        if (prop === "withFailureHandler") return (fn: (e: unknown) => void) => make(onSuccess, fn);
        const handler = handlers[prop];
        if (!handler) return undefined;
        return (...args: unknown[]) => {
          calls.push({ name: prop, args });
          Promise.resolve()
            .then(() => handler(...args))
            .then(
              (value) => onSuccess?.(JSON.parse(JSON.stringify(value ?? null))),
              (error) => onFailure?.(error),
            );
        };
      },
    });
  return { run: make(), calls };
}
