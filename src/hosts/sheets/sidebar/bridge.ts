/**
 * The sidebar's typed promise wrapper over `google.script.run`.
 *
 * The server functions' names, arguments and results are the exports of `../server/main.ts`, read at
 * compile time from its types (a type-only import: no server code enters the sidebar bundle). A
 * misspelt name or a wrong argument fails `tsc`, not the user's click.
 *
 * Server functions answer with an Envelope; an `{ok: false}` answer rejects with the PlatformError it
 * carries. What Apps Script itself refuses (authorization lapsed, the 6-minute limit, a script
 * error) reaches the failure handler and rejects with a "server" PlatformError saying so.
 */
import { PlatformError, type SerializedPlatformError } from "../../../core/errors.js";
import type { Envelope } from "../server/envelope.js";
import type * as Server from "../server/main.js";

type ServerModule = typeof Server;

/** The functions the sidebar may call: the server exports that answer with an Envelope. */
type SidebarFunctionName = {
  [K in keyof ServerModule]: ServerModule[K] extends (...args: never[]) => Envelope<unknown> ? K : never;
}[keyof ServerModule];

type ServerArgs<K extends SidebarFunctionName> = Parameters<ServerModule[K]>;
type ServerResult<K extends SidebarFunctionName> =
  ReturnType<ServerModule[K]> extends Envelope<infer T> ? T : never;

/** Calls one server function; resolves to its value, rejects with a PlatformError. */
export type ServerCall = <K extends SidebarFunctionName>(
  name: K,
  ...args: ServerArgs<K>
) => Promise<ServerResult<K>>;

/** The shape of `google.script.run` the bridge uses. */
export interface ScriptRun {
  withSuccessHandler(handler: (value: unknown) => void): ScriptRun;
  withFailureHandler(handler: (error: unknown) => void): ScriptRun;
  [functionName: string]: unknown;
}

declare global {
  interface Window {
    google?: { script?: { run?: ScriptRun } };
  }
}

function isSerializedError(value: unknown): value is SerializedPlatformError {
  return (
    !!value &&
    typeof value === "object" &&
    (value as { name?: unknown }).name === "PlatformError" &&
    typeof (value as { kind?: unknown }).kind === "string" &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

function unwrap(name: string, answer: unknown): unknown {
  if (answer && typeof answer === "object" && "ok" in answer) {
    const envelope = answer as Envelope<unknown>;
    if (envelope.ok) return envelope.value;
    if (isSerializedError(envelope.error)) throw PlatformError.fromJSON(envelope.error);
  }
  throw new PlatformError(
    "invalid-response",
    `The add-on's script answered ${name} in a form the sidebar cannot read. Close and reopen the sidebar.`,
  );
}

function failure(name: string, error: unknown): PlatformError {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  return new PlatformError(
    "server",
    `Google Apps Script could not run ${name}${message ? `: ${message}` : ""}. Try again; if it keeps failing, close and reopen the sidebar.`,
  );
}

/** A ServerCall over `google.script.run` (looked up at each call, so tests can install a fake). */
export function createBridge(
  getRun: () => ScriptRun | undefined = () => globalThis.window?.google?.script?.run,
): ServerCall {
  return ((name: SidebarFunctionName, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const run = getRun();
      if (!run) {
        reject(
          new PlatformError(
            "server",
            "This page is not running inside Google Sheets (google.script.run is missing).",
          ),
        );
        return;
      }
      const runner = run
        .withSuccessHandler((answer) => {
          try {
            resolve(unwrap(name, answer));
          } catch (error) {
            reject(error);
          }
        })
        .withFailureHandler((error) => reject(failure(name, error)));
      const fn = runner[name];
      if (typeof fn !== "function") {
        reject(
          new PlatformError("server", `The add-on's script has no function ${name}. Reinstall the add-on.`),
        );
        return;
      }
      fn.apply(runner, args);
    })) as ServerCall;
}

export const callServer: ServerCall = createBridge();
