/**
 * `npm run serve -- [--port <n>] [--host <addr>] [--tenant <origin>]... [--data-origin <origin>]...
 * [--cert <file> --key <file> |
 * --dev-certs] [--dist <dir>] [--quiet] [--public-url <url>] [--shutdown-grace-ms <ms>]
 * [--log-format json|text]`: the add-in server an admin deploys for Excel. Built for production as
 * dist/server/main.js (tooling/server/build.ts), which takes the same flags.
 *
 * Prints exactly one line on stdout when ready: its base URL. Everything else (one line per
 * request, never a header value or body) goes to stderr. Bad arguments exit with status 2, a port in
 * use or a missing build with status 1; SIGINT/SIGTERM stop it cleanly (status 0), after letting the
 * requests in flight finish within the grace period (lifecycle.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type FlagKind, fail, readFlags, stopOnSignals } from "../server-kit/cli.js";
import { formatRequestLog } from "./logging.js";
import {
  defaultDistDir,
  OPERATIONS_USAGE,
  type OperationalFlags,
  type OperationalOptions,
  OperationsError,
  parseOperationalOptions,
} from "./operations.js";
import { DEFAULT_RELAY_MAX_IN_FLIGHT, DEFAULT_RELAY_TIMEOUT_MS } from "./relay.js";
import { FrameAncestorsError, parseFrameAncestors } from "./security-headers.js";
import { startAddinServer } from "./server.js";
import { DATA_ORIGIN, parseTenantList, type TenantList, TenantListError, tenantEntries } from "./tenants.js";

const USAGE = `usage: npm run serve -- [--port <n>] [--host <addr>] [--tenant <origin>]...
                        [--data-origin <origin>]...
                        [--cert <file> --key <file> | --dev-certs] [--dist <dir>] [--quiet]
                        [--relay-timeout <seconds>] [--relay-max-in-flight <n>]
                        [--public-url <url>] [--shutdown-grace-ms <ms>] [--log-format json|text]
       (production: node dist/server/main.js, same flags)
  --port       0 takes a free port (default: env PORT, else 3000)
  --host       the address to listen on (default 127.0.0.1: this machine only)
  --tenant     a tenant origin the relay may reach, repeatable (also env TENANT_ORIGINS, comma-separated);
               https only, http for a loopback address listed explicitly
  --data-origin  a deployment's data origin (its deploymentUrl's) the relay may reach, for its data
               API's load call only; repeatable (also env DATA_ORIGINS, comma-separated); as --tenant
  --cert/--key PEM files: serve HTTPS
  --dev-certs  serve HTTPS with office-addin-dev-certs' localhost certificate (made when missing)
  --dist       the built pane (default dist/excel, from npm run build)
  --frame-ancestors <sources>
               who may frame the pages, space- or comma-separated ('self', https://host, https://*.host;
               also env FRAME_ANCESTORS); default: Microsoft 365, Teams and the sovereign clouds
  --relay-timeout        seconds the relay waits for a tenant that sends nothing (default env
                         RELAY_TIMEOUT_SECONDS, else ${DEFAULT_RELAY_TIMEOUT_MS / 1000})
  --relay-max-in-flight  relayed requests held at once, past it 503 (default env RELAY_MAX_IN_FLIGHT,
                         else ${DEFAULT_RELAY_MAX_IN_FLIGHT})
${OPERATIONS_USAGE}`;

interface Args {
  port: number;
  host: string;
  tenants: TenantList;
  dataOrigins: TenantList;
  cert: string | null;
  key: string | null;
  devCerts: boolean;
  dist: string;
  quiet: boolean;
  /** Null: the default list. */
  frameAncestors: string[] | null;
  relayTimeoutMs: number;
  relayMaxInFlight: number;
  operations: OperationalOptions;
}

