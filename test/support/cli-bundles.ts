/**
 * The command-line programs the tests spawn (the sandbox's `npm run sandbox`, the add-in server's
 * `npm run serve`): how Node runs them. In the unit and browser tiers, their global setup
 * (cli-setup.ts) bundles both once per run from the current sources, and a spawn runs Node on that
 * plain JavaScript: about 0.35 CPU-s where `tsx` over the sources takes 0.7 (a test run spawns them
 * some seventy times), and the code as the bundler emits it, as `node dist/server/main.js` runs in
 * production (a bundler that drops a check shows here: see server-kit/http.ts). Elsewhere (the
 * bench, a run without the setup) they run as the npm scripts do: `tsx` over the sources. The npm
 * scripts themselves are spawned by one test each (sandbox/cli.test.ts, addin-server/cli.test.ts).
 */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

declare module "vitest" {
  interface ProvidedContext {
    /** The folder of this run's CLI bundles (cli-setup.ts). */
    cliBundles: string;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Each CLI by its bundle's name, and its source as the npm script runs it. */
export const CLI_SOURCES = {
  sandbox: "src/sandbox/cli.ts",
  "addin-server": "src/addin-server/cli.ts",
} as const;

export type CliName = keyof typeof CLI_SOURCES;

/** The arguments to Node that run the CLI (the program's own arguments follow them). */
export async function cliNodeArgs(name: CliName): Promise<string[]> {
  if (process.env.VITEST) {
    const { inject } = await import("vitest");
    const folder = inject("cliBundles");
    if (folder) return [join(folder, `${name}.js`)];
  }
  return ["--import", "tsx", join(ROOT, CLI_SOURCES[name])];
}

/**
 * Runs an npm script of the repository as a user does (`npm run --silent <script> -- <args>`),
 * through `tsx` over the sources, to its end: its exit status and output.
 */
export function runNpmScript(
  script: "sandbox" | "serve",
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile("npm", ["run", "--silent", script, "--", ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      const status = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
      done({ status: Number.isInteger(status) ? status : 1, stdout, stderr });
    });
  });
}
