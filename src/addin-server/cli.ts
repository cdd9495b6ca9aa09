/**
 * `npm run serve -- [--port <n>] [--host <addr>] [--tenant <origin>]... [--cert <file> --key <file> |
 * --dev-certs] [--dist <dir>] [--quiet]`: the add-in server an admin deploys for Excel.
 *
 * Prints exactly one line on stdout when ready: its base URL. Everything else (one line per
 * request, never a header value or body) goes to stderr. Bad arguments exit with status 2, a port in
 * use or a missing build with status 1; SIGINT/SIGTERM stop it cleanly (status 0).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { devCertificate } from "./dev-certs.js";
import { DEFAULT_RELAY_MAX_IN_FLIGHT, DEFAULT_RELAY_TIMEOUT_MS } from "./relay.js";
import { FrameAncestorsError, parseFrameAncestors } from "./security-headers.js";
import { startAddinServer } from "./server.js";
import { parseTenantList, type TenantList, TenantListError, tenantEntries } from "./tenants.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

const USAGE = `usage: npm run serve -- [--port <n>] [--host <addr>] [--tenant <origin>]...
                        [--cert <file> --key <file> | --dev-certs] [--dist <dir>] [--quiet]
                        [--relay-timeout <seconds>] [--relay-max-in-flight <n>]
  --port       0 takes a free port (default: env PORT, else 3000)
  --host       the address to listen on (default 127.0.0.1: this machine only)
  --tenant     a tenant origin the relay may reach, repeatable (also env TENANT_ORIGINS, comma-separated);
               https only, http for a loopback address listed explicitly
  --cert/--key PEM files: serve HTTPS
  --dev-certs  serve HTTPS with office-addin-dev-certs' localhost certificate (made when missing)
  --dist       the built pane (default dist/excel, from npm run build)
  --frame-ancestors <sources>
               who may frame the pages, space- or comma-separated ('self', https://host, https://*.host;
               also env FRAME_ANCESTORS); default: Microsoft 365, Teams and the sovereign clouds
  --relay-timeout        seconds the relay waits for a tenant that sends nothing (default env
                         RELAY_TIMEOUT_SECONDS, else ${DEFAULT_RELAY_TIMEOUT_MS / 1000})
  --relay-max-in-flight  relayed requests held at once, past it 503 (default env RELAY_MAX_IN_FLIGHT,
                         else ${DEFAULT_RELAY_MAX_IN_FLIGHT})`;

interface Args {
  port: number;
  host: string;
  tenants: TenantList;
  cert: string | null;
  key: string | null;
  devCerts: boolean;
  dist: string;
  quiet: boolean;
  /** Null: the default list. */
  frameAncestors: string[] | null;
  relayTimeoutMs: number;
  relayMaxInFlight: number;
}

function fail(message: string, status = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}

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
  const frameFlags: string[] = [];
  const args: Omit<Args, "tenants" | "frameAncestors"> = {
    port: env.PORT ? portNumber(env.PORT, "PORT") : 3000,
    host: "127.0.0.1",
    cert: null,
    key: null,
    devCerts: false,
    dist: join(ROOT, "dist/excel"),
    quiet: false,
    relayTimeoutMs: env.RELAY_TIMEOUT_SECONDS
      ? positiveNumber(env.RELAY_TIMEOUT_SECONDS, "RELAY_TIMEOUT_SECONDS", 3600) * 1000
      : DEFAULT_RELAY_TIMEOUT_MS,
    relayMaxInFlight: env.RELAY_MAX_IN_FLIGHT
      ? positiveNumber(env.RELAY_MAX_IN_FLIGHT, "RELAY_MAX_IN_FLIGHT", 100_000)
      : DEFAULT_RELAY_MAX_IN_FLIGHT,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const [name, inline] =
      arg.startsWith("--") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`${name} needs a value.\n${USAGE}`);
      return v;
    };
    switch (name) {
      case "--port":
        args.port = portNumber(value(), "--port");
        break;
      case "--host":
        args.host = value();
        break;
      case "--tenant":
        tenantFlags.push(value());
        break;
      case "--cert":
        args.cert = value();
        break;
      case "--key":
        args.key = value();
        break;
      case "--dev-certs":
        args.devCerts = true;
        break;
      case "--dist":
        args.dist = resolve(value());
        break;
      case "--quiet":
        args.quiet = true;
        break;
      case "--frame-ancestors":
        frameFlags.push(value());
        break;
      case "--relay-timeout":
        args.relayTimeoutMs = positiveNumber(value(), "--relay-timeout", 3600) * 1000;
        break;
      case "--relay-max-in-flight":
        args.relayMaxInFlight = positiveNumber(value(), "--relay-max-in-flight", 100_000);
        break;
      case "--help":
      case "-h":
        process.stderr.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        fail(`Unknown argument "${arg}".\n${USAGE}`);
    }
  }
  if ((args.cert === null) !== (args.key === null)) fail(`--cert and --key go together.\n${USAGE}`);
  if (args.cert && args.devCerts) fail(`Use either --cert/--key or --dev-certs.\n${USAGE}`);
  const frameText = [...frameFlags, env.FRAME_ANCESTORS ?? ""].join(" ").trim();
  try {
    return {
      ...args,
      tenants: parseTenantList(tenantEntries(tenantFlags, env.TENANT_ORIGINS)),
      frameAncestors: frameText ? parseFrameAncestors(frameText) : null,
    };
  } catch (error) {
    if (error instanceof TenantListError || error instanceof FrameAncestorsError) fail(error.message);
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
    const dev = await devCertificate();
    tls = { cert: dev.cert, key: dev.key };
    if (dev.generated) {
      process.stderr.write(
        `Made a localhost certificate signed by ${dev.caFile}. Trust it once: npx office-addin-dev-certs install\n`,
      );
    }
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  let server: Awaited<ReturnType<typeof startAddinServer>>;
  try {
    server = await startAddinServer({
      distDir: args.dist,
      tenants: args.tenants,
      port: args.port,
      host: args.host,
      ...(args.frameAncestors ? { frameAncestors: args.frameAncestors } : {}),
      relayTimeoutMs: args.relayTimeoutMs,
      relayMaxInFlight: args.relayMaxInFlight,
      ...(tls ? { tls } : {}),
      ...(args.quiet ? {} : { log }),
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
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  process.stdout.write(`${server.url}\n`);
  if (!args.quiet) {
    log(
      args.tenants.origins.length
        ? `Relaying to: ${args.tenants.origins.join(", ")}`
        : "Relaying to no tenant (list them with --tenant or TENANT_ORIGINS).",
    );
    log(`Manifest: ${server.url}/manifest.xml (its URLs are those of the build). Ctrl-C stops.`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
