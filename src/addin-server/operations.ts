/**
 * The CLI's settings for running the server in production, each a flag or an environment variable
 * (the flag wins): the public URL the manifests name, the shutdown grace period and the log format.
 * Kept apart from cli.ts's own parsing, which only collects the flags' values.
 */
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_SHUTDOWN_GRACE_MS } from "./lifecycle.js";
import { LOG_FORMATS, type LogFormat } from "./logging.js";
import { normalizeBaseUrl } from "./manifest-render.js";

export class OperationsError extends Error {}

export interface OperationalFlags {
  publicUrl?: string;
  shutdownGraceMs?: string;
  logFormat?: string;
}

export interface OperationalOptions {
  /** Normalised https base URL, or null (see startAddinServer's publicUrl). */
  publicUrl: string | null;
  shutdownGraceMs: number;
  logFormat: LogFormat;
}

export const OPERATIONS_USAGE = `  --public-url <https://host[/path]>
               the address users reach this server at: /manifest.xml and /manifest.json are rendered
               for it at start (also env ADDIN_BASE_URL); default: the server's own URL over HTTPS,
               else the built manifests as they are
  --shutdown-grace-ms <ms>
               on SIGTERM, how long requests in flight may take to finish (also env SHUTDOWN_GRACE_MS;
               default ${DEFAULT_SHUTDOWN_GRACE_MS})
  --log-format json|text
               the request log on stderr: one JSON object a line, or a readable line (also env
               LOG_FORMAT; default json)`;

function blankToUndefined(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

export function parseOperationalOptions(flags: OperationalFlags, env: NodeJS.ProcessEnv): OperationalOptions {
  const publicText = blankToUndefined(flags.publicUrl) ?? blankToUndefined(env.ADDIN_BASE_URL);
  let publicUrl: string | null = null;
  if (publicText !== undefined) {
    try {
      publicUrl = normalizeBaseUrl(publicText);
    } catch (error) {
      throw new OperationsError(`--public-url / ${(error as Error).message}`);
    }
  }
  const graceText = blankToUndefined(flags.shutdownGraceMs) ?? blankToUndefined(env.SHUTDOWN_GRACE_MS);
  if (graceText !== undefined && !/^\d{1,9}$/.test(graceText)) {
    throw new OperationsError(
      `--shutdown-grace-ms / SHUTDOWN_GRACE_MS must be a number of milliseconds (got "${graceText}").`,
    );
  }
  const formatText = blankToUndefined(flags.logFormat) ?? blankToUndefined(env.LOG_FORMAT) ?? "json";
  if (!(LOG_FORMATS as readonly string[]).includes(formatText)) {
    throw new OperationsError(`--log-format / LOG_FORMAT must be json or text (got "${formatText}").`);
  }
  return {
    publicUrl,
    shutdownGraceMs: graceText === undefined ? DEFAULT_SHUTDOWN_GRACE_MS : Number(graceText),
    logFormat: formatText as LogFormat,
  };
}

/**
 * The built pane's default folder: dist/excel beside dist/server/ when running as the production
 * bundle (dist/server/main.js), else the repository's dist/excel (src/addin-server/cli.ts).
 */
export function defaultDistDir(moduleUrl: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  const bundled = basename(here) === "server" && basename(dirname(here)) === "dist";
  return bundled ? resolve(here, "../excel") : resolve(here, "../../dist/excel");
}
