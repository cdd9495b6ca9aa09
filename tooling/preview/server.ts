/**
 * One process for the whole preview: the local Reporting Platform with the demo data, and Vite's
 * dev server for the page (src/hosts/preview/). `npm start` (scripts/start.ts) and the browser tests
 * both start it here, so the tests run exactly what a newcomer runs. Node-side tooling, apart from
 * the page it serves: the page learns only its PreviewConfig, from PREVIEW_CONFIG_PATH.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Connect, createServer, type Plugin, preview } from "vite";
import { CHAT_PATH } from "../../src/core/chat-request.js";
import {
  PREVIEW_CONFIG_PATH,
  PREVIEW_RESET_PATH,
  type PreviewConfig,
} from "../../src/hosts/preview/config.js";
import {
  DEMO_AGENT_KEY,
  DEMO_AGENTS,
  DEMO_API_KEY,
  DEMO_DEPLOYMENTS,
  DEMO_SCIM_TOKEN,
  demoSeed,
} from "../../src/sandbox/demo.js";
import type { Seed } from "../../src/sandbox/seed.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";
import { PREVIEW_ROOT, previewBuild } from "./build.js";

/** The repository, where `vite build` finds vite.config.ts. */
const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));

/** The chat URL of a sandbox agent (the account segment is always "sandbox"). */
function sandboxChatUrl(sandboxUrl: string, agentId: string): string {
  return `${sandboxUrl}/api/v1/public/sandbox/agents/${encodeURIComponent(agentId)}${CHAT_PATH}`;
}

/** The demo settings for a sandbox serving the demo seed: connected at once, nothing to type. */
export function demoPreviewConfig(sandboxUrl: string): PreviewConfig {
  const deployment = DEMO_DEPLOYMENTS[0];
  const agent = DEMO_AGENTS.find((a) => a.deploymentId === deployment.id)!;
  return {
    sandboxUrl,
    defaults: {
      tenantUrl: sandboxUrl,
      apiKey: DEMO_API_KEY,
      deploymentId: deployment.id,
      chatUrl: sandboxChatUrl(sandboxUrl, agent.id),
      agentApiKey: DEMO_AGENT_KEY,
      externalId: "ann.lee@example.com",
      email: "ann.lee@example.com",
      scimToken: DEMO_SCIM_TOKEN,
    },
  };
}

export interface PreviewOptions {
  /** The page's port: 3000 by default, 0 for a free one. */
  port?: number;
  /** Where the page listens; 127.0.0.1 (this machine only) by default. */
  host?: string;
  /** The sandbox's data; the demo seed by default. */
  seed?: () => Seed;
  /** Delay between the pieces of an agent's answer, in ms (the sandbox's default otherwise). */
  chatDelayMs?: number;
  /**
   * Reload the page when a source file changes (default true). Tests turn it off: an edit made while
   * they run must not reload the page under them.
   */
  watch?: boolean;
  /** Vite's log level; "info" prints what Vite prints, "silent" nothing (tests). */
  logLevel?: "info" | "warn" | "error" | "silent";
  /**
   * Serve this folder, the page built by `buildPreview`, instead of compiling the page on request
   * with Vite's dev server. The same page, the same middlewares, the same sandbox: the browser
   * tests build once and each test file serves that build, instead of each starting a dev server
   * and compiling the pane again.
   */
  built?: string;
}

export interface RunningPreview {
  /** The page: `http://localhost:3000/`. */
  url: string;
  /** The sandbox the page talks to: `http://127.0.0.1:PORT`. */
  readonly sandboxUrl: string;
  /**
   * Replaces the sandbox with a fresh one (fresh data, a new address). Pages loaded afterwards use
   * it, with settings of their own (they are kept per sandbox).
   */
  restartSandbox(): Promise<string>;
  close(): Promise<void>;
}

export const DEFAULT_PREVIEW_PORT = 3000;

/**
 * Builds the preview page (the preview target's build) into `outDir`, for
 * `startPreview({ built: outDir })`: the production build, what `vite build --mode preview` writes,
 * with React's production build in it, as the Excel and Sheets pages are built.
 *
 * It runs that command as a process of its own, for two reasons. Vite chooses React's build from
 * the process's NODE_ENV, and vitest's process has "test" (React's development build: about a
 * fifth more CPU for the browser tests, and timing of effects that hid a focus race in the grid).
 * And the build's synchronous work (Babel evaluating Griffel's styles) would hold up the calling
 * process: in vitest's, which serves the test workers their modules, a browser file's imports took
 * 7.5 s instead of 2 while the build ran beside them (docs/testing.md).
 */
