/**
 * The user's settings: where the tenant is, which deployment, which agent, and the secrets. Stored
 * per user by each host (OfficeRuntime.storage, partitioned localStorage, Apps Script user
 * properties), never in the document. The rules for reading and changing them live here once.
 */
import { z } from "zod/mini";
import { PlatformError } from "./errors.js";
import { type UserAttribute, UserAttributeSchema } from "./schema.js";
import { requireSecureUrl } from "./transport.js";

/** Everything stored, secrets included. Never sent to a sidebar or a log. */
export const StoredSettingsSchema = z.object({
  tenantUrl: z._default(z.string(), ""),
  deploymentId: z._default(z.nullable(z.int()), null),
  chatUrl: z._default(z.string(), ""),
  externalId: z._default(z.string(), ""),
  email: z._default(z.string(), ""),
  userAttributes: z._default(z.array(UserAttributeSchema), []),
  apiKey: z._default(z.string(), ""),
  agentApiKey: z._default(z.string(), ""),
  scimToken: z._default(z.string(), ""),
});
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

/** The settings a pane may see: whether each secret is set, never the secret. */
export interface PublicSettings {
  tenantUrl: string;
  deploymentId: number | null;
  chatUrl: string;
  externalId: string;
  email: string;
  userAttributes: UserAttribute[];
  apiKeySet: boolean;
  agentApiKeySet: boolean;
  scimTokenSet: boolean;
}

/** A change to settings. A secret left undefined is kept; an empty string clears it. */
export interface SettingsPatch {
  tenantUrl?: string;
  deploymentId?: number | null;
  chatUrl?: string;
  externalId?: string;
  email?: string;
  userAttributes?: UserAttribute[];
  apiKey?: string;
  agentApiKey?: string;
  scimToken?: string;
}

export const EMPTY_SETTINGS: StoredSettings = StoredSettingsSchema.parse({});

/** Reads what a store holds (a JSON text or nothing); anything unreadable starts empty rather than failing. */
export function readStoredSettings(text: string | null | undefined): StoredSettings {
  if (!text) return { ...EMPTY_SETTINGS };
  try {
    const parsed = StoredSettingsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : { ...EMPTY_SETTINGS };
  } catch {
    return { ...EMPTY_SETTINGS };
  }
}

export function toPublicSettings(s: StoredSettings): PublicSettings {
  return {
    tenantUrl: s.tenantUrl,
    deploymentId: s.deploymentId,
    chatUrl: s.chatUrl,
    externalId: s.externalId,
    email: s.email,
    userAttributes: s.userAttributes,
    apiKeySet: s.apiKey !== "",
    agentApiKeySet: s.agentApiKey !== "",
    scimTokenSet: s.scimToken !== "",
  };
}

/** The host's registrable part, roughly: `acme.platform.example` -> `platform.example`. */
function parentDomain(hostname: string): string {
  const labels = hostname.split(".");
  return labels.length > 2 ? labels.slice(1).join(".") : hostname;
}

/**
 * Whether the agent's chat URL belongs to the same tenant as the management API: the same host, or
 * a sibling under the same parent domain (the real service serves chat from `ai.{region}.{domain}`).
 * It keeps a saved setting from sending the agent key, or a server from sending the user's
 * credentials, anywhere else.
 */
export function chatUrlBelongsToTenant(tenantUrl: string, chatUrl: string): boolean {
  const tenant = new URL(tenantUrl);
  const chat = new URL(chatUrl);
  if (tenant.hostname === chat.hostname) return true;
  const domain = parentDomain(tenant.hostname);
  return domain.includes(".") && (chat.hostname === domain || chat.hostname.endsWith(`.${domain}`));
}

/** The agent chat's URL and key from the settings, or the error that says which one to fill in. */
export function agentChatSettings(settings: StoredSettings): { chatUrl: string; apiKey: string } {
  if (!settings.chatUrl) {
    throw new PlatformError("bad-request", "No agent chat URL is set. Open Settings and paste it.");
  }
  if (!settings.agentApiKey) {
    throw new PlatformError("unauthorized", "No agent API key is set. Open Settings and paste one.");
  }
  return { chatUrl: settings.chatUrl, apiKey: settings.agentApiKey };
}

function trimmed(v: string | undefined): string | undefined {
  return v === undefined ? undefined : v.trim();
}

/**
 * Applies a patch: validates URLs (HTTPS only, spec 5 rule 1; the chat URL within the tenant and
 * ending in `/chat/stream-chat-state`), trims, lowercases the external id (the chat API wants it
 * lowercase and trimmed). Throws a PlatformError naming the field; stores nothing on error.
 */
export function mergeSettings(current: StoredSettings, patch: SettingsPatch): StoredSettings {
  const next: StoredSettings = { ...current };
  const tenantUrl = trimmed(patch.tenantUrl);
  if (tenantUrl !== undefined) {
    if (tenantUrl !== "") {
      const url = requireSecureUrl(tenantUrl, "The tenant URL");
      next.tenantUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    } else next.tenantUrl = "";
  }
  if (patch.deploymentId !== undefined) {
    if (
      patch.deploymentId !== null &&
      (!Number.isSafeInteger(patch.deploymentId) || patch.deploymentId < 0)
    ) {
      throw new PlatformError("bad-request", "The deployment must be picked from the list.");
    }
    next.deploymentId = patch.deploymentId;
  }
  const chatUrl = trimmed(patch.chatUrl);
  if (chatUrl !== undefined) next.chatUrl = chatUrl;
  if (next.chatUrl !== "" && (chatUrl !== undefined || tenantUrl !== undefined)) {
    const url = requireSecureUrl(next.chatUrl, "The agent chat URL");
    if (!url.pathname.endsWith("/chat/stream-chat-state")) {
      throw new PlatformError(
        "bad-request",
        "The agent chat URL must end in /chat/stream-chat-state: copy it from the agent's settings.",
      );
    }
    if (next.tenantUrl && !chatUrlBelongsToTenant(next.tenantUrl, next.chatUrl)) {
      throw new PlatformError(
        "insecure-url",
        `The agent chat URL (${url.host}) is not part of the tenant ${new URL(next.tenantUrl).host}. Use the chat URL of an agent of this tenant.`,
      );
    }
    next.chatUrl = url.toString();
  }
  const externalId = trimmed(patch.externalId);
  if (externalId !== undefined) next.externalId = externalId.toLowerCase();
  const email = trimmed(patch.email);
  if (email !== undefined) next.email = email;
  if (patch.userAttributes !== undefined) {
    const attrs = z.array(UserAttributeSchema).safeParse(patch.userAttributes);
    if (!attrs.success)
      throw new PlatformError("bad-request", "Each user attribute needs a name and a value.");
    next.userAttributes = attrs.data;
  }
  for (const key of ["apiKey", "agentApiKey", "scimToken"] as const) {
    const v = trimmed(patch[key]);
    if (v !== undefined) next[key] = v;
  }
  return next;
}
