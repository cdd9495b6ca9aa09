/**
 * `npm run start:excel [-- --port <n>] [-- --no-build]`: builds dist/excel for
 * https://localhost:<port>, then runs, in one process, the local Reporting Platform as a tenant
 * that accepts no browser calls (the sandbox with CORS off, like a real tenant may be) and the
 * add-in server over HTTPS beside it, listing that tenant, with office-addin-dev-certs' localhost
 * certificate. Prints how to trust the certificate and sideload the manifest. Ctrl-C stops both.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isCaCertificateInstalled } from "office-addin-dev-certs";
import { devCertificate } from "../src/addin-server/dev-certs.js";
import { startAddinServer } from "../src/addin-server/server.js";
import { parseTenantList } from "../src/addin-server/tenants.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY, DEMO_SCIM_TOKEN, demoSeed } from "../src/sandbox/demo.js";
import { startSandbox } from "../src/sandbox/server.js";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
const DIST = join(ROOT, "dist/excel");

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const argv = process.argv.slice(2);
const portAt = argv.indexOf("--port");
const portText = portAt >= 0 ? argv[portAt + 1] : (process.env.PORT ?? "3000");
if (!portText || !/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
  fail(`--port must be a port from 1 to 65535 (the manifest names it), not "${portText}".`);
}
const port = Number(portText);
const baseUrl = `https://localhost:${port}`;

if (!argv.includes("--no-build")) {
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  const built = spawnSync(process.execPath, [vite, "build", "--mode", "excel"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ADDIN_BASE_URL: baseUrl },
  });
  if (built.status !== 0) fail("vite build --mode excel failed (see above).");
}
if (!existsSync(join(DIST, "taskpane.html"))) fail("dist/excel is missing: run without --no-build.");

const certificate = await devCertificate();
let trusted = false;
try {
  trusted = isCaCertificateInstalled();
} catch {
  // The check runs a platform script; when it cannot, the instructions below still apply.
}

const sandbox = await startSandbox({ seed: demoSeed(new Date()), port: 0, cors: false });
let server: Awaited<ReturnType<typeof startAddinServer>>;
try {
  server = await startAddinServer({
    distDir: DIST,
    port,
    tenants: parseTenantList([sandbox.url]),
    tls: certificate,
    log: (line) => console.error(line),
  });
} catch (error) {
  await sandbox.close();
  fail(
    (error as NodeJS.ErrnoException).code === "EADDRINUSE"
      ? `Port ${port} is in use: stop what runs there or pass --port.`
      : String(error),
  );
}

const manifest = relative(process.cwd(), join(DIST, "manifest.xml")) || "dist/excel/manifest.xml";
console.log(`
Reporting Platform add-in for Excel: ${server.url}/taskpane.html (add-in server, HTTPS)
Local Reporting Platform: ${sandbox.url} (demo data; it accepts no browser calls, so the pane uses the relay)
  In the pane's Settings: tenant URL ${sandbox.url}, API key ${DEMO_API_KEY}, deployment Production,
  agent chat URL ${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state,
  agent API key ${DEMO_AGENT_KEY}, SCIM token ${DEMO_SCIM_TOKEN}.
${
  trusted
    ? ""
    : `
Trust the development certificate once (office-addin-dev-certs, in ~/.office-addin-dev-certs):
  npx office-addin-dev-certs install
`
}
Sideload ${manifest} (see docs/excel.md):
  Excel on the web  Home > Add-ins > More Add-ins > MY ADD-INS > Upload My Add-in > ${manifest}
  Excel on Windows  a shared folder listed under Trust Center > Trusted Add-in Catalogs
  Excel on Mac      copy it to ~/Library/Containers/com.microsoft.Excel/Data/Documents/wef/
Then Home > Reports opens the pane; right-click a cell > Disconnect report here. Ctrl-C stops.
`);

let stopping = false;
async function stop() {
  if (stopping) process.exit(1);
  stopping = true;
  await Promise.all([server.close(), sandbox.close()]);
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
