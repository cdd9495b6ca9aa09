/**
 * The user's settings: where the tenant is, which deployment, which agent, and the secrets. Stored
 * per user by each host (OfficeRuntime.storage, partitioned localStorage, Apps Script user
 * properties), never in the document. The rules for reading and changing them live here once.
 *
 * Each secret is bound to the origin it was saved for: the API key and the SCIM token to the
 * tenant's, the agent key to the chat URL's. A changed URL (a typo, a phishing instruction) clears
 * the secrets it would otherwise carry to the new host, and a secret whose binding does not match
 * is never used (auth rule 8: keys are to be stored securely).
 */

import { CHAT_PATH } from "./chat-request.js";
import { PlatformError } from "./errors.js";
import { isJsonObject } from "./json-object.js";
import { built, lazily } from "./lazy-schema.js";
import { missingSetting, type SettingsField } from "./messages.js";
import { type UserAttribute, UserAttributeSchema } from "./schema.js";
import { requireSecureUrl } from "./transport.js";
import * as z from "./zod.js";

/**
 * Everything stored, secrets included. Never sent to a sidebar or a log. Built when first used
 * (lazy-schema.ts): the settings a store holds are read by hand (`readStoredSettings`) when they
 * are of the plain shape this add-in writes.
 */
export const StoredSettingsSchema = lazily(() =>
  z.object({
    tenantUrl: z._default(z.string(), ""),
    deploymentId: z._default(z.nullable(z.int()), null),
    chatUrl: z._default(z.string(), ""),
    externalId: z._default(z.string(), ""),
    email: z._default(z.string(), ""),
    userAttributes: z._default(z.array(UserAttributeSchema), []),
    apiKey: z._default(z.string(), ""),
    agentApiKey: z._default(z.string(), ""),
    scimToken: z._default(z.string(), ""),
    /** The tenant origin the API key was saved for. */
    apiKeyFor: z._default(z.string(), ""),
    /** The tenant origin the SCIM token was saved for. */
    scimTokenFor: z._default(z.string(), ""),
    /** The chat URL origin the agent key was saved for. */
    agentApiKeyFor: z._default(z.string(), ""),
    /** A chat URL outside the tenant's domain that the user confirmed, exactly as stored. */
    chatUrlConfirmed: z._default(z.string(), ""),
  }),
);
export type StoredSettings = z.infer<typeof StoredSettingsSchema>;

/** The settings a pane may see: whether each secret is set, never the secret. */
export interface PublicSettings {
  tenantUrl: string;
  deploymentId: number | null;
  chatUrl: string;
  externalId: string;
  email: string;
  userAttributes: UserAttribute[];
  /** A usable API key is stored: set, and saved for this tenant. */
  apiKeySet: boolean;
  agentApiKeySet: boolean;
  scimTokenSet: boolean;
  /** The chat URL is outside the tenant's domain and the user confirmed it. */
  chatUrlConfirmed: boolean;
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
  /** True: the user trusts this chat URL although it is not on the tenant's domain. */
  confirmChatUrl?: boolean;
  /**
   * The tenant URL the form showed when the API key or SCIM token was typed. A patch with one of
   * those and no `tenantUrl` of its own must carry it, and is refused when it is no longer the
   * stored one (another pane or sidebar changed the tenant since): see `requireSeenUrls`.
   */
  seenTenantUrl?: string;
  /** The chat URL the form showed when the agent key was typed (as `seenTenantUrl`). */
  seenChatUrl?: string;
}

/**
 * A settings patch as it may arrive from a sidebar or a store: every field checked for its type.
 * Built when a patch is first checked (lazy-schema.ts): the first list saves nothing.
 */
const settingsPatchSchema = built(() =>
  z.object({
    tenantUrl: z.optional(z.string()),
    deploymentId: z.optional(z.nullable(z.number())),
    chatUrl: z.optional(z.string()),
    externalId: z.optional(z.string()),
    email: z.optional(z.string()),
    userAttributes: z.optional(z.array(UserAttributeSchema)),
    apiKey: z.optional(z.string()),
    agentApiKey: z.optional(z.string()),
    scimToken: z.optional(z.string()),
    confirmChatUrl: z.optional(z.boolean()),
    seenTenantUrl: z.optional(z.string()),
    seenChatUrl: z.optional(z.string()),
  }),
);

const FIELD_NAMES: Record<string, string> = {
  tenantUrl: "The tenant URL",
  deploymentId: "The deployment",
  chatUrl: "The agent chat URL",
  externalId: "The external ID",
  email: "The e-mail",
  userAttributes: "The user attributes",
  apiKey: "The API key",
  agentApiKey: "The agent API key",
  scimToken: "The SCIM token",
  confirmChatUrl: "The chat URL confirmation",
  seenTenantUrl: "The tenant URL shown",
  seenChatUrl: "The agent chat URL shown",
};

