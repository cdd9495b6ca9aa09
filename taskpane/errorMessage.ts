/**
 * What the pane shows for a failure. Errors from `host.platform` are PlatformErrors (or their JSON
 * form, revived or not) whose message is already written for the user and holds no secret; other
 * values get a generic sentence. A stack is never shown.
 */
const FALLBACK = "Something went wrong. Try again.";

export function errorMessage(error: unknown, fallback: string = FALLBACK): string {
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") return message.trim();
  }
  if (typeof error === "string" && error.trim() !== "") return error.trim();
  return fallback;
}

/** The PlatformError kind ("unauthorized", "aborted", ...) of an error or its JSON form, if any. */
export function errorKind(error: unknown): string | null {
  if (error && typeof error === "object" && "kind" in error) {
    const kind = (error as { kind: unknown }).kind;
    if (typeof kind === "string") return kind;
  }
  return null;
}
