/**
 * Probes for an orchestrator or a load balancer:
 * - `GET /healthz`: alive (the process answers): always 200 `{"status":"ok"}`;
 * - `GET /readyz`: ready for traffic: 200 `{"status":"ready"}` once the server listens with its
 *   built pane found and its tenant list loaded; 503 `{"status":"starting"}` before, and
 *   `{"status":"draining"}` once SIGTERM asked it to stop (lifecycle.ts), so no new request is sent
 *   to a copy on its way out.
 * Neither reads a header or a body, and neither depends on a tenant being reachable: a tenant that
 * is down must not take every copy of the server out of its load balancer.
 */
import type { Hono } from "hono";

export type Readiness = "starting" | "ready" | "draining";

/** The server's phase, shared by the routes and the code that starts and stops it. */
export class ServerState {
  readiness: Readiness = "starting";
}

export const HEALTH_PATHS = { alive: "/healthz", ready: "/readyz" } as const;

export function registerHealthRoutes(app: Hono, state: ServerState): void {
  app.get(HEALTH_PATHS.alive, (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ok" });
  });
  app.get(HEALTH_PATHS.ready, (c) => {
    c.header("Cache-Control", "no-store");
    const status = state.readiness;
    return c.json({ status }, status === "ready" ? 200 : 503);
  });
}
