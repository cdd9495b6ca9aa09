/**
 * `npm run sandbox -- [--port <n>] [--data-port <n>] [--seed <file.json>] [--chat-delay-ms <n>] [--data-delay-ms <n>] [--quiet] [--no-cors]`
 *
 * `--data-port` serves the data API on a second port, an origin of its own (0: a free one), as the
 * real platform does: each deployment's `deploymentUrl` names it, the first port no longer answers
 * `/data/…`, and the second answers nothing else. `--no-cors` applies to both.
 *
 * `--data-delay-ms` makes every data-API query run that long ("Continue wait" meanwhile).
 *
 * `--no-cors` answers like a tenant that allows no browser calls: no `Access-Control-*` header and
 * no preflight approved (the Excel pane then needs the add-in server's relay).
 *
 * Prints exactly one line on stdout when ready: the base URL (`http://127.0.0.1:<port>`). Everything
 * else goes to stderr. Exit status 2 for bad arguments or a bad seed file (the message names the
 * bad field); Ctrl-C or SIGTERM stops it cleanly (status 0).
 */
import { readFileSync } from "node:fs";
import { type FlagKind, fail, readFlags, stopOnSignals } from "../server-kit/cli.js";
import {
  DEMO_AGENT_KEY,
  DEMO_AGENTS,
  DEMO_API_KEY,
  DEMO_EUROPE_KEY,
  DEMO_SCIM_TOKEN,
  DEMO_SCOPED_KEY,
  demoSeed,
} from "./demo.js";
import { DEMO_WORKBOOK } from "./demo-workbook.js";
import { parseSeed, type Seed, SeedError } from "./seed.js";
import { DEFAULT_CHAT_DELAY_MS, startSandbox } from "./server.js";

const USAGE =
  "usage: npm run sandbox -- [--port <n>] [--data-port <n>] [--seed <file.json>] [--chat-delay-ms <n>] [--data-delay-ms <n>] [--quiet] [--no-cors]\n" +
  "  --port 0 (the default) takes a free port; without --seed the built-in demo data is served;\n" +
  "  --data-port: the data API on this port instead, its own origin (0: a free one), named by deploymentUrl;\n" +
  '  --data-delay-ms: every data-API query runs that long, 0 to 600000 (answers "Continue wait" meanwhile);\n' +
  "  --no-cors: no Access-Control-* headers, no preflight approved (a tenant that allows no browser calls).";

interface Args {
  port: number;
  /** null: the data API at the tenant's own origin. */
  dataPort: number | null;
  seedFile: string | null;
  chatDelayMs: number;
  dataDelayMs: number;
  quiet: boolean;
  cors: boolean;
}

/** Every flag, and whether it takes a value (server-kit/cli.ts reads them with parseArgs). */
const FLAGS = {
  port: "value",
  "data-port": "value",
  seed: "value",
  "chat-delay-ms": "value",
  "data-delay-ms": "value",
  quiet: "switch",
  "no-cors": "switch",
  help: "switch",
} as const satisfies Record<string, FlagKind>;

function readArgs(argv: string[]): Args {
  const args: Args = {
    port: 0,
    dataPort: null,
    seedFile: null,
    chatDelayMs: DEFAULT_CHAT_DELAY_MS,
    dataDelayMs: 0,
    quiet: false,
    cors: true,
  };
  // In the order given; the first bad one stops it. A switch has no value ("").
  for (const { flag: name, value = "" } of readFlags(argv, FLAGS, USAGE)) {
    const count = (text: string, max: number) => {
      if (!/^\d+$/.test(text) || Number(text) > max)
        fail(`${name} must be a whole number from 0 to ${max} (got "${text}").\n${USAGE}`);
      return Number(text);
    };
    switch (name) {
      case "--port":
        args.port = count(value, 65535);
        break;
      case "--data-port":
        args.dataPort = count(value, 65535);
        break;
      case "--seed":
        args.seedFile = value;
        break;
      case "--chat-delay-ms":
        args.chatDelayMs = count(value, 60_000);
        break;
      case "--data-delay-ms":
        args.dataDelayMs = count(value, 600_000);
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--no-cors":
        args.cors = false;
        break;
      case "--help":
      case "-h":
        process.stderr.write(`${USAGE}\n`);
        process.exit(0);
        break;
    }
  }
  return args;
}

function loadSeed(file: string): Seed {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    fail(`Cannot read the seed file ${file}: ${(e as Error).message}`);
  }
  try {
    return parseSeed(text);
  } catch (e) {
    if (e instanceof SeedError) fail(`${file}: ${e.message}`);
    throw e;
  }
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2));
  const seed = args.seedFile ? loadSeed(args.seedFile) : demoSeed(new Date());
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port: args.port,
      ...(args.dataPort !== null ? { dataPort: args.dataPort } : {}),
      host: "127.0.0.1",
      seed,
      chatDelayMs: args.chatDelayMs,
      dataDelayMs: args.dataDelayMs,
      cors: args.cors,
      ...(args.quiet ? {} : { log }),
    });
  } catch (e) {
    const ports = args.dataPort !== null ? `ports ${args.port} and ${args.dataPort}` : `port ${args.port}`;
    process.stderr.write(`Cannot start the sandbox on ${ports}: ${(e as Error).message}\n`);
    process.exit(1);
  }
  // Handlers first: a caller may stop us as soon as it reads the URL line.
  stopOnSignals(() => sandbox.close(), "ignore");
  process.stdout.write(`${sandbox.url}\n`);
  if (!args.quiet) {
    log(
      `Reporting Platform sandbox: ${seed.deployments.length} deployments, ${seed.reports.length} reports, ${seed.cubes.length} cubes` +
        (args.seedFile ? ` from ${args.seedFile}` : " (built-in demo data)"),
    );
    if (!args.seedFile) {
      log(`  demo workbook: "${DEMO_WORKBOOK.name}" (externalWorkbookId ${DEMO_WORKBOOK.id})`);
      log(`  API key (all deployments): ${DEMO_API_KEY}`);
      log(`  API key (deployment 1 only): ${DEMO_SCOPED_KEY}`);
      log(`  API key (deployment 1, row-level security region = Europe): ${DEMO_EUROPE_KEY}`);
      log(
        `  data API: ${sandbox.dataUrl}/data/<deploymentId> (POST /api/v1/deployments/<id>/token for a token)`,
      );
      log(`  SCIM token: ${DEMO_SCIM_TOKEN}`);
      log(`  agent API key (both agents): ${DEMO_AGENT_KEY}`);
      for (const a of DEMO_AGENTS) {
        log(`  agent ${a.id}: ${sandbox.url}/api/v1/public/sandbox/agents/${a.id}/chat/stream-chat-state`);
      }
    }
    if (args.dataPort !== null) log(`  data API on its own origin: ${sandbox.dataUrl}`);
    if (args.dataDelayMs > 0)
      log(`  every data-API query runs ${args.dataDelayMs} ms ("Continue wait" meanwhile)`);
    log("Ctrl-C stops it.");
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
