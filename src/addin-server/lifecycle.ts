/**
 * Stopping without cutting anyone off (SIGTERM from an orchestrator, or Ctrl-C): the server stops
 * accepting connections, `/readyz` answers 503 (health.ts), and the requests in flight, relayed
 * streams such as the agent's NDJSON included, run to their end, up to a grace period; then what
 * is left is closed. Idle keep-alive connections are closed at once, and a connection whose answer
 * ends while draining is closed after it (`Connection: close`), so the process can exit.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ServerState } from "./health.js";

/** The default grace period: under Kubernetes' default terminationGracePeriodSeconds (30 s). */
export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

export interface Drainable {
  /** Stops accepting, lets the requests in flight finish within `graceMs`, then closes the rest. */
  drain(graceMs: number): Promise<{ cutOff: number }>;
  /** Requests whose answer has not ended yet. */
  inFlight(): number;
}

/** Node's http or https server (what @hono/node-server's `serve` returns). */
type NodeServer = Pick<Server, "close" | "closeIdleConnections" | "closeAllConnections"> & {
  on(event: "request", listener: (req: IncomingMessage, res: ServerResponse) => void): unknown;
};

/** Counts the requests in flight on `server` (from their arrival to their answer's last byte). */
export function trackRequests(server: NodeServer, state: ServerState): Drainable {
  let active = 0;
  let idle: (() => void) | null = null;
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    active++;
    if (state.readiness === "draining" && !res.headersSent) res.setHeader("Connection", "close");
    res.once("close", () => {
      active--;
      if (active === 0) idle?.();
    });
  });
  let draining: Promise<{ cutOff: number }> | null = null;
  return {
    inFlight: () => active,
    drain(graceMs) {
      draining ??= new Promise((resolve) => {
        state.readiness = "draining";
        let closed = false;
        let timer: NodeJS.Timeout | undefined;
        const finish = (cutOff: number) => {
          if (closed) return;
          closed = true;
          if (timer) clearTimeout(timer);
          idle = null;
          server.closeAllConnections();
          resolve({ cutOff });
        };
        server.close();
        server.closeIdleConnections();
        if (active === 0) return finish(0);
        idle = () => {
          // An answer just ended: its keep-alive connection (marked to close) may still linger.
          server.closeIdleConnections();
          finish(0);
        };
        timer = setTimeout(() => finish(active), Math.max(0, graceMs));
      });
      return draining;
    },
  };
}
