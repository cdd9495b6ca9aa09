/**
 * The add-on's `urlFetchWhitelist` (appsscript.json): the organisation's tenant, chat and data
 * origins, given at build time (SHEETS_TENANT_ORIGINS), written into dist/sheets/appsscript.json
 * and compiled into Code.js, where the server refuses any other address before fetching.
 *
 * Google's rules for the prefixes (developers.google.com/apps-script/manifest/allowlist-url): each
 * is a valid URL, uses https://, has a full domain and a non-empty path ("https://www.google.com/"
 * is valid, "https://www.google.com" is not); a leading wildcard matches subdomains. A URL matches
 * a prefix when it is the prefix or a child of it; path matching is case-sensitive. The list is
 * required for a versioned deployment, optional for a test deployment.
 */

export class AllowlistError extends Error {}

/**
 * One origin as an allowlist prefix: "https://host[:port]/" ("https://*.host/" for a wildcard).
 * Refuses anything but an https origin with a full domain (a dot in the host, not an IP address:
 * Google's "full domain"), and anything after the origin.
 */
export function allowlistPrefix(origin: string): string {
  const text = origin.trim();
  const match = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?([^/?#:]+)(:\d{1,5})?(\/?)([\s\S]*)$/i.exec(text);
  if (!match)
    throw new AllowlistError(
      `"${text}" is not an origin: give https://host, e.g. https://acme.reporting.example.com`,
    );
  const [, scheme, wildcard = "", host = "", port = "", , rest] = match;
  if (scheme!.toLowerCase() !== "https") {
    throw new AllowlistError(
      `"${text}" must use https:// (Google's urlFetchWhitelist takes https prefixes only).`,
    );
  }
  if (rest)
    throw new AllowlistError(`"${text}" must be an origin only (https://host[:port]), nothing after it.`);
  const hostname = host.toLowerCase();
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(hostname) || /^[\d.]+$/.test(hostname)) {
    throw new AllowlistError(
      `"${text}" needs a full domain name (like acme.reporting.example.com), not "${host}".`,
    );
  }
  return `https://${wildcard}${hostname}${port}/`;
}

/** The prefixes for a comma-separated list of origins (and repeated flags), without duplicates. */
export function allowlistFromOrigins(origins: readonly string[]): string[] {
  const prefixes = origins
    .flatMap((o) => o.split(","))
    .map((o) => o.trim())
    .filter(Boolean)
    .map(allowlistPrefix);
  return [...new Set(prefixes)];
}

/** Google's matching: the URL is the prefix or a child of it (host compared case-insensitively). */
export function allowedByAllowlist(url: string, prefixes: readonly string[]): boolean {
  const match = /^https:\/\/([^/?#]+)([\s\S]*)$/i.exec(url);
  if (!match) return false;
  const authority = match[1]!.toLowerCase();
  if (authority.includes("@")) return false;
  const rest = match[2] ?? "";
  const path = rest.startsWith("/") ? rest : `/${rest}`;
  for (const prefix of prefixes) {
    const p = /^https:\/\/(\*\.)?([^/]+)(\/[\s\S]*)$/.exec(prefix);
    if (!p) continue;
    const [, wildcard, host, prefixPath] = p;
    const hostOk = wildcard ? authority.endsWith(`.${host}`) : authority === host;
    if (!hostOk) continue;
    // "https://host/" is the whole host; a longer path must match up to a separator.
    if (path === prefixPath || path.startsWith(prefixPath!)) {
      if (prefixPath!.endsWith("/")) return true;
      const next = path.charAt(prefixPath!.length);
      if (next === "" || next === "/" || next === "?" || next === "#") return true;
    }
  }
  return false;
}