const SETTINGS_FIELDS: Record<SettingsField, true> = {
  tenantUrl: true,
  apiKey: true,
  scimToken: true,
  deploymentId: true,
  chatUrl: true,
  agentApiKey: true,
};

/**
 * Checks a patch that crossed a boundary (google.script.run, postMessage): an object whose fields
 * have the types above. Throws a `bad-request` naming the field; never echoes a value (it may be a
 * secret).
 */
function parseSettingsPatch(patch: unknown): SettingsPatch {
  if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
    throw new PlatformError("bad-request", "The settings could not be read. Try saving again.");
  }
  const parsed = settingsPatchSchema().safeParse(patch);
  if (parsed.success) return parsed.data;
  const field = String(parsed.error.issues[0]?.path[0] ?? "");
  if (field === "userAttributes") {
    throw new PlatformError("bad-request", "Each user attribute needs a name and a value.");
  }
  const name = FIELD_NAMES[field] ?? "A setting";
  const kind =
    field === "deploymentId" ? "a number or nothing" : field === "confirmChatUrl" ? "yes or no" : "text";
  throw new PlatformError("bad-request", `${name} must be ${kind}. Check Settings and save again.`, {
    field: field in SETTINGS_FIELDS ? (field as SettingsField) : null,
  });
}

/** What `StoredSettingsSchema.parse({})` makes: every field's default (test/core/settings.test.ts). */
export const EMPTY_SETTINGS: StoredSettings = {
  tenantUrl: "",
  deploymentId: null,
  chatUrl: "",
  externalId: "",
  email: "",
  userAttributes: [],
  apiKey: "",
  agentApiKey: "",
  scimToken: "",
  apiKeyFor: "",
  scimTokenFor: "",
  agentApiKeyFor: "",
  chatUrlConfirmed: "",
};

/** Each stored field in StoredSettingsSchema's order, with its type; every other is a string. */
const STORED_FIELDS = Object.keys(EMPTY_SETTINGS) as (keyof StoredSettings)[];

/** A user attribute's value as UserAttributeSchema reads it, or undefined when it is not one. */
function isAttributeValue(v: unknown): boolean {
  const scalar = (x: unknown) => typeof x === "string" || (typeof x === "number" && Number.isFinite(x));
  if (v === null || typeof v === "boolean" || scalar(v)) return true;
  return Array.isArray(v) && v.every(scalar);
}

/**
 * The settings read by hand as `StoredSettingsSchema.safeParse` reads them (each field, in order,
 * its default when undefined; unknown fields dropped), for the plain shape this add-in writes (a
 * JSON object of strings, a deployment number, user attributes); undefined for anything else,
 * which zod reads (test/core/settings.test.ts compares both readings on generated settings). Zod's
 * first parse on a cold page costs more than its result is worth here: the first list reads the
 * settings before anything else.
 */
function plainStoredSettings(data: unknown): StoredSettings | undefined {
  if (!isJsonObject(data)) return undefined;
  const input = data;
  const out: Record<string, unknown> = {};
  for (const key of STORED_FIELDS) {
    const v = input[key];
    if (v === undefined) {
      out[key] = key === "userAttributes" ? [] : EMPTY_SETTINGS[key];
      continue;
    }
    if (key === "deploymentId") {
      if (v !== null && !Number.isSafeInteger(v)) return undefined;
      out[key] = v;
    } else if (key === "userAttributes") {
      if (!Array.isArray(v)) return undefined;
      const list: UserAttribute[] = [];
      for (const a of v) {
        if (!isJsonObject(a)) return undefined;
        const { name, value } = a;
        if (typeof name !== "string" || name.length < 1 || !isAttributeValue(value)) return undefined;
        list.push({ name, value: Array.isArray(value) ? [...value] : value } as UserAttribute);
      }
      out[key] = list;
    } else {
      if (typeof v !== "string") return undefined;
      out[key] = v;
    }
  }
  return out as StoredSettings;
}

/** Reads stored settings as `StoredSettingsSchema.safeParse` does: by hand when plain, else with zod. */
function safeParseStoredSettings(
  data: unknown,
): { success: true; data: StoredSettings } | { success: false } {
  const plain = plainStoredSettings(data);
  if (plain) return { success: true, data: plain };
  const parsed = StoredSettingsSchema.safeParse(data);
  return parsed.success ? { success: true, data: parsed.data } : { success: false };
}

