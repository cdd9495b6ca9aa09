/**
 * Starts the add-in server on Node (@hono/node-server): HTTP, or HTTPS with a certificate and key.
 * `cli.ts` is `npm run serve`; tests and `npm run start:excel` call `startAddinServer` directly.
 */

import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createAddinApp } from "./app.js";
import { ServerState } from "./health.js";
import { trackRequests } from "./lifecycle.js";
import type { RequestLogEntry } from "./logging.js";
import { loadServedManifests, type ServedManifests } from "./manifests.js";
import type { TenantList } from "./tenants.js";

export interface AddinServerOptions {
  distDir: string;
  tenants: TenantList;
  /** 0 takes a free port. */
  port: number;
  /** Default 127.0.0.1: only this machine, unless an admin says otherwise. */
  host?: string;
  /** PEM certificate and key: the server speaks HTTPS. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  fetch?: typeof fetch;
  log?: (line: string) => void;
  /** Who may frame the pages (the default list unless given). */
  frameAncestors?: readonly string[];
  /** The structured request log (logging.ts). */
  requestLog?: (entry: RequestLogEntry) => void;
  /**
   * The https address users reach the server at (behind a load balancer, say): the manifests are
   * rendered for it at start. Without it, a server speaking HTTPS renders them for its own URL, and
   * one speaking HTTP serves the built ones as they are.
   */
  publicUrl?: string;
}

export interface RunningAddinServer {
  /** `https://localhost:<port>` with TLS on loopback (the certificate's name), else `http://<host>:<port>`. */
  url: string;
  port: number;
  close(): Promise<void>;
  /**
   * Stops accepting, answers /readyz 503, lets the requests in flight end within `graceMs`, then
   * closes what is left (lifecycle.ts). `cutOff`: the requests still running at the deadline.
   */
  drain(graceMs: number): Promise<{ cutOff: number }>;
}

export async function startAddinServer(options: AddinServerOptions): Promise<RunningAddinServer> {
  const host = options.host ?? "127.0.0.1";
  const secure = Boolean(options.tls);
  const state = new ServerState();
  let manifests: ServedManifests | null = null;
  const app = createAddinApp({
    state,
    manifests: () => manifests,
    ...(options.requestLog ? { requestLog: options.requestLog } : {}),
    distDir: options.distDir,
    tenants: options.tenants,
    secure,
    ...(options.frameAncestors ? { frameAncestors: options.frameAncestors } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  const server = serve({
    fetch: app.fetch,
    port: options.port,
    hostname: host,
    ...(options.tls
      ? { createServer: createHttpsServer, serverOptions: { cert: options.tls.cert, key: options.tls.key } }
      : {}),
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const drainable = trackRequests(server as Server, state);
  const port = (server.address() as AddressInfo).port;
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const shown = secure && loopback ? "localhost" : host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  const url = `${secure ? "https" : "http"}://${shown}:${port}`;
  const manifestBase = options.publicUrl ?? (secure ? url : null);
  if (manifestBase) manifests = loadServedManifests(options.distDir, manifestBase);
  state.readiness = "ready";
  return {
    url,
    port,
    drain: (graceMs) => drainable.drain(graceMs),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      return closing;
    },
  };
}
