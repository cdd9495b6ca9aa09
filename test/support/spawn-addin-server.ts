/**
 * Starts `npm run serve` the way an admin does (src/addin-server/cli.ts; its bundle in the test
 * tiers, cli-bundles.ts), reads its one URL line, and stops it. Tests talk to it over real sockets
 * only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliNodeArgs } from "./cli-bundles.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface SpawnedAddinServer {
  url: string;
  /** Everything printed on stdout so far (the contract: one line). */
  stdout(): string;
  stderr(): string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs the CLI to its end (for arguments it refuses): status and output. */
export async function runAddinServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const nodeArgs = [...(await cliNodeArgs("addin-server")), ...args];
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, nodeArgs, {
      cwd: ROOT,
      env: { ...process.env, PORT: "", TENANT_ORIGINS: "", DATA_ORIGINS: "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (status) => resolvePromise({ status, stdout, stderr }));
  });
}

export async function spawnAddinServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<SpawnedAddinServer> {
  const child = spawn(process.execPath, [...(await cliNodeArgs("addin-server")), ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: "", TENANT_ORIGINS: "", DATA_ORIGINS: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => (stderr += c));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the add-in server did not start: ${stderr}`)), 60_000);
    child.stdout.on("data", (c: string) => {
      stdout += c;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && line) {
        clearTimeout(timer);
        resolveUrl(line);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the add-in server exited with status ${code}: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop(signal = "SIGTERM") {
      if (child.exitCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((r) => {
        child.once("exit", (code) => r(code));
        child.kill(signal);
      });
    },
  };
}
