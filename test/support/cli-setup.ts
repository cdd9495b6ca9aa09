/**
 * Global setup of the unit and browser tiers (vite.config.ts): bundles the CLIs the tests spawn
 * (cli-bundles.ts) from the current sources, once per run and project, into a folder of its own
 * under `.test-cli/` (git-ignored; two levels below the repository, as the add-in server expects of
 * its place), and removes it after the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import type { TestProject } from "vitest/node";
import { cliBundleBuild } from "../../tooling/server/build.js";
import { CLI_SOURCES } from "./cli-bundles.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export default async function setup(project: TestProject): Promise<() => void> {
  mkdirSync(join(ROOT, ".test-cli"), { recursive: true });
  const folder = mkdtempSync(join(ROOT, ".test-cli", "run-"));
  await build(cliBundleBuild(folder, CLI_SOURCES));
  project.provide("cliBundles", folder);
  return () => rmSync(folder, { recursive: true, force: true });
}
