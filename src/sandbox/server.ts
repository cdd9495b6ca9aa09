/**
 * The local Reporting Platform: a real HTTP server on loopback serving the seed (docs/sandbox.md).
 * The routes are a Hono app (`app.ts`), served on Node through @hono/node-server; `cli.ts` is
 * `npm run sandbox`, and `npm start` and tests call `startSandbox` directly.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandboxApp, type SandboxEnv } from "./app.js";
import type { Seed } from "./seed.js";

export interface SandboxOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
  /**
   * `--data-port`: serve the data API on this port too (0: a free one), its own origin, and only
   * there: `deploymentUrl` names it, and the tenant's port no longer answers `/data/…` (nor this
   * port the management API). Unset: the data API is at the tenant's origin.
   */
  dataPort?: number;
  /** Default 127.0.0.1. */
  host?: string;
  seed: Seed;
  /** Delay between the pieces of a chat stream, in ms (default 40). */
  chatDelayMs?: number;
  /** Called once per answered request (method, path, status); never given credentials. */
  log?: (line: string) => void;
  /**
   * false: behave like a tenant that allows no browser calls (`--no-cors`): no `Access-Control-*`
   * header on any answer and no preflight approved. Default true (every origin allowed).
   */
  cors?: boolean;
  /** `--data-delay-ms`: every data-API query runs at least this long (default 0). */
  dataDelayMs?: number;
  /** The longest one data-API load request waits before "Continue wait" (default: the seed's, else 1,000 ms). */
  continueWaitMs?: number;
  /** The clock for token expiry and refresh times (tests); `Date.now` unless set. */
  now?: () => number;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  /** With `dataPort`: the data API's origin (`http://127.0.0.1:DATAPORT`); else `url`. */
  dataUrl: string;
  close(): Promise<void>;
}

export const DEFAULT_CHAT_DELAY_MS = 40;

/** Serves `fetch` on host:port; resolves once listening. */
async function listen(
  fetch: Parameters<typeof serve>[0]["fetch"],
  port: number,
  host: string,
): Promise<Server> {
  // Without createServer, @hono/node-server serves plain HTTP with node:http.
  const server = serve({ fetch, port, hostname: host }) as Server;
  // Requests may carry large bodies (the 413 case); keep-alive sockets are closed on close().
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once("listening", () => {
      server.off("error", reject);
      resolve();
    });
    server.once("error", reject);
  });
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const urlOf = (port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let baseUrl = "";
  let dataBaseUrl = "";
  const apart = options.dataPort !== undefined;
  const sandbox = createSandboxApp({
    seed: options.seed,
    chatDelayMs: options.chatDelayMs ?? DEFAULT_CHAT_DELAY_MS,
    cors: options.cors ?? true,
    baseUrl: () => baseUrl,
    ...(apart ? { dataBaseUrl: () => dataBaseUrl } : {}),
    log: options.log,
    now: options.now,
    dataDelayMs: options.dataDelayMs,
    continueWaitMs: options.continueWaitMs,
  });
  // Each server tells the app which origin a request came to (app.ts, SandboxEnv).
  const servedAs =
    (origin: SandboxEnv["sandboxOrigin"]) =>
    (request: Request, env: object): Response | Promise<Response> =>
      sandbox.app.fetch(request, { ...env, sandboxOrigin: origin });
  const server = await listen(servedAs("tenant"), options.port ?? 0, host);
  let dataServer: Server | null = null;
  if (apart) {
    try {
      dataServer = await listen(servedAs("data"), options.dataPort ?? 0, host);
    } catch (error) {
      await closeServer(server);
      throw error;
    }
  }
  const port = (server.address() as AddressInfo).port;
  baseUrl = urlOf(port);
  dataBaseUrl = dataServer ? urlOf((dataServer.address() as AddressInfo).port) : baseUrl;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    dataUrl: dataBaseUrl,
    close() {
      closing ??= (async () => {
        sandbox.close();
        await Promise.all([closeServer(server), ...(dataServer ? [closeServer(dataServer)] : [])]);
      })();
      return closing;
    },
  };
}
