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

/** A field of the Settings form, by the name the pane and the hosts use for the setting. */
export type SettingsField = "tenantUrl" | "apiKey" | "chatUrl" | "agentApiKey" | "scimToken";

/**
 * The Settings field a failure is about, so an "Open settings" action can open Settings there: a
 * 401/403 from the platform is about the API key, from the agent about the agent key, from the
 * SCIM directory about the SCIM token. Null when Settings cannot fix it.
 */
export function settingsFieldFor(
  error: unknown,
  source: "platform" | "agent" | "directory" = "platform",
): SettingsField | null {
  const kind = errorKind(error);
  if (kind !== "unauthorized" && kind !== "forbidden") return null;
  if (source === "agent") return "agentApiKey";
  if (source === "directory") return "scimToken";
  return "apiKey";
}
