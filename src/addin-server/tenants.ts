/**
 * The tenants an add-in server relays to: origins an admin lists (`--tenant`, `TENANT_ORIGINS`),
 * and the deployments' data origins (`--data-origin`, `DATA_ORIGINS`), listed the same way. Only
 * these are ever reached, and a relay path names one by its host (and port), never by a URL the
 * caller could bend elsewhere.
 */
import { isLoopbackHost } from "../core/transport.js";

export class TenantListError extends Error {}

export interface TenantList {
  /** The listed origins, as given after normalising (`https://tenant.example.com`). */
  readonly origins: readonly string[];
  /** The listed origin whose host (and port) is `hostAndPort`, or null: the relay's only door. */
  lookup(hostAndPort: string): string | null;
}

/**
 * Parses and checks the listed origins. An origin is `https://host[:port]` with nothing after it;
 * `http:` only for a loopback host listed explicitly (the local sandbox). Throws TenantListError
 * with a sentence naming the bad entry.
 */
/** What a list holds, for its error messages. */
export interface OriginKind {
  /** "Tenant", "Data origin". */
  noun: string;
  /** An origin of that kind, as an example of the form. */
  example: string;
}

const TENANT: OriginKind = { noun: "Tenant", example: "https://tenant.example.com" };

/**
 * The data origins: where deployments' data APIs are (their `deploymentUrl`), when that is another
 * origin than the tenant's and it accepts no calls from the add-in's page. Checked as tenants are.
 */
export const DATA_ORIGIN: OriginKind = { noun: "Data origin", example: "https://data.example.com" };

export function parseTenantList(entries: readonly string[], what: OriginKind = TENANT): TenantList {
  const { noun, example } = what;
  const urls: URL[] = [];
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new TenantListError(`${noun} "${raw}" is not a URL: list it as ${example}.`);
    }
    if (url.username || url.password || url.search || url.hash || url.pathname !== "/") {
      throw new TenantListError(
        `${noun} "${raw}" must be an origin only (https://host[:port]), with no path, query or user name.`,
      );
    }
    if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
      throw new TenantListError(
        `${noun} "${raw}" must use https://. Plain http:// is relayed only to a loopback address listed explicitly.`,
      );
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new TenantListError(`${noun} "${raw}" must use https://.`);
    }
    const clash = urls.find((u) => u.host === url.host);
    if (clash && clash.origin !== url.origin) {
      throw new TenantListError(
        `${noun}s "${clash.origin}" and "${url.origin}" share a host: list one of them.`,
      );
    }
    if (!clash) urls.push(url);
  }
  return {
    origins: urls.map((u) => u.origin),
    lookup(hostAndPort) {
      if (!/^[A-Za-z0-9.\-[\]:]+$/.test(hostAndPort)) return null;
      for (const url of urls) {
        let candidate: URL;
        try {
          // Parsed with the tenant's own scheme, so an explicit default port (:443) matches too.
          candidate = new URL(`${url.protocol}//${hostAndPort}/`);
        } catch {
          return null;
        }
        if (candidate.host === url.host) return url.origin;
      }
      return null;
    },
  };
}

/**
 * `--tenant` values and `TENANT_ORIGINS` (comma-separated) together; the same for `--data-origin`
 * and `DATA_ORIGINS`.
 */
export function tenantEntries(flags: readonly string[], env: string | undefined): string[] {
  return [...flags, ...(env ?? "").split(",")].map((e) => e.trim()).filter(Boolean);
}
