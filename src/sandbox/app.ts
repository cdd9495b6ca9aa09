/**
 * The local Reporting Platform's routes, as a Hono app on web-standard Request and Response:
 * routing, methods (405 with `Allow`), CORS and the error envelope live here; each family of
 * endpoints lives in its own file. `server.ts` serves it on Node.
 */
import { type Context, Hono } from "hono";
import { isMalformedPath } from "../server-kit/http.js";
import { ChatEndpoints } from "./chat-endpoints.js";
import { DataApi, DEFAULT_CONTINUE_WAIT_MS } from "./data-api.js";
import { disconnect, getReport, listDeployments, listReports, pathId } from "./management.js";
import { Placing } from "./placing.js";
import { CORS_HEADERS, errorResponse, HttpError } from "./respond.js";
import { asScimError, listScimUsers, scimError } from "./scim.js";
import type { Seed } from "./seed.js";
import { SandboxState } from "./state.js";

export interface SandboxAppOptions {
  seed: Seed;
  /** Delay between the pieces of a chat stream, in ms. */
  chatDelayMs: number;
  /**
   * false: behave like a tenant that allows no browser calls (`--no-cors`): no `Access-Control-*`
   * header on any answer and no preflight approved.
   */
  cors: boolean;
  /** The sandbox's own base URL (SCIM resources name their `location` with it). */
  baseUrl: () => string;
  /**
   * `--data-port`: the base URL of the data API's own origin, which `deploymentUrl` then names (as
   * on the real platform, where the data API is not at the tenant's origin). Unset: `baseUrl`.
   */
  dataBaseUrl?: (() => string) | undefined;
  /** Called once per answered request (method, path, status); never given credentials. */
  log?: ((line: string) => void) | undefined;
  /** The clock (ms since the epoch) for token expiry and refresh times; `Date.now` unless set (tests). */
  now?: (() => number) | undefined;
  /** `--data-delay-ms`: every data-API query runs at least this long ("Continue wait" meanwhile). */
  dataDelayMs?: number | undefined;
  /** How long one load request waits on a running query; else the seed's `continueWaitMs`, else 1,000 ms. */
  continueWaitMs?: number | undefined;
}

