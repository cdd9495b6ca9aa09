/**
 * How the Excel pane reaches a tenant: directly when the tenant accepts calls from the add-in's
 * page (CORS), through the add-in server's relay when it does not. The add-in server tells the page
 * which tenants it relays to (`./config.json`, beside the page); a page served elsewhere has no
 * relay and calls directly.
 *
 * - A tenant the add-in server lists goes through the relay from the first call.
 * - Otherwise the call goes direct. When it fails the way a CORS refusal does (a TypeError: no
 *   response at all) to a host that never answered directly, a GET or DELETE is sent again through
 *   the relay (rule 9 makes a repeated disconnect safe); a POST (a chat question) is never resent.
 * - When neither works, the error says so in words the user can act on.
 * A tenant that answered through the relay keeps using it for the rest of the session.
 *
 * A deployment's data API (a request with `target: "data-api"`, at the origin its `deploymentUrl`
 * names) is relayed when the add-in server lists that data origin, and reached directly otherwise;
 * its load call (a POST) is never resent, and a data origin that refuses the page and is not listed
 * is named in the error (`dataOriginNotListed`), so the user can ask their admin to list it. The
 * relay reaches a data origin for its load call only, never for a tenant's request.
 */
import { dataOriginNotListed, PlatformError } from "../../core/errors.js";
import type { HttpRequest, HttpResponse, Transport } from "../../core/transport.js";

export const TENANT_REFUSES_PAGE_MESSAGE =
  "This tenant does not accept calls from the add-in's page: ask your admin to list it on the add-in server";

/** The add-in server's relay as the page sees it. */
export interface RelayRoute {
  /** `<page folder>/relay/`: a relay URL is this, the tenant's host[:port], then path and query. */
  base: string;
  /** The tenant origins the add-in server lists. */
  tenants: readonly string[];
  /** The data origins it lists: relayed their data API's load call only. */
  dataOrigins?: readonly string[];
}

/** What `./config.json` holds (src/addin-server/app.ts writes it). */
interface PaneServerConfig {
  relay?: { tenants?: unknown; dataOrigins?: unknown };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((t) => typeof t === "string");
}

/**
 * Reads `config.json` beside the page: the relay route when the page is served by the add-in
 * server, null otherwise (another static host, a missing or unreadable file).
 */
export async function loadRelayRoute(
  pageUrl: string,
  fetchFn: typeof fetch = (...args) => globalThis.fetch(...args),
): Promise<RelayRoute | null> {
  try {
    const response = await fetchFn(new URL("config.json", pageUrl).href, {
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return null;
    const config = (await response.json()) as PaneServerConfig;
    const tenants = config.relay?.tenants;
    if (!isStringList(tenants)) return null;
    // An older add-in server lists no data origins.
    const dataOrigins = config.relay?.dataOrigins;
    return {
      base: new URL("relay/", pageUrl).href,
      tenants,
      dataOrigins: isStringList(dataOrigins) ? dataOrigins : [],
    };
  } catch {
    return null;
  }
}

/** Only these may be sent twice: the first attempt may have reached the tenant. */
const RESENDABLE = new Set(["GET", "DELETE"]);

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** A fetch failure with no response at all: how a browser reports a CORS refusal. */
function looksLikeCorsRefusal(error: unknown): boolean {
  return error instanceof TypeError || (error as { name?: unknown } | null)?.name === "TypeError";
}

function refusedByTenant(): PlatformError {
  return new PlatformError("forbidden", TENANT_REFUSES_PAGE_MESSAGE);
}

/** The refusal for `request`: a data origin is named (the admin lists it apart from the tenants). */
function refused(request: HttpRequest): PlatformError {
  return request.target === "data-api" ? dataOriginNotListed(new URL(request.url).origin) : refusedByTenant();
}

export interface RelayingTransportOptions {
  /** The transport that reaches any URL (fetch). */
  direct: Transport;
  /** The relay, or null when the page is not served by an add-in server; asked once. */
  route: () => Promise<RelayRoute | null>;
}

export function createRelayingTransport(options: RelayingTransportOptions): Transport {
  let route: Promise<RelayRoute | null> | null = null;
  const answeredDirectly = new Set<string>();
  const answeredThroughRelay = new Set<string>();

  async function viaRelay(relay: RelayRoute, request: HttpRequest, host: string): Promise<HttpResponse> {
    const target = new URL(request.url);
    const response = await options.direct({
      ...request,
      url: `${relay.base}${host}${target.pathname}${target.search}`,
      // The relay follows no redirect and passes no Location on (it names the target in
      // X-Relay-Location), so the browser has nothing to follow; "manual" would hide the 3xx
      // behind an opaque redirect and the user would never learn where it pointed.
      redirect: "follow",
    });
    if (response.status === 403 && response.headers["x-relay-error"] === "tenant-not-listed") {
      throw refused(request);
    }
    answeredThroughRelay.add(host);
    return response;
  }

  return async (request) => {
    route ??= options.route().catch(() => null);
    const relay = await route;
    const host = hostOf(request.url);
    if (!host) return options.direct(request);
    const listedAs = (origins: readonly string[] | undefined) =>
      origins?.some((origin) => hostOf(origin) === host) ?? false;
    const listed =
      listedAs(relay?.tenants) || (request.target === "data-api" && listedAs(relay?.dataOrigins));
    if (relay && (listed || answeredThroughRelay.has(host))) return viaRelay(relay, request, host);

    try {
      const response = await options.direct(request);
      answeredDirectly.add(host);
      return response;
    } catch (error) {
      if (request.signal?.aborted || !looksLikeCorsRefusal(error) || answeredDirectly.has(host)) throw error;
      // No response from a host that never answered this page: most likely it refuses the page.
      if (!relay) throw refused(request);
      if (!RESENDABLE.has(request.method)) throw refused(request);
      return viaRelay(relay, request, host);
    }
  };
}