/** `https://host:port` of a URL; "" for none or one that cannot be read. */
function originOf(url: string): string {
  if (!url) return "";
  try {
    return new URL(url).origin;
  } catch {
    return "";
  }
}

/**
 * Reads what a store holds (a JSON text or nothing); anything unreadable starts empty rather than
 * failing. Settings stored before secrets were bound bind each secret to the URL stored with it.
 */
export function readStoredSettings(text: string | null | undefined): StoredSettings {
  if (!text) return { ...EMPTY_SETTINGS };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ...EMPTY_SETTINGS };
  }
  const parsed = safeParseStoredSettings(data);
  if (!parsed.success) return { ...EMPTY_SETTINGS };
  const s = parsed.data;
  const rec = data as Record<string, unknown>;
  const legacy = !("apiKeyFor" in rec) && !("agentApiKeyFor" in rec) && !("scimTokenFor" in rec);
  if (legacy) {
    if (s.apiKey) s.apiKeyFor = originOf(s.tenantUrl);
    if (s.scimToken) s.scimTokenFor = originOf(s.tenantUrl);
    if (s.agentApiKey) s.agentApiKeyFor = originOf(s.chatUrl);
  }
  return s;
}

/** Whether a stored secret may be used for `url`: set, and saved for that URL's origin. */
function boundTo(secret: string, boundOrigin: string, url: string): boolean {
  return secret !== "" && boundOrigin !== "" && boundOrigin === originOf(url);
}

export function toPublicSettings(s: StoredSettings): PublicSettings {
  return {
    tenantUrl: s.tenantUrl,
    deploymentId: s.deploymentId,
    chatUrl: s.chatUrl,
    externalId: s.externalId,
    email: s.email,
    userAttributes: s.userAttributes,
    apiKeySet: boundTo(s.apiKey, s.apiKeyFor, s.tenantUrl),
    agentApiKeySet: boundTo(s.agentApiKey, s.agentApiKeyFor, s.chatUrl),
    scimTokenSet: boundTo(s.scimToken, s.scimTokenFor, s.tenantUrl),
    chatUrlConfirmed: s.chatUrl !== "" && s.chatUrlConfirmed === s.chatUrl,
  };
}

/** Decides whether a chat URL belongs to a tenant (`chatUrlBelongsToTenant` in domains.ts). */
export type ChatUrlCheck = (tenantUrl: string, chatUrl: string) => boolean;

/**
 * Whether requests may go to the stored chat URL: on the tenant's registrable domain, or confirmed
 * by the user. Checked again at use, so a stored value that skipped `mergeSettings` (an older
 * version's, or one edited by hand) never receives the agent key.
 */
export function chatUrlAllowed(settings: StoredSettings, belongs: ChatUrlCheck): boolean {
  if (!settings.chatUrl) return false;
  if (settings.chatUrlConfirmed !== "" && settings.chatUrlConfirmed === settings.chatUrl) return true;
  return settings.tenantUrl !== "" && belongs(settings.tenantUrl, settings.chatUrl);
}

/** The management API's address and credentials, each used only for the tenant it was saved for. */
export function managementAccess(settings: StoredSettings): {
  baseUrl: string;
  token: string;
  scimToken?: string;
} {
  if (!settings.tenantUrl) {
    throw missingSetting("tenantUrl");
  }
  if (!settings.apiKey) {
    throw missingSetting("apiKey");
  }
  // Auth rule 1 first: an insecure URL is named as such, whatever key is stored.
  const origin = requireSecureUrl(settings.tenantUrl, "The tenant URL", "tenantUrl").origin;
  if (!boundTo(settings.apiKey, settings.apiKeyFor, settings.tenantUrl)) {
    throw new PlatformError(
      "unauthorized",
      `The tenant changed: paste the API key for ${origin} in Settings. The key saved for another tenant is not sent here.`,
      { field: "apiKey" },
    );
  }
  const scim = boundTo(settings.scimToken, settings.scimTokenFor, settings.tenantUrl);
  return {
    baseUrl: settings.tenantUrl,
    token: settings.apiKey,
    ...(scim ? { scimToken: settings.scimToken } : {}),
  };
}

/** The management API's access for the SCIM directory: as `managementAccess`, and a SCIM token saved for this tenant. */
export function directoryAccess(settings: StoredSettings): {
  baseUrl: string;
  token: string;
  scimToken: string;
} {
  const access = managementAccess(settings);
  if (!access.scimToken) throw missingSetting("scimToken");
  return { ...access, scimToken: access.scimToken };
}