/** Every flag, and whether it takes a value (server-kit/cli.ts reads them with parseArgs). */
const FLAGS = {
  port: "value",
  host: "value",
  tenant: "value",
  "data-origin": "value",
  cert: "value",
  key: "value",
  "dev-certs": "switch",
  dist: "value",
  quiet: "switch",
  "frame-ancestors": "value",
  "relay-timeout": "value",
  "relay-max-in-flight": "value",
  "public-url": "value",
  "shutdown-grace-ms": "value",
  "log-format": "value",
  help: "switch",
} as const satisfies Record<string, FlagKind>;

function portNumber(text: string, name: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    fail(`${name} must be a port from 0 to 65535 (got "${text}").\n${USAGE}`);
  return Number(text);
}

/** A whole number from 1 to `max` (a flag's or an environment variable's value). */
function positiveNumber(text: string, name: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max)
    fail(`${name} must be a whole number from 1 to ${max} (got "${text}").\n${USAGE}`);
  return Number(text);
}

function readArgs(argv: string[], env: NodeJS.ProcessEnv): Args {
  const tenantFlags: string[] = [];
  const dataOriginFlags: string[] = [];
  const frameFlags: string[] = [];
  const operationFlags: OperationalFlags = {};
  const args: Omit<Args, "tenants" | "dataOrigins" | "frameAncestors" | "operations"> = {
    port: env.PORT ? portNumber(env.PORT, "PORT") : 3000,
    host: "127.0.0.1",
    cert: null,
    key: null,
    devCerts: false,
    dist: defaultDistDir(import.meta.url),
    quiet: false,
    relayTimeoutMs: env.RELAY_TIMEOUT_SECONDS
      ? positiveNumber(env.RELAY_TIMEOUT_SECONDS, "RELAY_TIMEOUT_SECONDS", 3600) * 1000
      : DEFAULT_RELAY_TIMEOUT_MS,
    relayMaxInFlight: env.RELAY_MAX_IN_FLIGHT
      ? positiveNumber(env.RELAY_MAX_IN_FLIGHT, "RELAY_MAX_IN_FLIGHT", 100_000)
      : DEFAULT_RELAY_MAX_IN_FLIGHT,
  };
  // In the order given; the first bad one stops it. A switch has no value ("").
  for (const { flag, value = "" } of readFlags(argv, FLAGS, USAGE)) {
    switch (flag) {
      case "--port":
        args.port = portNumber(value, "--port");
        break;
      case "--host":
        args.host = value;
        break;
      case "--tenant":
        tenantFlags.push(value);
        break;
      case "--data-origin":
        dataOriginFlags.push(value);
        break;
      case "--cert":
        args.cert = value;
        break;
      case "--key":
        args.key = value;
        break;
      case "--dev-certs":
        args.devCerts = true;
        break;
      case "--dist":
        args.dist = resolve(value);
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--frame-ancestors":
        frameFlags.push(value);
        break;
      case "--relay-timeout":
        args.relayTimeoutMs = positiveNumber(value, "--relay-timeout", 3600) * 1000;
        break;
      case "--relay-max-in-flight":
        args.relayMaxInFlight = positiveNumber(value, "--relay-max-in-flight", 100_000);
        break;
      case "--public-url":
        operationFlags.publicUrl = value;
        break;
      case "--shutdown-grace-ms":
        operationFlags.shutdownGraceMs = value;
        break;
      case "--log-format":
        operationFlags.logFormat = value;
        break;
      case "--help":
      case "-h":
        process.stderr.write(`${USAGE}\n`);
        process.exit(0);
        break;
    }
  }
  if ((args.cert === null) !== (args.key === null)) fail(`--cert and --key go together.\n${USAGE}`);
  if (args.cert && args.devCerts) fail(`Use either --cert/--key or --dev-certs.\n${USAGE}`);
  const frameText = [...frameFlags, env.FRAME_ANCESTORS ?? ""].join(" ").trim();
  try {
    return {
      ...args,
      tenants: parseTenantList(tenantEntries(tenantFlags, env.TENANT_ORIGINS)),
      dataOrigins: parseTenantList(tenantEntries(dataOriginFlags, env.DATA_ORIGINS), DATA_ORIGIN),
      frameAncestors: frameText ? parseFrameAncestors(frameText) : null,
      operations: parseOperationalOptions(operationFlags, env),
    };
  } catch (error) {
    if (
      error instanceof TenantListError ||
      error instanceof FrameAncestorsError ||
      error instanceof OperationsError
    )
      fail(error.message);
    throw error;
  }
}