export interface SandboxApp {
  app: Hono;
  /** Stops the agent's runs and ends their streams (server shutdown). */
  close(): void;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";
type Handler = (c: Context) => Response | Promise<Response>;

/** The methods the service answers anywhere; a preflight approves them. */
const METHODS = "GET, POST, PUT, DELETE";

/**
 * Which of the sandbox's origins a request came to, when the data API has its own (`--data-port`):
 * server.ts says so in the request's environment. "data": the data origin; else the tenant's.
 */
export interface SandboxEnv {
  sandboxOrigin?: "data" | "tenant";
}

const DATA_PATH = /^\/data(\/|$)/;

/** A request on the data origin for anything but the data API, or on the tenant's for the data API. */
function wrongOrigin(c: Context, pathname: string): boolean {
  const onData = (c.env as SandboxEnv | undefined)?.sandboxOrigin === "data";
  return onData !== DATA_PATH.test(pathname);
}

function elsewhere(pathname: string): HttpError {
  const message = DATA_PATH.test(pathname)
    ? "The data API is not at the tenant's origin here: use the deployment's deploymentUrl."
    : `No endpoint ${pathname} on the data API's origin: the management API is at the tenant's.`;
  return new HttpError(404, message, { body: { error: message } });
}

export function createSandboxApp(options: SandboxAppOptions): SandboxApp {
  const state = new SandboxState(options.seed);
  const chat = new ChatEndpoints(state, options.chatDelayMs);
  const now = options.now ?? Date.now;
  const data = new DataApi(state, {
    now,
    continueWaitMs: options.continueWaitMs ?? options.seed.continueWaitMs ?? DEFAULT_CONTINUE_WAIT_MS,
    dataDelayMs: options.dataDelayMs ?? 0,
    baseUrl: options.dataBaseUrl ?? options.baseUrl,
  });
  const placing = new Placing(state, now);
  const app = new Hono();

  app.use(async (c, next) => {
    const started = Date.now();
    const pathname = new URL(c.req.url).pathname;
    // No route can read such an address: it is the caller's mistake (400), not the sandbox's (500).
    if (isMalformedPath(pathname)) {
      c.res = errorResponse(
        new HttpError(400, "The address is malformed: part of its path is not valid percent-encoding."),
      );
    } else if (options.dataBaseUrl && wrongOrigin(c, pathname)) {
      c.res = errorResponse(elsewhere(pathname));
    } else {
      await next();
    }
    // Every answer, errors and streams included; none at all with --no-cors.
    if (options.cors)
      for (const [name, value] of Object.entries(CORS_HEADERS)) c.res.headers.set(name, value);
    options.log?.(`${c.req.method} ${pathname} ${c.res.status} ${Date.now() - started}ms`);
  });

  app.options("*", () => {
    if (!options.cors) {
      // No preflight approval: a browser on another origin never gets to send the request.
      throw new HttpError(405, "OPTIONS is not allowed here: this service accepts no browser calls.", {
        headers: { Allow: METHODS },
      });
    }
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Methods": `${METHODS}, OPTIONS`,
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept",
        "Access-Control-Max-Age": "600",
      },
    });
  });

  /** Registers `path` for `handlers`; any other method there is 405 naming the allowed ones. */
  function endpoint(path: string, handlers: Partial<Record<Method, Handler>>): void {
    const allow = Object.keys(handlers).join(", ");
    const notAllowed = (method: string): never => {
      const message = `${method} is not allowed here; use ${allow}.`;
      // The data API answers errors as Cube does: {"error"}.
      const body = path.startsWith("/data/") ? { error: message } : {};
      throw new HttpError(405, message, { headers: { Allow: allow }, body });
    };
    for (const [method, handler] of Object.entries(handlers)) {
      // Hono answers HEAD with the GET handler; the service allows only the methods it lists.
      app.on(method, path, (c) => (c.req.method === method ? handler(c) : notAllowed(c.req.method)));
    }
    app.all(path, (c) => notAllowed(c.req.method));
  }

  /**
   * Checks the credential before the path's numbers, so an unauthenticated request is 401 whatever
   * its path holds; then the deployment id (400 when not a number).
   */
  const deploymentOf = (c: Context): number => {
    state.authorizeManagement(c.req.raw);
    return pathId(c.req.param("deploymentId") ?? "", "deploymentId");
  };
  const reportOf = (c: Context) => pathId(c.req.param("reportId") ?? "", "reportId");

  /** The account segment of the chat URL is "sandbox"; any other account has no agents. */
  const agentOf = (c: Context): string => {
    const account = c.req.param("account");
    if (account !== "sandbox")
      throw new HttpError(404, `No account "${account}" in the sandbox (use "sandbox").`);
    return c.req.param("agentId") ?? "";
  };

  endpoint("/api/v1/deployments", { GET: (c) => listDeployments(state, c.req.raw) });
  endpoint("/api/v1/deployments/:deploymentId", {
    GET: (c) => data.getDeployment(c.req.raw, deploymentOf(c)),
  });
  endpoint("/api/v1/deployments/:deploymentId/token", {
    POST: (c) => data.issueToken(c.req.raw, deploymentOf(c)),
  });
  endpoint("/api/v1/deployments/:deploymentId/reports", {
    GET: (c) => listReports(state, c.req.raw, deploymentOf(c), new URL(c.req.url).searchParams),
  });
  endpoint("/api/v1/deployments/:deploymentId/reports/:reportId", {
    GET: (c) => {
      const deploymentId = deploymentOf(c);
      return getReport(state, c.req.raw, deploymentId, reportOf(c));
    },
  });
  endpoint("/api/v1/deployments/:deploymentId/reports/:reportId/connect-workbook", {
    PUT: (c) => {
      const deploymentId = deploymentOf(c);
      return placing.connect(c.req.raw, deploymentId, reportOf(c));
    },
    DELETE: (c) => {
      const deploymentId = deploymentOf(c);
      return disconnect(state, c.req.raw, deploymentId, reportOf(c));
    },
  });
  endpoint("/api/v1/deployments/:deploymentId/reports/:reportId/refresh", {
    PUT: (c) => {
      const deploymentId = deploymentOf(c);
      return placing.refresh(c.req.raw, deploymentId, reportOf(c));
    },
  });
  // Sandbox only: change a report's query while it runs, so its placements turn CHANGED.
  endpoint("/sandbox/reports/:reportId/change-query", {
    POST: (c) => {
      state.authorizeManagement(c.req.raw);
      return placing.changeQuery(c.req.raw, reportOf(c));
    },
  });
  // The deployment's data API, at its deploymentUrl (`<base>/data/<deploymentId>`).
  endpoint("/data/:deploymentId/cubejs-api/v1/load", {
    POST: (c) => data.load(c.req.raw, c.req.param("deploymentId") ?? ""),
  });
  endpoint("/data/:deploymentId/cubejs-api/v1/cubesql", {
    POST: (c) => data.cubesql(c.req.raw, c.req.param("deploymentId") ?? ""),
  });
  endpoint("/api/v1/public/:account/agents/:agentId/chat/stream-chat-state", {
    POST: (c) => chat.stream(c.req.raw, agentOf(c)),
  });
  endpoint("/api/v1/public/:account/agents/:agentId/chat/abort", {
    POST: (c) => chat.abort(c.req.raw, agentOf(c)),
  });
  endpoint("/api/scim/v2/Users", {
    GET: (c) => listScimUsers(state, c.req.raw, new URL(c.req.url).searchParams, options.baseUrl()),
  });

  // Anything else under the authenticated families: the credential is checked first, then 404.
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const method = c.req.method;
    try {
      if (/^\/(build\/)?api\/v1(\/|$)/.test(path) && !path.startsWith("/api/v1/public/")) {
        state.authorizeManagement(c.req.raw);
        throw new HttpError(404, `No endpoint ${method} ${path} in the sandbox.`);
      }
      if (/^\/api\/scim\/v2(\/|$)/.test(path)) {
        try {
          state.authorizeScim(c.req.raw);
        } catch (e) {
          throw asScimError(e);
        }
        throw scimError(404, `No SCIM resource at ${path} in the sandbox.`);
      }
      if (/^\/data(\/|$)/.test(path)) {
        // The data API answers errors as Cube does: {"error"}.
        const message = `No endpoint ${method} ${path} in the sandbox's data API.`;
        throw new HttpError(404, message, { body: { error: message } });
      }
      throw new HttpError(404, `No endpoint ${method} ${path} in the sandbox.`);
    } catch (error) {
      return answerError(error);
    }
  });

  app.onError((error) => answerError(error));

  function answerError(error: unknown): Response {
    if (error instanceof HttpError) return errorResponse(error);
    options.log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    return errorResponse(new HttpError(500, "The sandbox had an internal error."));
  }

  return { app, close: () => chat.close() };
}
