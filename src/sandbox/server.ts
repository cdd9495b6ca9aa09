/**
 * The local Reporting Platform: a real HTTP server on loopback serving the seed (README:
 * "The local Reporting Platform"). Routing, CORS and the error envelope live here; each family of
 * endpoints lives in its own file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { AgentChat } from "./agent-chat.js";
import { disconnect, getReport, listDeployments, listReports, pathId } from "./management.js";
import { CORS_HEADERS, HttpError, sendError } from "./respond.js";
import { asScimError, listScimUsers, scimError } from "./scim.js";
import type { Seed } from "./seed.js";
import { SandboxState } from "./state.js";

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
}

export interface RunningSandbox {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export const DEFAULT_CHAT_DELAY_MS = 40;

type Handler = (ctx: {
  req: IncomingMessage;
  res: ServerResponse;
  params: string[];
  query: URLSearchParams;
}) => void | Promise<void>;

interface Route {
  pattern: RegExp;
  /** Handlers by lower-case method name. */
  methods: Partial<Record<"get" | "post" | "delete", Handler>>;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const state = new SandboxState(options.seed);
  const chat = new AgentChat(state, options.chatDelayMs ?? DEFAULT_CHAT_DELAY_MS);
  const host = options.host ?? "127.0.0.1";
  let baseUrl = "";

  const routes: Route[] = [
    {
      pattern: /^\/api\/v1\/deployments$/,
      methods: { get: ({ req, res }) => listDeployments(state, req, res) },
    },
    {
      pattern: /^\/api\/v1\/deployments\/([^/]+)\/reports$/,
      methods: {
        get: ({ req, res, params, query }) =>
          withDeployment(state, req, params[0]!, (d) => listReports(state, req, res, d, query)),
      },
    },
    {
      pattern: /^\/api\/v1\/deployments\/([^/]+)\/reports\/([^/]+)$/,
      methods: {
        get: ({ req, res, params }) =>
          withDeployment(state, req, params[0]!, (d) =>
            getReport(state, req, res, d, pathId(params[1]!, "reportId")),
          ),
      },
    },
    {
      pattern: /^\/api\/v1\/deployments\/([^/]+)\/reports\/([^/]+)\/connect-workbook$/,
      methods: {
        delete: ({ req, res, params }) =>
          withDeployment(state, req, params[0]!, (d) =>
            disconnect(state, req, res, d, pathId(params[1]!, "reportId")),
          ),
      },
    },
    {
      pattern: /^\/api\/v1\/public\/([^/]+)\/agents\/([^/]+)\/chat\/stream-chat-state$/,
      methods: { post: ({ req, res, params }) => chat.stream(req, res, agentIdOf(params)) },
    },
    {
      pattern: /^\/api\/v1\/public\/([^/]+)\/agents\/([^/]+)\/chat\/abort$/,
      methods: { post: ({ req, res, params }) => chat.abort(req, res, agentIdOf(params)) },
    },
    {
      pattern: /^\/api\/scim\/v2\/Users$/,
      methods: { get: ({ req, res, query }) => listScimUsers(state, req, res, query, baseUrl) },
    },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    const path = url.pathname;
    const method = (req.method ?? "GET").toUpperCase();

    if (method === "OPTIONS") {
      if (options.cors === false) {
        // No preflight approval: a browser on another origin never gets to send the request.
        throw new HttpError(405, "OPTIONS is not allowed here: this service accepts no browser calls.", {
          headers: { Allow: "GET, POST, DELETE" },
        });
      }
      res.writeHead(204, {
        ...CORS_HEADERS,
        "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type, Accept",
        "Access-Control-Max-Age": "600",
      });
      res.end();
      return;
    }

    for (const route of routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      const handler = route.methods[method.toLowerCase() as keyof Route["methods"]];
      if (!handler) {
        const allow = Object.keys(route.methods)
          .map((m) => m.toUpperCase())
          .join(", ");
        throw new HttpError(405, `${method} is not allowed here; use ${allow}.`, {
          headers: { Allow: allow },
        });
      }
      const params = m.slice(1).map((p) => decodeURIComponent(p));
      await handler({ req, res, params, query: url.searchParams });
      return;
    }

    // Anything else under the authenticated families: the credential is checked first, then 404.
    if (/^\/(build\/)?api\/v1(\/|$)/.test(path) && !path.startsWith("/api/v1/public/")) {
      state.authorizeManagement(req);
      throw new HttpError(404, `No endpoint ${method} ${path} in the sandbox.`);
    }
    if (/^\/api\/scim\/v2(\/|$)/.test(path)) {
      try {
        state.authorizeScim(req);
      } catch (e) {
        throw asScimError(e);
      }
      throw scimError(404, `No SCIM resource at ${path} in the sandbox.`);
    }
    throw new HttpError(404, `No endpoint ${method} ${path} in the sandbox.`);
  }

  const server = createServer((req, res) => {
    if (options.cors === false) withoutCorsHeaders(res);
    const started = Date.now();
    res.on("finish", () => {
      const path = (req.url ?? "/").split("?")[0];
      options.log?.(`${req.method} ${path} ${res.statusCode} ${Date.now() - started}ms`);
    });
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        // A stream that already started cannot change its status: end it.
        res.end();
        return;
      }
      if (error instanceof HttpError) sendError(res, error);
      else {
        options.log?.(`internal error: ${error instanceof Error ? error.message : String(error)}`);
        sendError(res, new HttpError(500, "The sandbox had an internal error."));
      }
    });
  });
  // Requests may carry large bodies (the 413 case); keep-alive sockets are closed on close().
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: baseUrl,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        chat.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * Strips every `Access-Control-*` header from what `res` sends, whichever endpoint set it, so that
 * `--no-cors` holds for every answer (JSON, errors, streams) without each endpoint knowing of it.
 */
function withoutCorsHeaders(res: ServerResponse): void {
  const isCors = (name: string) => name.toLowerCase().startsWith("access-control-");
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => (isCors(name) ? res : setHeader(name, value));
  const writeHead = res.writeHead.bind(res) as (status: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const filtered = rest.map((arg) =>
      arg && typeof arg === "object" && !Array.isArray(arg)
        ? Object.fromEntries(Object.entries(arg as Record<string, unknown>).filter(([name]) => !isCors(name)))
        : arg,
    );
    return writeHead(status, ...filtered);
  }) as ServerResponse["writeHead"];
}

/** The account segment of the chat URL is "sandbox"; any other account has no agents. */
function agentIdOf(params: string[]): string {
  if (params[0] !== "sandbox")
    throw new HttpError(404, `No account "${params[0]}" in the sandbox (use "sandbox").`);
  return params[1]!;
}

/**
 * Checks the credential before the path's numbers, so an unauthenticated request is 401 whatever
 * its path holds; then the deployment id (400 when not a number).
 */
function withDeployment<T>(
  state: SandboxState,
  req: IncomingMessage,
  deploymentText: string,
  then: (deploymentId: number) => T,
): T {
  state.authorizeManagement(req);
  return then(pathId(deploymentText, "deploymentId"));
}