/** The deployment picked in Settings, or the error that says to pick one. */
export function pickedDeployment(settings: StoredSettings): number {
  if (settings.deploymentId == null) throw missingSetting("deploymentId");
  return settings.deploymentId;
}

/** The agent chat's URL and key from the settings, or the error that says which one to fill in. */
export function agentChatSettings(
  settings: StoredSettings,
  belongs: ChatUrlCheck,
): { chatUrl: string; apiKey: string } {
  if (!settings.chatUrl) {
    throw missingSetting("chatUrl");
  }
  if (!settings.agentApiKey) {
    throw missingSetting("agentApiKey");
  }
  if (!chatUrlAllowed(settings, belongs)) {
    throw new PlatformError(
      "insecure-url",
      `The agent chat URL (${originOf(settings.chatUrl) || "not readable"}) is not on the tenant's domain and was not confirmed. Open Settings, check it, and confirm it if you trust it.`,
      { field: "chatUrl" },
    );
  }
  if (!boundTo(settings.agentApiKey, settings.agentApiKeyFor, settings.chatUrl)) {
    throw new PlatformError(
      "unauthorized",
      `The agent chat URL changed: paste the agent API key for ${originOf(settings.chatUrl)} in Settings.`,
      { field: "agentApiKey" },
    );
  }
  return { chatUrl: settings.chatUrl, apiKey: settings.agentApiKey };
}

/**
 * What the pane says after saving when a secret was cleared because its URL moved to another
 * origin ("The tenant changed: paste the API key for https://…"), or null.
 */
export function secretsClearedNotice(before: PublicSettings | null, after: PublicSettings): string | null {
  if (!before) return null;
  const parts: string[] = [];
  const tenant = originOf(after.tenantUrl);
  if (originOf(before.tenantUrl) !== tenant && tenant !== "") {
    const lost = [
      before.apiKeySet && !after.apiKeySet ? "the API key" : null,
      before.scimTokenSet && !after.scimTokenSet ? "the SCIM token" : null,
    ].filter((x): x is string => x !== null);
    if (lost.length > 0) parts.push(`The tenant changed: paste ${lost.join(" and ")} for ${tenant}.`);
  }
  const chat = originOf(after.chatUrl);
  if (originOf(before.chatUrl) !== chat && chat !== "" && before.agentApiKeySet && !after.agentApiKeySet) {
    parts.push(`The agent chat URL changed: paste the agent API key for ${chat}.`);
  }
  return parts.length > 0
    ? `${parts.join(" ")} Keys saved for the old address are never sent to a new one.`
    : null;
}

function trimmed(v: string | undefined): string | undefined {
  return v === undefined ? undefined : v.trim();
}

/**
 * Applies a patch: checks every field's type, validates URLs (HTTPS only, auth rule 1; the chat
 * URL on the tenant's registrable domain or confirmed, and ending in `/chat/stream-chat-state`),
 * trims, lowercases the external id (the chat API wants it lowercase and trimmed), and binds each
 * secret to the origin it is saved for: a tenant moved to another origin clears the API key and the
 * SCIM token, a chat URL moved clears the agent key, unless the same patch brings new ones. Throws a
 * PlatformError naming the field; stores nothing on error.
 */
