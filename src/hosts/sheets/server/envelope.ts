/**
 * How a server function answers the sidebar. `google.script.run` passes a thrown error to the
 * failure handler as an Error whose message Google may reword, and it drops an error's own fields;
 * so a failure the user should read (a PlatformError) travels as data instead: `{ok: false, error}`
 * with the error's JSON form, which the sidebar bridge revives as a PlatformError. The failure
 * handler is left for what Apps Script itself refuses (authorization, time limits).
 *
 * No Apps Script names here: the sidebar (../sidebar/bridge.ts) imports the Envelope type.
 */
import {
  isPlatformError,
  PlatformError,
  redact,
  type SerializedPlatformError,
} from "../../../core/errors.js";

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: SerializedPlatformError };

/**
 * Runs `work` and wraps its value or its error. An unexpected error (a bug, an Apps Script
 * exception) is reported as a "server" PlatformError with its message, secrets removed.
 */
export function respond<T>(work: () => T, secrets: () => readonly string[] = () => []): Envelope<T> {
  try {
    return { ok: true, value: work() };
  } catch (error) {
    return { ok: false, error: toPlatformError(error, secrets).toJSON() };
  }
}

export function toPlatformError(error: unknown, secrets: () => readonly string[] = () => []): PlatformError {
  if (isPlatformError(error)) return error;
  let known: readonly string[] = [];
  try {
    known = secrets();
  } catch {
    // Reading the secrets failed as well: say less rather than nothing.
  }
  const text = redact(error instanceof Error ? error.message : String(error), known);
  return new PlatformError(
    "server",
    `The add-on's script failed: ${text || "unknown error"}. Try again; if it keeps failing, close and reopen the sidebar.`,
  );
}
