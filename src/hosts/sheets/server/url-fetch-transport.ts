/// <reference types="google-apps-script" />
/**
 * The core's SyncTransport over Apps Script's `UrlFetchApp`, with a destination check: a request
 * goes out only to the configured tenant (management and SCIM APIs) or to the configured agent
 * chat URL (and its `/chat/abort` sibling). Nothing the sidebar sends can make the server fetch
 * another address with the user's key: the check runs on the final URL, before any byte is sent.
 */
import { abortUrlOf } from "../../../core/chat-request.js";
import { LOAD_PATH } from "../../../core/data-api.js";
import { PlatformError } from "../../../core/errors.js";
import type { HttpRequest, SyncTransport } from "../../../core/transport.js";
import { allowedByAllowlist } from "./url-fetch-allowlist.js";

/**
 * The organisation's origins as appsscript.json's urlFetchWhitelist prefixes, compiled in by the
 * build (SHEETS_TENANT_ORIGINS; tooling/sheets/build.ts); null when the build was given none.
 */
declare const __URL_FETCH_ALLOWLIST__: readonly string[] | null;
export const BUILT_URL_FETCH_ALLOWLIST: readonly string[] | null =
  typeof __URL_FETCH_ALLOWLIST__ === "undefined" ? null : __URL_FETCH_ALLOWLIST__;

/**
 * Where requests may go: the tenant's base (origin plus optional path prefix, no trailing slash), the
 * chat URL, and the data API's load call of each deployment whose data URL the tenant named in this
 * execution (the data client adds it when it reads the deployment: data rule 1).
 */
export interface Destinations {
  tenantBase: string | null;
  chatUrl: string | null;
  dataBases?: string[];
}

export function isAllowedDestination(url: string, to: Destinations): boolean {
  if (to.tenantBase) {
    // The base ends without a slash; requiring "/" or "?" after it keeps
    // https://tenant.example.com from matching https://tenant.example.com.evil.example.
    const base = to.tenantBase;
    if (url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) return true;
  }
  if (to.chatUrl && (url === to.chatUrl || url === abortUrlOf(to.chatUrl))) return true;
  // Only the load call itself: the data token goes nowhere else on that host.
  if (to.dataBases?.some((base) => url === `${base}${LOAD_PATH}`)) return true;
  return false;
}

function refusal(url: string): PlatformError {
  let host = "that address";
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url);
  if (match?.[1]) host = match[1].replace(/^.*@/, "");
  return new PlatformError(
    "insecure-url",
    `The add-on only sends requests to the tenant and agent URLs in Settings, not to ${host}. Check Settings.`,
  );
}

/**
 * Headers Google's URL Fetch service computes or adds itself: UrlFetchApp refuses a request that
 * sets one ("Attribute provided with invalid value: Header:Content-Length"). The core asks for
 * `Content-Length: 0` on a DELETE without a body (some front ends want a length); UrlFetchApp
 * computes the length from the payload on its own, so the header is left to it.
 */
const SET_BY_URL_FETCH = new Set([
  "content-length",
  "host",
  "vary",
  "via",
  "x-appengine-inbound-appid",
  "x-forwarded-for",
  "x-proxyuser-ip",
]);

type UrlFetch = Pick<GoogleAppsScript.URL_Fetch.UrlFetchApp, "fetch">;

function notListed(url: string): PlatformError {
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1]?.replace(/^.*@/, "") ?? "that address";
  return new PlatformError(
    "insecure-url",
    `This add-on was deployed for your organisation's own addresses, and ${host} is not one of them. Check the tenant URL in Settings, or ask your admin to deploy the add-on with it.`,
  );
}

/**
 * A SyncTransport over `UrlFetchApp.fetch`; `fetcher` is injectable for tests. `allowlist`: the
 * built urlFetchWhitelist prefixes (Google enforces them too, for a versioned deployment); a URL
 * outside them is refused here first, with a message the user can act on.
 */
export function createUrlFetchTransport(
  to: Destinations,
  fetcher: UrlFetch = UrlFetchApp,
  allowlist: readonly string[] | null = BUILT_URL_FETCH_ALLOWLIST,
): SyncTransport {
  return (request: Omit<HttpRequest, "signal">) => {
    if (!isAllowedDestination(request.url, to)) throw refusal(request.url);
    if (allowlist && !allowedByAllowlist(request.url, allowlist)) throw notListed(request.url);
    const headers: Record<string, string> = {};
    let contentType: string | undefined;
    for (const [name, value] of Object.entries(request.headers)) {
      const lower = name.toLowerCase();
      // UrlFetchApp takes the content type as its own option (with the payload, as it documents a
      // body for any method: `method: "delete"`, `contentType`, `payload`).
      if (lower === "content-type") contentType = value;
      else if (!SET_BY_URL_FETCH.has(lower)) headers[name] = value;
    }
    const options: GoogleAppsScript.URL_Fetch.URLFetchRequestOptions = {
      method: request.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
      headers,
      // Statuses are the core's to read (401, 403, 429 ...), not exceptions.
      muteHttpExceptions: true,
      // A redirect could carry the Authorization header to another host.
      followRedirects: false,
    };
    if (contentType !== undefined) options.contentType = contentType;
    if (request.body !== undefined && request.body !== "") options.payload = request.body;
    const response = fetcher.fetch(request.url, options);
    const lowered: Record<string, string> = {};
    const all = response.getAllHeaders() as Record<string, unknown>;
    for (const [name, value] of Object.entries(all)) {
      lowered[name.toLowerCase()] = Array.isArray(value) ? value.map(String).join(", ") : String(value);
    }
    return { status: response.getResponseCode(), headers: lowered, body: response.getContentText() };
  };
}