export function mergeSettings(
  current: StoredSettings,
  rawPatch: SettingsPatch,
  belongs: ChatUrlCheck,
): StoredSettings {
  const patch = parseSettingsPatch(rawPatch);
  requireSeenUrls(current, patch);
  const next: StoredSettings = { ...current };
  const tenantUrl = trimmed(patch.tenantUrl);
  if (tenantUrl !== undefined) {
    if (tenantUrl !== "") {
      const url = requireSecureUrl(tenantUrl, "The tenant URL", "tenantUrl");
      next.tenantUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    } else next.tenantUrl = "";
  }
  if (patch.deploymentId !== undefined) {
    if (
      patch.deploymentId !== null &&
      (!Number.isSafeInteger(patch.deploymentId) || patch.deploymentId < 0)
    ) {
      throw new PlatformError("bad-request", "The deployment must be picked from the list.", {
        field: "deploymentId",
      });
    }
    next.deploymentId = patch.deploymentId;
  }
  const chatUrl = trimmed(patch.chatUrl);
  if (chatUrl !== undefined) next.chatUrl = chatUrl;
  if (next.chatUrl === "") next.chatUrlConfirmed = "";
  const chatTouched = chatUrl !== undefined || tenantUrl !== undefined || patch.confirmChatUrl !== undefined;
  if (next.chatUrl !== "" && chatTouched) {
    const url = requireSecureUrl(next.chatUrl, "The agent chat URL", "chatUrl");
    if (!url.pathname.endsWith(CHAT_PATH)) {
      throw new PlatformError(
        "bad-request",
        `The agent chat URL must end in ${CHAT_PATH}: copy it from the agent's settings.`,
        { field: "chatUrl" },
      );
    }
    next.chatUrl = url.toString();
    if (patch.confirmChatUrl === true) next.chatUrlConfirmed = next.chatUrl;
    else if (patch.confirmChatUrl === false) next.chatUrlConfirmed = "";
    if (!chatUrlAllowed(next, belongs)) {
      throw new PlatformError(
        "insecure-url",
        next.tenantUrl
          ? `The agent chat URL (${url.host}) is not part of the tenant ${new URL(next.tenantUrl).host}. Use the chat URL of an agent of this tenant, or confirm that you trust ${url.host}.`
          : `No tenant URL is set, so the agent chat URL (${url.host}) cannot be checked. Enter the tenant URL, or confirm that you trust ${url.host}.`,
        { field: "chatUrl" },
      );
    }
  }
  const externalId = trimmed(patch.externalId);
  if (externalId !== undefined) next.externalId = externalId.toLowerCase();
  const email = trimmed(patch.email);
  if (email !== undefined) next.email = email;
  if (patch.userAttributes !== undefined) next.userAttributes = patch.userAttributes;
  bindSecrets(current, next, patch);
  return next;
}

/**
 * A secret is bound to the URL the user saw when typing it, not to whatever is stored when the
 * save lands: two panes (or a pane and a sidebar) share one store, and a form opened before
 * another one changed the tenant still shows the old URL. A patch that brings a secret either sets
 * its URL itself, or says which URL its form showed (`seenTenantUrl`, `seenChatUrl`); that must be
 * the one stored now. Every host's store applies this through `mergeSettings`.
 */
function requireSeenUrls(current: StoredSettings, patch: SettingsPatch): void {
  const checks = [
    {
      secrets: [patch.apiKey, patch.scimToken],
      set: patch.tenantUrl,
      seen: patch.seenTenantUrl,
      stored: current.tenantUrl,
      field: "tenantUrl",
      what: "tenant URL",
      keys: "key",
    },
    {
      secrets: [patch.agentApiKey],
      set: patch.chatUrl,
      seen: patch.seenChatUrl,
      stored: current.chatUrl,
      field: "chatUrl",
      what: "agent chat URL",
      keys: "agent key",
    },
  ] as const;
  for (const c of checks) {
    if (c.set !== undefined || !c.secrets.some((v) => v !== undefined && v.trim() !== "")) continue;
    // Nothing stored yet: the key is bound to the first URL set, which no host has received.
    if (c.seen === undefined && c.stored === "") continue;
    if (c.seen === undefined) {
      throw new PlatformError(
        "bad-request",
        `The ${c.keys} came without the ${c.what} it was typed for, so it was not saved. Open Settings again and paste it.`,
        { field: c.field },
      );
    }
    if (c.seen.trim() !== c.stored) {
      throw new PlatformError(
        "bad-request",
        `The ${c.what} was changed elsewhere (in another pane or window) to ${originOf(c.stored) || "nothing"} while you typed, so the ${c.keys} was not saved and is sent nowhere. Check the ${c.what} and paste the ${c.keys} again.`,
        { field: c.field },
      );
    }
  }
}

const BINDINGS = [
  { secret: "apiKey", bound: "apiKeyFor", url: "tenantUrl" },
  { secret: "scimToken", bound: "scimTokenFor", url: "tenantUrl" },
  { secret: "agentApiKey", bound: "agentApiKeyFor", url: "chatUrl" },
] as const;

/**
 * A secret in the patch is saved for the origin its URL has after the patch. A secret not in the
 * patch stays only while its URL keeps its origin. A secret saved before any URL was set is bound
 * to the first one set: no host could have received it yet.
 */
function bindSecrets(current: StoredSettings, next: StoredSettings, patch: SettingsPatch): void {
  for (const { secret, bound, url } of BINDINGS) {
    const origin = originOf(next[url]);
    const given = trimmed(patch[secret]);
    if (given !== undefined) {
      next[secret] = given;
      next[bound] = given === "" ? "" : origin;
      continue;
    }
    if (next[secret] === "") {
      next[bound] = "";
      continue;
    }
    const wasUnbound = current[bound] === "" && originOf(current[url]) === "";
    if (wasUnbound) next[bound] = origin;
    else if (next[bound] !== origin) {
      next[secret] = "";
      next[bound] = "";
    }
  }
}
