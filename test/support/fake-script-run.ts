/**
 * A google.script.run for the sidebar's tests and the bench: answers later, as the real one does,
 * and lets across only what Google's does, both ways. Google's rules
 * (developers.google.com/apps-script/guides/html/reference/run, "myFunction(...)", and
 * developers.google.com/apps-script/guides/html/communication, "Parameters and return values"):
 * - legal: primitives (number, boolean, string, null) and objects and arrays made of them;
 * - a form element is legal as a parameter only as the function's ONLY parameter; it arrives as an
 *   object of its named fields (here: name to value);
 * - a Date, a function, a DOM element other than a form, or any other type (here: anything whose
 *   prototype is not Object's or Array's, a bigint, a symbol), at any depth, makes the request fail;
 *   so does a circular reference. The client throws at the call
 *   ("Failed due to illegal value in property: <key>", as the browser console shows it);
 * - undefined fields within arrays become null (and, as in JSON, an undefined property of an object
 *   is dropped);
 * - the server gets a copy: changing it does not change the client's object.
 * Return values: the guide's legal types are the same. Where Google's answer to an illegal return
 * value is not documented, this fake fails the call through the failure handler, naming the field,
 * so a test sees the server function's mistake instead of a silent null.
 * - At most 10 calls run at once: "The google.script.run API allows 10 concurrent calls to server
 *   functions"; an 11th waits until one of the 10 finishes (the communication guide).
 */
import type { ScriptRun } from "../../src/hosts/sheets/sidebar/bridge.js";

export type ScriptHandler = (...args: unknown[]) => unknown;

/** google.script.run's limit on calls running at once. */
export const CONCURRENT_CALLS = 10;

export class IllegalScriptRunValue extends TypeError {}

function isForm(value: object): boolean {
  const Form = (globalThis as { HTMLFormElement?: new () => object }).HTMLFormElement;
  return Form !== undefined && value instanceof Form;
}

function isDomNode(value: object): boolean {
  const Node = (globalThis as { Node?: new () => object }).Node;
  return Node !== undefined && value instanceof Node;
}

/** A form's named fields, as Google hands them to the server (file inputs are out of scope here). */
function formFields(form: object): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const element of Array.from(
    (form as { elements: ArrayLike<{ name?: string; value?: string }> }).elements,
  )) {
    if (element.name) fields[element.name] = String(element.value ?? "");
  }
  return fields;
}

/**
 * The copy the other side receives of `value`, by Google's rules; throws IllegalScriptRunValue
 * naming the property that broke them.
 */
export function acrossScriptRun(value: unknown, key = "0", seen: Set<object> = new Set()): unknown {
  const illegal = () => new IllegalScriptRunValue(`Failed due to illegal value in property: ${key}`);
  if (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    typeof value === "number"
  ) {
    return value;
  }
  if (value === undefined) return undefined;
  if (typeof value !== "object") throw illegal(); // function, bigint, symbol
  if (seen.has(value)) throw illegal(); // a circular reference
  if (isDomNode(value)) throw illegal(); // a form is legal only as the only parameter (acrossArgs)
  const proto = Object.getPrototypeOf(value);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return value.map((item, i) => {
        const copy = acrossScriptRun(item, String(i), seen);
        return copy === undefined ? null : copy;
      });
    }
    // A plain object, of any realm (the built server runs in a vm context of its own): its
    // prototype is Object.prototype, whose own prototype is null. Date, Map, class instances: not.
    if (proto !== null && Object.getPrototypeOf(proto) !== null) throw illegal();
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const item = acrossScriptRun(v, k, seen);
      if (item !== undefined) copy[k] = item;
    }
    return copy;
  } finally {
    seen.delete(value);
  }
}

/** The parameters as the server receives them: a form only as the only parameter. */
export function acrossArgs(args: unknown[]): unknown[] {
  if (args.length === 1 && args[0] !== null && typeof args[0] === "object" && isForm(args[0])) {
    return [formFields(args[0])];
  }
  return args.map((arg, i) => acrossScriptRun(arg, String(i)));
}

/**
 * Answers each call from `handlers` after the caller returns (a handler may return a promise to
 * answer later still), by Google's rules both ways, and records it (the arguments as the server
 * received them). `inFlight` and `maxInFlight` count calls running at once.
 */
export function fakeScriptRun(handlers: Record<string, ScriptHandler>) {
  const calls: { name: string; args: unknown[] }[] = [];
  const stats = { inFlight: 0, maxInFlight: 0 };
  const waiting: (() => void)[] = [];
  const slot = (): Promise<void> => {
    if (stats.inFlight < CONCURRENT_CALLS) {
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve)).then(() => slot());
  };
  const release = () => {
    stats.inFlight--;
    waiting.shift()?.();
  };
  const make = (onSuccess?: (v: unknown) => void, onFailure?: (e: unknown) => void): ScriptRun =>
    new Proxy({} as ScriptRun, {
      get(_target, prop: string) {
        if (prop === "withSuccessHandler") return (fn: (v: unknown) => void) => make(fn, onFailure);
        if (prop === "withFailureHandler") return (fn: (e: unknown) => void) => make(onSuccess, fn);
        const handler = handlers[prop];
        if (!handler) return undefined;
        return (...args: unknown[]) => {
          // Thrown here, at the call, before anything reaches the server.
          const received = acrossArgs(args);
          calls.push({ name: prop, args: received });
          slot()
            .then(() => handler(...received))
            .then(
              (value) => acrossScriptRun(value ?? null, "return value"),
              (error: unknown) => Promise.reject({ thrown: error }),
            )
            .then(
              (value) => {
                release();
                onSuccess?.(value);
              },
              (failure: unknown) => {
                release();
                const thrown = (failure as { thrown?: unknown })?.thrown;
                onFailure?.(thrown !== undefined ? thrown : failure);
              },
            );
        };
      },
    });
  return { run: make(), calls, stats };
}
