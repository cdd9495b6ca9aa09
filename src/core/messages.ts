/**
 * The catalogue of what the add-in says when a setting is missing, in one place so every host and
 * the pane say it the same way. Each error carries the Settings field it is about (`field`), so the
 * pane can open Settings there without reading the text.
 */
import { PlatformError, type PlatformErrorKind, type SettingsField } from "./errors.js";

/**
 * What an action came to, in words for the user: a disconnect (from the pane, a cell's menu or the
 * add-on menu), shown as a toast or a notice.
 */
export interface Outcome {
  ok: boolean;
  message: string;
}

/** A field of the Settings form (errors.ts, where an error names it). */
export type { SettingsField };

const MISSING: Record<SettingsField, { kind: PlatformErrorKind; text: string }> = {
  tenantUrl: { kind: "bad-request", text: "No tenant URL is set. Open Settings and enter it." },
  apiKey: { kind: "unauthorized", text: "No API key is set. Open Settings and paste one." },
  scimToken: {
    kind: "unauthorized",
    text: "No SCIM token is set for this tenant. Open Settings and paste one.",
  },
  deploymentId: { kind: "bad-request", text: "No deployment is picked. Open Settings and choose one." },
  chatUrl: { kind: "bad-request", text: "No agent chat URL is set. Open Settings and paste it." },
  agentApiKey: { kind: "unauthorized", text: "No agent API key is set. Open Settings and paste one." },
};

/** The error for a setting that is not set: its message from the catalogue, and the field. */
export function missingSetting(field: SettingsField): PlatformError {
  const { kind, text } = MISSING[field];
  return new PlatformError(kind, text, { field });
}
