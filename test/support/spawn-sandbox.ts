/**
 * Starts the real sandbox CLI as a child process (the way a user runs it; its bundle in the test
 * tiers, cli-bundles.ts) and reads its URL line.
 * Tests talk to it over loopback HTTP only: no doors into the sandbox's code.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Seed, SeedInput } from "../../src/sandbox/seed.js";
import { cliNodeArgs } from "./cli-bundles.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface SpawnOptions {
  /** Delay between chat stream pieces (default 5 ms: tests should not wait for the demo pace). */
  chatDelayMs?: number;
  /** Extra CLI arguments. */
  args?: string[];
}

export interface SpawnedSandbox {
  url: string;
  stop(): Promise<void>;
}

async function cliArgs(args: string[]): Promise<string[]> {
  return [...(await cliNodeArgs("sandbox")), ...args];
}

/** Writes `seed` to a temporary file and returns its path and a clean-up. */
export function writeSeedFile(seed: Seed | SeedInput | unknown): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-seed-"));
  const file = join(dir, "seed.json");
  writeFileSync(file, typeof seed === "string" ? seed : JSON.stringify(seed, null, 2));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Spawns `src/sandbox/cli.ts --port 0` with the seed (an object written to a temporary file, or a
 * file path; the demo data when omitted) and resolves once it printed its URL.
 */
export async function spawnSandbox(
  seed?: Seed | SeedInput | string,
  options: SpawnOptions = {},
): Promise<SpawnedSandbox> {
  const temp = seed !== undefined && typeof seed !== "string" ? writeSeedFile(seed) : null;
  const seedFile = temp ? temp.file : (seed as string | undefined);
  const args = [
    "--port",
    "0",
    "--quiet",
    "--chat-delay-ms",
    String(options.chatDelayMs ?? 5),
    ...(seedFile ? ["--seed", seedFile] : []),
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, await cliArgs(args), {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  try {
    const url = await new Promise<string>((resolveUrl, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`sandbox did not start in 30 s: ${stderr}`)), 30_000);
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (d: string) => {
        out += d;
        const nl = out.indexOf("\n");
        if (nl >= 0) {
          clearTimeout(timer);
          resolveUrl(out.slice(0, nl).trim());
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`sandbox exited with status ${code}: ${stderr}`));
      });
    });
    return {
      url,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        await exited;
        temp?.remove();
      },
    };
  } catch (e) {
    kill(child);
    temp?.remove();
    throw e;
  }
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `args` until it exits, or until `until(stdout)` holds; then, when `signal` is
 * given, sends it and waits for the exit. For the CLI's own tests (exit status, output lines).
 */
export async function runSandboxCli(
  args: string[],
  opts: { until?: (stdout: string) => boolean; signal?: NodeJS.Signals; timeoutMs?: number } = {},
): Promise<CliRun> {
  const nodeArgs = await cliArgs(args);
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let signalled = false;
    const timer = setTimeout(() => {
      kill(child);
      reject(new Error(`sandbox CLI did not finish in time; stderr: ${stderr}`));
    }, opts.timeoutMs ?? 30_000);
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => {
      stdout += d;
      if (!signalled && opts.until?.(stdout)) {
        signalled = true;
        child.kill(opts.signal ?? "SIGTERM");
      }
    });
    child.stderr.on("data", (d: string) => {
      stderr += d;
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
  });
}
