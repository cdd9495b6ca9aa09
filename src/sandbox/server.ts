/**
 * The local Reporting Platform: a real HTTP server on loopback serving the seed (docs/sandbox.md).
 * The routes are a Hono app (`app.ts`), served on Node through @hono/node-server; `cli.ts` is
 * `npm run sandbox`, and `npm start` and tests call `startSandbox` directly.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandboxApp } from "./app.js";
import type { Seed } from "./seed.js";

export interface SandboxOptions {
  /** 0 (the default) takes a free port. */
  port?: number;
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
  close(): Promise<void>;
}

export const DEFAULT_CHAT_DELAY_MS = 40;

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  let baseUrl = "";
  const sandbox = createSandboxApp({
    seed: options.seed,
    chatDelayMs: options.chatDelayMs ?? DEFAULT_CHAT_DELAY_MS,
    cors: options.cors ?? true,
    baseUrl: () => baseUrl,
    log: options.log,
    now: options.now,
    dataDelayMs: options.dataDelayMs,
    continueWaitMs: options.continueWaitMs,
  });
  // Without createServer, @hono/node-server serves plain HTTP with node:http.
  const server = serve({ fetch: sandbox.app.fetch, port: options.port ?? 0, hostname: host }) as Server;
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
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
