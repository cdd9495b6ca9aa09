// `npm run deploy:sheets [-- --tenant <origin>]...`: checks .clasp.json, builds dist/sheets with the
// organisation's tenant, chat and data origins as appsscript.json's urlFetchWhitelist (required for
// a versioned deployment), then pushes with the local clasp. `vite build` takes no custom flags,
// so the origins reach the build as env SHEETS_TENANT_ORIGINS: the --tenant flags (repeatable, or
// comma-separated) are added to whatever that variable already holds. The build checks each one
// and stops, before anything is pushed, on one Google would refuse.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const USAGE =
  "usage: npm run deploy:sheets [-- --tenant https://acme.example.com [--tenant https://ai.example.com]...]";

/** What deploy:sheets runs, in order, and the environment of each step. */
export function deployPlan(argv, env) {
  const tenants = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--tenant") {
      const value = argv[++i];
      if (value === undefined) throw new Error(`--tenant needs an origin.\n${USAGE}`);
      tenants.push(value);
    } else if (arg.startsWith("--tenant=")) {
      tenants.push(arg.slice("--tenant=".length));
    } else {
      throw new Error(`Unknown argument "${arg}".\n${USAGE}`);
    }
  }
  const origins = [env.SHEETS_TENANT_ORIGINS ?? "", ...tenants]
    .flatMap((o) => o.split(","))
    .map((o) => o.trim())
    .filter(Boolean);
  return {
    env: { ...env, SHEETS_TENANT_ORIGINS: origins.join(",") },
    steps: [
      ["node", "tooling/sheets/check-clasp-project.mjs"],
      ["npm", "run", "build:sheets"],
      ["clasp", "push", "--force"],
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let plan;
  try {
    plan = deployPlan(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  if (!plan.env.SHEETS_TENANT_ORIGINS) {
    console.error(
      "No tenant origins given: the add-on is built without urlFetchWhitelist, which a test deployment accepts and a versioned deployment does not (docs/google-sheets.md).",
    );
  }
  for (const [command, ...args] of plan.steps) {
    // npm puts node_modules/.bin first on PATH for this script: clasp is the local one.
    const done = spawnSync(command, args, { stdio: "inherit", env: plan.env });
    if (done.status !== 0) process.exit(done.status ?? 1);
  }
}
