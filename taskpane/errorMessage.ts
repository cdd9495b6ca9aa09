/**
 * What the pane shows for a failure. Errors from `host.platform` are PlatformErrors (or their JSON
 * form, revived or not) whose message is already written for the user and holds no secret; other
 * values get a generic sentence. A stack is never shown. When the service gave its own reason
 * (`serviceMessage`), the reason comes first, as its own sentence, and the add-in's explanation and
 * advice follow, without quoting the reason a second time.
 */
import type { SettingsField } from "../src/core/messages.js";

const FALLBACK = "Something went wrong. Try again.";

export function errorMessage(error: unknown, fallback: string = FALLBACK): string {
  if (error && typeof error === "object" && "message" in error) {
    const message = (error as { message: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") {
      return tidy(withReasonFirst(message.trim(), serviceReason(error)));
    }
  }
  if (typeof error === "string" && error.trim() !== "") return tidy(error.trim());
  return fallback;
}

/** The service's own words for the failure, if the error carries them. */
function serviceReason(error: object): string | null {
  const reason = (error as { serviceMessage?: unknown }).serviceMessage;
  return typeof reason === "string" && reason.trim() !== "" ? reason.trim() : null;
}

/**
 * `reason` as the first sentence of `message`: the core quotes it at the end (` The service said:
 * "…".`) or inline (`…: "…".`); that quotation goes, the rest stays.
 */
function withReasonFirst(message: string, reason: string | null): string {
  if (reason === null) return message;
  const quoted = `"${reason}"`;
  let rest = message.split(` The service said: ${quoted}.`).join("");
  rest = rest.split(`: ${quoted}`).join("");
  if (rest.includes(quoted)) return message;
  return `${asSentence(reason)} ${rest}`.trim();
}

function asSentence(text: string): string {
  return /[.!?…]["”')]*$/.test(text) ? text : `${text}.`;
}

/** No doubled punctuation: `"Done.".` and `Done..` read as `"Done."` and `Done.` (an ellipsis stays). */
function tidy(text: string): string {
  return text.replace(/([.!?…])(["”']?)\.(?!\.)/g, (match, mark: string, quote: string, offset: number) =>
    mark === "." && text[offset - 1] === "." ? match : `${mark}${quote}`,
  );
}

/** The PlatformError kind ("unauthorized", "aborted", ...) of an error or its JSON form, if any. */
export function errorKind(error: unknown): string | null {
  if (error && typeof error === "object" && "kind" in error) {
    const kind = (error as { kind: unknown }).kind;
    if (typeof kind === "string") return kind;
  }
  return null;
}

/** A field of the Settings form, by the name the pane, the hosts and the stored settings use. */
export type { SettingsField };

const SETTINGS_FIELDS: readonly string[] = [
  "tenantUrl",
  "apiKey",
  "scimToken",
  "deploymentId",
  "chatUrl",
  "agentApiKey",
] satisfies readonly SettingsField[];

/** The Settings field an error names itself (its `field`, the core's or its JSON form's), if any. */
export function errorField(error: unknown): SettingsField | null {
  if (error && typeof error === "object" && "field" in error) {
    const field = (error as { field: unknown }).field;
    if (typeof field === "string" && SETTINGS_FIELDS.includes(field)) return field as SettingsField;
  }
  return null;
}

/**
 * The Settings field a failure is about, so an "Open settings" action can open Settings there: the
 * field the error names, if any; else a 401/403 from the platform is about the API key, from the
 * agent about the agent key, from the SCIM directory about the SCIM token, and an insecure URL or a
 * host that could not be reached about the URL of that source. A refused save ("settings") is about the field its error names, and
 * no other: the core names the field of every setting it refuses, and the wording is never read.
 * Null when Settings cannot fix it.
 */
export function settingsFieldFor(
  error: unknown,
  source: "platform" | "agent" | "directory" | "settings" = "platform",
): SettingsField | null {
  const named = errorField(error);
  if (named || source === "settings") return named;
  const kind = errorKind(error);
  if (kind === "insecure-url") return source === "agent" ? "chatUrl" : "tenantUrl";
  // "Could not reach <host>": the address in Settings may be the cause (a typo, an old tenant).
  if (kind === "network") return source === "agent" ? "chatUrl" : source === "platform" ? "tenantUrl" : null;
  if (kind !== "unauthorized" && kind !== "forbidden") return null;
  if (source === "agent") return "agentApiKey";
  if (source === "directory") return "scimToken";
  return "apiKey";
}
