/// <reference types="google-apps-script" />
/**
 * The user's settings and secrets, in the user's own script properties: per user, never in the
 * document (document properties travel with the file to every editor) nor in script properties
 * (shared by every user of the add-on).
 *
 * Apps Script keeps at most 9 KB per property value and 500 KB per property store, and a value past
 * the limit fails the whole call ("Argument too large"). So each field has a property of its own,
 * the attribute list is split across several values and capped, every size is checked before
 * anything is written, and a setting that cannot fit is refused with a message naming it and the
 * limit: nothing saved before is lost. Earlier versions kept everything in one JSON value
 * (`reportingPlatform.settings`); it is read once, moved, and removed.
 */
import { PlatformError } from "../../../core/errors.js";
import { formatCount } from "../../../core/limits.js";
import { readStoredSettings, type StoredSettings, StoredSettingsSchema } from "../../../core/settings.js";

/** The one-value format of earlier versions. */
const LEGACY_SETTINGS_PROPERTY = "reportingPlatform.settings";
/** Each field is `reportingPlatform.settings.<field>`; the attribute list `...userAttributes.<n>`. */
const SETTINGS_PREFIX = "reportingPlatform.settings.";
const ATTRIBUTES = "userAttributes";
const ATTRIBUTE_PARTS_KEY = `${SETTINGS_PREFIX}${ATTRIBUTES}.parts`;

/**
 * Bytes per property, key and value together. Google documents 9 KB per value; measurements by
 * others put the usable size near 8 KB once the key counts, so the add-on stays below both.
 */
const VALUE_BUDGET_BYTES = 8000;
/** The attribute list, split across values, may take this much in all. */
const ATTRIBUTES_BUDGET_BYTES = 60_000;
const ATTRIBUTES_BUDGET_LABEL = "60 KB";
/** What the whole user store may hold after a save (Apps Script: 500 KB), leaving room for counters. */
const STORE_BUDGET_BYTES = 480_000;

const LABELS: Record<string, string> = {
  tenantUrl: "Tenant URL",
  deploymentId: "Deployment",
  chatUrl: "Agent chat URL",
  externalId: "External ID",
  email: "E-mail",
  userAttributes: "User attributes",
  apiKey: "API key",
  agentApiKey: "Agent API key",
  scimToken: "SCIM token",
};
const SECRET_FIELDS = new Set(["apiKey", "agentApiKey", "scimToken"]);

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function tooLarge(field: string, bytes: number): PlatformError {
  const label = LABELS[field] ?? field;
  const hint = SECRET_FIELDS.has(field)
    ? " Check that you pasted only the key."
    : " Shorten it and save again.";
  return new PlatformError(
    "bad-request",
    `${label} is too long to keep (${formatCount(bytes)} bytes): Google Apps Script stores at most 9 KB per setting, and the add-on keeps each within ${formatCount(VALUE_BUDGET_BYTES)} bytes. Nothing was saved.${hint}`,
  );
}

/** Splits text into pieces of at most `budget` UTF-8 bytes, never inside a character. */
function splitByBytes(text: string, budget: number): string[] {
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const ch of text) {
    const bytes = utf8Bytes(ch);
    if (size + bytes > budget) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += ch;
    size += bytes;
  }
  if (current !== "" || parts.length === 0) parts.push(current);
  return parts;
}

/** The properties that hold `settings`, checked against the limits (throws a refusal naming the field). */
function settingsProperties(settings: StoredSettings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(settings)) {
    if (field === ATTRIBUTES) continue;
    const key = SETTINGS_PREFIX + field;
    const text = JSON.stringify(value ?? null);
    const bytes = utf8Bytes(key) + utf8Bytes(text);
    if (bytes > VALUE_BUDGET_BYTES) throw tooLarge(field, utf8Bytes(text));
    out[key] = text;
  }
  const list = JSON.stringify(settings.userAttributes ?? []);
  const listBytes = utf8Bytes(list);
  if (listBytes > ATTRIBUTES_BUDGET_BYTES) {
    throw new PlatformError(
      "bad-request",
      `The user attributes take ${formatCount(listBytes)} bytes: the add-on keeps at most ${ATTRIBUTES_BUDGET_LABEL} of them, split across Apps Script settings of 9 KB each. Nothing was saved. Remove some attributes or shorten their values.`,
    );
  }
  const partKey = (n: number) => `${SETTINGS_PREFIX}${ATTRIBUTES}.${n}`;
  const parts = splitByBytes(list, VALUE_BUDGET_BYTES - utf8Bytes(partKey(99)));
  parts.forEach((part, n) => {
    out[partKey(n)] = part;
  });
  out[ATTRIBUTE_PARTS_KEY] = String(parts.length);
  return out;
}

