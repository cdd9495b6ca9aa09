/**
 * The add-in server's routes, as a Hono app: the built pane (dist/excel), `/config.json` (which
 * tenants the relay serves, read by the pane), and the relay. Stateless: every answer depends on
 * the request and the start-up options only, so any number of copies can run behind a load
 * balancer.
 */
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { isMalformedPath } from "../server-kit/http.js";
import { registerHealthRoutes, ServerState } from "./health.js";
import { type RequestLogEntry, requestLogging } from "./logging.js";
import { registerManifestRoutes, type ServedManifests } from "./manifests.js";
import { DEFAULT_RELAY_MAX_IN_FLIGHT, inFlightGate, RELAY_PREFIX, relay } from "./relay.js";
import { securityHeaders } from "./security-headers.js";
import type { TenantList } from "./tenants.js";

/**
 * What the pane reads to learn which tenants, and which deployments' data origins, to reach through
 * the relay (`./config.json`).
 */
interface PaneServerConfig {
  relay: { tenants: string[]; dataOrigins: string[] };
}

const PANE_CONFIG_PATH = "/config.json";

export interface AddinAppOptions {
  /** The built pane: dist/excel. */
  distDir: string;
  tenants: TenantList;
  /** The data origins the relay reaches (their load call only); none unless given. */
  dataOrigins?: TenantList;
  /** True when the server speaks HTTPS itself (adds HSTS). */
  secure: boolean;
  /** Who may frame the pages (security-headers.ts: DEFAULT_FRAME_ANCESTORS unless given). */
  frameAncestors?: readonly string[];
  /** The fetch the relay uses (the runtime's by default). */
  fetch?: typeof fetch;
  /** One line per request: method, path, status. Never a header value, a query or a body. */
  log?: (line: string) => void;
  /** How long the relay waits for a silent tenant (DEFAULT_RELAY_TIMEOUT_MS). */
  relayTimeoutMs?: number;
  /** Most relayed requests at once; past it 503 (DEFAULT_RELAY_MAX_IN_FLIGHT). */
  relayMaxInFlight?: number;
  /**
   * The structured request log (logging.ts), one entry per request once its answer has ended;
   * replaces the page lines of `log` when given.
   */
  requestLog?: (entry: RequestLogEntry) => void;
  /** The server's phase for `/readyz` (health.ts); ready when not given. */
  state?: ServerState;
  /** The manifests rendered for the public URL (manifests.ts); the built files when null. */
  manifests?: () => ServedManifests | null;
}

/** Vite names built files `name-<hash>.js`: those never change and may be cached for good. */
const HASHED_ASSET = /^\/assets\/.+-[A-Za-z0-9_-]{8,}\.(js|css)$/;

export function createAddinApp(options: AddinAppOptions): Hono {
  const app = new Hono();
  const headers = securityHeaders(options.secure, false, options.frameAncestors);
  const relayHeaders = securityHeaders(options.secure, true);
  const config: PaneServerConfig = {
    relay: {
      tenants: [...options.tenants.origins],
      dataOrigins: [...(options.dataOrigins?.origins ?? [])],
    },
  };
  const gate = inFlightGate(options.relayMaxInFlight ?? DEFAULT_RELAY_MAX_IN_FLIGHT);
  const state = options.state ?? Object.assign(new ServerState(), { readiness: "ready" as const });

  app.use(
    requestLogging({
      tenants: options.tenants,
      ...(options.dataOrigins ? { dataOrigins: options.dataOrigins } : {}),
      ...(options.requestLog ? { onRequest: options.requestLog } : {}),
    }),
  );

  app.use(async (c, next) => {
    const started = Date.now();
    const pathname = new URL(c.req.url).pathname;
    if (isMalformedPath(pathname)) {
      c.res = c.json({ message: "The address is malformed." }, 400);
    } else {
      await next();
    }
    const relayed = pathname.startsWith(RELAY_PREFIX);
    for (const [name, value] of Object.entries(relayed ? relayHeaders : headers))
      c.res.headers.set(name, value);
    if (!relayed && !options.requestLog) {
      options.log?.(`${c.req.method} ${pathname} ${c.res.status} ${Date.now() - started}ms`);
    }
  });

  // The probes and the manifests rendered for this server's address: the operational routes.
  registerHealthRoutes(app, state);
  registerManifestRoutes(app, options.manifests ?? (() => null));

  app.all(`${RELAY_PREFIX}*`, (c) =>
    relay(c.req.raw, {
      tenants: options.tenants,
      ...(options.dataOrigins ? { dataOrigins: options.dataOrigins } : {}),
      gate,
      // On Node (@hono/node-server), the response: destroyed, the pane sees the answer broke.
      onBroken: () => (c.env as { outgoing?: { destroy(): void } } | undefined)?.outgoing?.destroy(),
      ...(options.relayTimeoutMs !== undefined ? { timeoutMs: options.relayTimeoutMs } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.log ? { log: options.log } : {}),
    }),
  );

  app.get(PANE_CONFIG_PATH, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(config);
  });

  // Relative, so the pane is found behind a proxy that serves this server under a sub-path.
  app.get("/", (c) => c.redirect("taskpane.html", 302));

  app.use(
    "*",
    serveStatic({
      root: options.distDir,
      onFound(path, c) {
        // Office caches add-in pages hard; only content-hashed files may be kept.
        const request = new URL(c.req.url).pathname;
        c.header(
          "Cache-Control",
          HASHED_ASSET.test(request) ? "public, max-age=31536000, immutable" : "no-cache",
        );
        if (path.endsWith(".xml")) c.header("Content-Type", "application/xml; charset=utf-8");
      },
    }),
  );

  app.notFound((c) => c.json({ message: `Not found: ${new URL(c.req.url).pathname}` }, 404));
  app.onError((_error, c) => c.json({ message: "The add-in server had an internal error." }, 500));
  return app;
}
