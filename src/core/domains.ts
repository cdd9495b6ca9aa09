/// <reference path="./tldts-min.d.ts" />
/**
 * Which agent chat URL belongs to which tenant, by registrable domain (the Public Suffix List, via
 * tldts). Kept apart from settings.ts because the list is large (about 48 KB gzipped, its minified build): hosts load it
 * where they check a chat URL (Apps Script at once; the pane when Settings are saved), and the pane's
 * first screen does without it.
 */
import { parse } from "tldts/dist/index.esm.min.js";

/** The registrable domain of a host name (`ai.eu.acme.co.uk` -> `acme.co.uk`), or null for an IP, `localhost` or a bare suffix. */
export function registrableDomain(hostname: string): string | null {
  const parsed = parse(hostname.replace(/^\[|\]$/g, ""), { allowPrivateDomains: true });
  if (parsed.isIp) return null;
  // With private domains, `github.io` and its kind are suffixes: `acme.github.io` is the unit.
  return parsed.domain ?? null;
}

function isIpHost(hostname: string): boolean {
  return parse(hostname.replace(/^\[|\]$/g, "")).isIp === true;
}

/**
 * Whether the agent's chat URL belongs to the tenant: the same host, or a host on the tenant's
 * registrable domain (the real service serves chat from `ai.{region}.{domain}`). An IP address or
 * a name without a registrable domain (`localhost`) must match exactly. Anything else needs the
 * user's explicit confirmation (`confirmChatUrl` in a settings patch).
 */
export function chatUrlBelongsToTenant(tenantUrl: string, chatUrl: string): boolean {
  let tenant: URL;
  let chat: URL;
  try {
    tenant = new URL(tenantUrl);
    chat = new URL(chatUrl);
  } catch {
    return false;
  }
  const a = tenant.hostname.toLowerCase();
  const b = chat.hostname.toLowerCase();
  if (a === b) return true;
  if (isIpHost(a) || isIpHost(b)) return false;
  const domain = registrableDomain(a);
  return domain !== null && registrableDomain(b) === domain;
}