function isOurs(key: string): boolean {
  return key === LEGACY_SETTINGS_PROPERTY || key.startsWith(SETTINGS_PREFIX);
}

/** Reads the fields back; a field that is missing or unreadable takes its default, the others stay. */
function settingsFrom(all: Record<string, string>): StoredSettings | null {
  const raw: Record<string, unknown> = {};
  let found = false;
  for (const [key, text] of Object.entries(all)) {
    if (!key.startsWith(SETTINGS_PREFIX)) continue;
    const field = key.slice(SETTINGS_PREFIX.length);
    if (field.includes(".")) continue;
    found = true;
    try {
      raw[field] = JSON.parse(text);
    } catch {
      // Unreadable: the default for this field.
    }
  }
  const count = Number(all[ATTRIBUTE_PARTS_KEY]);
  if (Number.isSafeInteger(count) && count > 0) {
    found = true;
    let list = "";
    for (let n = 0; n < count; n++) list += all[`${SETTINGS_PREFIX}${ATTRIBUTES}.${n}`] ?? "";
    try {
      raw[ATTRIBUTES] = JSON.parse(list);
    } catch {
      // A torn list: no attributes rather than no settings.
    }
  }
  if (!found) return null;
  const whole = StoredSettingsSchema.safeParse(raw);
  if (whole.success) return whole.data;
  // Keep every field that reads; drop only those that do not.
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(raw)) {
    if (StoredSettingsSchema.safeParse({ [field]: value }).success) kept[field] = value;
  }
  return StoredSettingsSchema.parse(kept);
}

function properties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getUserProperties();
}

/**
 * The user's settings (one property read). The one-value format of earlier versions is moved to a
 * property per field the first time it is seen, then removed.
 */
export function loadSettings(): StoredSettings {
  const all = properties().getProperties() as Record<string, string>;
  const legacy = all[LEGACY_SETTINGS_PROPERTY];
  if (legacy === undefined) return settingsFrom(all) ?? readStoredSettings(null);
  const settings = readStoredSettings(legacy);
  try {
    writeSettings(settings, all);
  } catch {
    // It cannot be moved (the store is full): keep using it as it is, and try again next time.
  }
  return settings;
}

/** Stores `settings`, or refuses (PlatformError) without writing anything when it cannot fit. */
export function storeSettings(settings: StoredSettings): void {
  writeSettings(settings, properties().getProperties() as Record<string, string>);
}

function writeSettings(settings: StoredSettings, current: Record<string, string>): void {
  const next = settingsProperties(settings);
  let total = 0;
  for (const [key, value] of Object.entries(current)) {
    if (!isOurs(key)) total += utf8Bytes(key) + utf8Bytes(value);
  }
  for (const [key, value] of Object.entries(next)) total += utf8Bytes(key) + utf8Bytes(value);
  if (total > STORE_BUDGET_BYTES) {
    throw new PlatformError(
      "bad-request",
      "Your settings do not fit in what Google Apps Script keeps for you (500 KB in all). Nothing was saved. Remove some user attributes and save again.",
    );
  }
  const store = properties();
  store.setProperties(next);
  // Written first, removed after: a reader never sees a field missing.
  for (const key of Object.keys(current)) {
    if (isOurs(key) && !(key in next)) store.deleteProperty(key);
  }
}

/** Every secret stored, for redacting messages. */
export function secretsOf(settings: StoredSettings): string[] {
  return [settings.apiKey, settings.agentApiKey, settings.scimToken].filter((s) => s !== "");
}