export async function buildPreview(outDir: string): Promise<void> {
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin/vite.js");
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  // Under vitest the preview target keeps the repository's root (build.ts); this build is the page's.
  delete env.VITEST;
  const child = spawn(
    process.execPath,
    [vite, "build", "--mode", "preview", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"],
    { cwd: REPOSITORY, env, stdio: ["ignore", "ignore", "pipe"] },
  );
  let errors = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    errors = (errors + chunk).slice(-8000);
  });
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
  if (status !== 0) throw new Error(`vite build --mode preview exited with status ${status}: ${errors}`);
}

export async function startPreview(options: PreviewOptions = {}): Promise<RunningPreview> {
  // The demo counts its timestamps back from now, so the pane shows "3 hours ago", not a date years back.
  const seed = options.seed ?? (() => demoSeed(new Date()));
  const startOne = () =>
    startSandbox({
      port: 0,
      seed: seed(),
      ...(options.chatDelayMs !== undefined ? { chatDelayMs: options.chatDelayMs } : {}),
    });
  let sandbox: RunningSandbox = await startOne();
  const restart = async () => {
    const old = sandbox;
    sandbox = await startOne();
    await old.close();
    return sandbox.url;
  };

  // The page asks for its configuration on load; the sandbox's address changes on restart. The
  // dev server and a built page get the same middlewares.
  const middlewares = (use: Connect.Server) => {
    // Before Vite's own middlewares: a path that does not decode is the client's error (400),
    // never a crash or a 404 that hides it.
    use.use((req, res, next) => {
      try {
        decodeURIComponent((req.url ?? "/").split("?")[0]!);
      } catch {
        res.statusCode = 400;
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end("Bad request: the address is malformed.\n");
        return;
      }
      next();
    });
    use.use(PREVIEW_RESET_PATH, (req, res) => {
      res.setHeader("Cache-Control", "no-store");
      if (req.method !== "POST") {
        res.statusCode = 405;
        res.setHeader("Allow", "POST");
        res.end();
        return;
      }
      // Only the preview's own page: another site open in the browser may not reset the demo.
      const origin = req.headers.origin;
      if (origin !== undefined && new URL(origin).host !== req.headers.host) {
        res.statusCode = 403;
        res.end();
        return;
      }
      restart().then(
        () => {
          res.statusCode = 204;
          res.end();
        },
        () => {
          res.statusCode = 500;
          res.setHeader("Content-Type", "text/plain; charset=utf-8");
          res.end("The demo could not be reset: restart npm start.\n");
        },
      );
    });
    use.use(PREVIEW_CONFIG_PATH, (_req, res) => {
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Cache-Control", "no-store");
      res.end(JSON.stringify(demoPreviewConfig(sandbox.url)));
    });
  };
  const configPlugin: Plugin = {
    name: "preview-config",
    configureServer: (server) => middlewares(server.middlewares),
    configurePreviewServer: (server) => middlewares(server.middlewares),
  };

  const base = previewBuild();
  const listen = {
    port: options.port ?? DEFAULT_PREVIEW_PORT,
    host: options.host ?? "127.0.0.1",
    strictPort: true,
  };
  let vite: { httpServer: { address(): AddressInfo | string | null } | null; close(): Promise<void> };
  try {
    if (options.built) {
      vite = await preview({
        ...base,
        configFile: false,
        root: PREVIEW_ROOT,
        plugins: [configPlugin],
        logLevel: options.logLevel ?? "info",
        clearScreen: false,
        build: { ...base.build, outDir: options.built },
        preview: { ...listen, open: false },
      });
    } else {
      const dev = await createServer({
        ...base,
        configFile: false,
        root: PREVIEW_ROOT,
        plugins: [...(base.plugins ?? []), configPlugin],
        logLevel: options.logLevel ?? "info",
        clearScreen: false,
        server: {
          ...listen,
          // Transform the page and the pane (lazy parts included) while the server starts, so the
          // first visit does not wait for a cold compile.
          warmup: { clientFiles: ["./main.tsx", "../../../taskpane/*.tsx"] },
          ...(options.watch === false ? { hmr: false, watch: null } : {}),
        },
      });
      await dev.listen();
      vite = dev;
    }
  } catch (error) {
    await sandbox.close();
    throw error;
  }

  const address = vite.httpServer?.address() as AddressInfo;
  // Shown as localhost (the name people type) while listening on the loopback address only.
  const urlHost =
    options.host && options.host !== "127.0.0.1" && options.host !== "localhost" ? options.host : "localhost";
  const url = `http://${urlHost.includes(":") ? `[${urlHost}]` : urlHost}:${address.port}/`;

  let closing: Promise<void> | null = null;
  return {
    url,
    get sandboxUrl() {
      return sandbox.url;
    },
    restartSandbox: restart,
    close() {
      closing ??= Promise.all([vite.close(), sandbox.close()]).then(() => undefined);
      return closing;
    },
  };
}