async function main(): Promise<void> {
  const args = readArgs(process.argv.slice(2), process.env);
  if (!existsSync(join(args.dist, "taskpane.html"))) {
    fail(`${join(args.dist, "taskpane.html")} is missing: run \`npm run build\` first.`, 1);
  }
  let tls: { cert: string; key: string } | undefined;
  if (args.cert && args.key) {
    try {
      tls = { cert: readFileSync(args.cert, "utf8"), key: readFileSync(args.key, "utf8") };
    } catch (error) {
      fail(`Cannot read the certificate or key: ${(error as Error).message}`, 1);
    }
  } else if (args.devCerts) {
    // Loaded only when asked for: office-addin-dev-certs is a development tool, absent in production.
    const { devCertificate } = await import("./dev-certs.js").catch((error: unknown) =>
      fail(
        `--dev-certs needs the development dependencies (office-addin-dev-certs): ${(error as Error).message}. In production pass --cert and --key.`,
        1,
      ),
    );
    const dev = await devCertificate();
    tls = { cert: dev.cert, key: dev.key };
    if (dev.generated) {
      process.stderr.write(
        `Made a localhost certificate signed by ${dev.caFile}. Trust it once: npx office-addin-dev-certs install\n`,
      );
    }
  }
  const { logFormat, publicUrl, shutdownGraceMs } = args.operations;
  // In the JSON format every line on stderr is one JSON object, this server's messages included.
  const log = (line: string) =>
    process.stderr.write(
      `${logFormat === "json" ? JSON.stringify({ time: new Date().toISOString(), message: line }) : line}\n`,
    );
  let server: Awaited<ReturnType<typeof startAddinServer>>;
  try {
    server = await startAddinServer({
      distDir: args.dist,
      tenants: args.tenants,
      dataOrigins: args.dataOrigins,
      port: args.port,
      host: args.host,
      ...(args.frameAncestors ? { frameAncestors: args.frameAncestors } : {}),
      relayTimeoutMs: args.relayTimeoutMs,
      relayMaxInFlight: args.relayMaxInFlight,
      ...(tls ? { tls } : {}),
      // The relay's own lines name the relayed path: the text format only, for development.
      ...(args.quiet || logFormat === "json" ? {} : { log }),
      ...(args.quiet
        ? {}
        : { requestLog: (entry) => process.stderr.write(`${formatRequestLog(entry, logFormat)}\n`) }),
      ...(publicUrl ? { publicUrl } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    fail(
      code === "EADDRINUSE"
        ? `Port ${args.port} is in use: stop what runs there or pass --port.`
        : `Cannot start the add-in server: ${(error as Error).message}`,
      1,
    );
  }
  // Ctrl-C again does not wait for the requests in flight.
  stopOnSignals(async () => {
    if (!args.quiet) log(`Stopping: letting requests in flight finish (up to ${shutdownGraceMs} ms).`);
    const { cutOff } = await server.drain(shutdownGraceMs);
    if (cutOff > 0 && !args.quiet) log(`Closed ${cutOff} request(s) still running after the grace period.`);
  }, "exit");
  process.stdout.write(`${server.url}\n`);
  if (!args.quiet) {
    log(
      args.tenants.origins.length
        ? `Relaying to: ${args.tenants.origins.join(", ")}`
        : "Relaying to no tenant (list them with --tenant or TENANT_ORIGINS).",
    );
    if (args.dataOrigins.origins.length)
      log(`Relaying data API loads to: ${args.dataOrigins.origins.join(", ")}`);
    const named = publicUrl ?? (server.url.startsWith("https:") ? server.url : "those of the build");
    log(`Manifest: ${server.url}/manifest.xml (its URLs: ${named}). Ctrl-C stops.`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
