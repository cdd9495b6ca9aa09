/**
 * Starts the add-in server on Node (@hono/node-server): HTTP, or HTTPS with a certificate and key.
 * `cli.ts` is `npm run serve`; tests and `npm run start:excel` call `startAddinServer` directly.
 */
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createAddinApp } from "./app.js";
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
  /** How long the relay waits for a silent tenant (DEFAULT_RELAY_TIMEOUT_MS). */
  relayTimeoutMs?: number;
  /** Most relayed requests at once; past it 503 (DEFAULT_RELAY_MAX_IN_FLIGHT). */
  relayMaxInFlight?: number;
}

export interface RunningAddinServer {
  /** `https://localhost:<port>` with TLS on loopback (the certificate's name), else `http://<host>:<port>`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startAddinServer(options: AddinServerOptions): Promise<RunningAddinServer> {
  const host = options.host ?? "127.0.0.1";
  const secure = Boolean(options.tls);
  const app = createAddinApp({
    distDir: options.distDir,
    tenants: options.tenants,
    secure,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.relayTimeoutMs !== undefined ? { relayTimeoutMs: options.relayTimeoutMs } : {}),
    ...(options.relayMaxInFlight !== undefined ? { relayMaxInFlight: options.relayMaxInFlight } : {}),
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
  const port = (server.address() as AddressInfo).port;
  const loopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const shown = secure && loopback ? "localhost" : host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  return {
    url: `${secure ? "https" : "http"}://${shown}:${port}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      return closing;
    },
  };
}
