/**
 * `npm run serve` as an admin runs it: one URL line on stdout, the built pane with its security
 * headers, the tenant list from flags and TENANT_ORIGINS, HTTPS with a certificate, a malformed
 * address answered 400 without a crash, clean stops and clear refusals of bad arguments.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devCertificate } from "../../src/addin-server/dev-certs.js";
import { OFFICE_FRAME_ANCESTORS } from "../../src/addin-server/security-headers.js";
import { runNpmScript } from "../support/cli-bundles.js";
import { runAddinServer, type SpawnedAddinServer, spawnAddinServer } from "../support/spawn-addin-server.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
let server: SpawnedAddinServer;

beforeAll(async () => {
  sandbox = await spawnSandbox(undefined, { args: ["--no-cors"] });
  server = await spawnAddinServer(
    ["--port", "0", "--tenant", sandbox.url, "--data-origin", "https://data-a.example.com"],
    {
      TENANT_ORIGINS: "https://tenant-a.example.com, https://tenant-b.example.com:8443",
      DATA_ORIGINS: "https://data-b.example.com:8443",
    },
  );
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.stop();
});

/** A port nothing listens on right now (the OS picks it). */
async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

/** Raw GET with the path exactly as given (fetch would normalise it). */
async function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  const { request: httpRequest } = await import("node:http");
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: "GET" }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("npm run serve", () => {
  it("is what npm run serve runs, from the sources (the other tests run its bundle)", async () => {
    const run = await runNpmScript("serve", ["--help"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^usage: npm run serve -- \[--port <n>\]/);
  });

  it("prints exactly one line on stdout, its base URL on 127.0.0.1, and listens there only", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stdout()).toBe(`${server.url}\n`);
    const port = Number(new URL(server.url).port);
    await expect(fetch(`http://[::1]:${port}/taskpane.html`)).rejects.toThrow();
  });

  it("serves the built pane, its manifest and icons, with the security headers on every answer", async () => {
    const page = await fetch(`${server.url}/taskpane.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("https://appsforoffice.microsoft.com/lib/1/hosted/office.js");
    const manifest = await fetch(`${server.url}/manifest.xml`);
    expect(manifest.headers.get("content-type")).toMatch(/^application\/xml/);
    const icon = await fetch(`${server.url}/assets/icon-80.png`);
    expect(icon.headers.get("content-type")).toBe("image/png");
    for (const answer of [page, manifest, icon, await fetch(`${server.url}/nowhere.html`)]) {
      const csp = answer.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self' https://appsforoffice.microsoft.com");
      expect(csp).toContain(`frame-ancestors ${OFFICE_FRAME_ANCESTORS.join(" ")}`);
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("referrer-policy")).toBe("no-referrer");
      // HSTS only means something over HTTPS.
      expect(answer.headers.get("strict-transport-security")).toBeNull();
    }
  });

  it("tells the pane which tenants and data origins it relays to, from --tenant, TENANT_ORIGINS, --data-origin and DATA_ORIGINS", async () => {
    const config = await (await fetch(`${server.url}/config.json`)).json();
    expect(config).toEqual({
      relay: {
        tenants: [sandbox.url, "https://tenant-a.example.com", "https://tenant-b.example.com:8443"],
        dataOrigins: ["https://data-a.example.com", "https://data-b.example.com:8443"],
      },
    });
  });

  it("answers a malformed address with 400 and keeps serving; nothing outside dist/excel is served", async () => {
    expect((await rawGet(server.url, "/%E0%A4%A")).status).toBe(400);
    expect((await rawGet(server.url, "/relay/%E0%A4%A/x")).status).toBe(400);
    expect((await rawGet(server.url, "/../package.json")).status).toBe(404);
    const root = await fetch(`${server.url}/`, { redirect: "manual" });
    expect([root.status, root.headers.get("location")]).toEqual([302, "taskpane.html"]);
    expect((await rawGet(server.url, "/%2e%2e/%2e%2e/package.json")).status).toBe(404);
    expect((await fetch(`${server.url}/taskpane.html`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  });

  it("relays to a listed tenant that accepts no browser calls", async () => {
    const host = new URL(sandbox.url).host;
    const answer = await fetch(`${server.url}/relay/${host}/api/v1/deployments`, {
      headers: { Authorization: "Bearer sk-demo-all-7f3a9c2e" },
    });
    expect(answer.status).toBe(200);
    expect((await answer.json()).items).toHaveLength(2);
    // The request log names the path, never the key.
    expect(server.stderr()).not.toContain("sk-demo-all-7f3a9c2e");
  });

  it("npm run -s serve prints the same one line and can be scripted", async () => {
    const { spawn } = await import("node:child_process");
    const child = spawn(
      "npm",
      ["run", "-s", "serve", "--", "--port", "0", "--quiet", "--tenant", sandbox.url],
      {
        cwd: resolve(import.meta.dirname, "../.."),
        stdio: ["ignore", "pipe", "ignore"],
        detached: true,
      },
    );
    let stdout = "";
    child.stdout.setEncoding("utf8");
    await new Promise<void>((done) =>
      child.stdout.on("data", (c: string) => {
        stdout += c;
        if (stdout.includes("\n")) done();
      }),
    );
    const url = stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}/config.json`)).status).toBe(200);
    // npm runs the server in a child of its own: stop the group it leads.
    const exited = new Promise((done) => child.once("exit", done));
    process.kill(-child.pid!, "SIGTERM");
    await exited;
    expect(stdout).toBe(`${url}\n`);
  });

  it("takes its port from PORT when --port is not given, and refuses a PORT that is not a port", async () => {
    const port = await freePort();
    const fromEnv = await spawnAddinServer(["--quiet"], { PORT: String(port) });
    try {
      expect(fromEnv.url).toBe(`http://127.0.0.1:${port}`);
    } finally {
      await fromEnv.stop();
    }
    const bad = await runAddinServer(["--quiet"], { PORT: "http" });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('PORT must be a port from 0 to 65535 (got "http")');
    expect(bad.stdout).toBe("");
  });

  it("stops cleanly on SIGINT", async () => {
    const other = await spawnAddinServer(["--port", "0", "--quiet"]);
    expect(await other.stop("SIGINT")).toBe(0);
  });

  it("refuses bad arguments with status 2 and a message naming them", async () => {
    const plainHttp = await runAddinServer(["--port", "0", "--tenant", "http://tenant.example.com"]);
    expect(plainHttp.status).toBe(2);
    expect(plainHttp.stderr).toContain('Tenant "http://tenant.example.com" must use https://');
    expect(plainHttp.stdout).toBe("");
    const withPath = await runAddinServer(["--port", "0"], { TENANT_ORIGINS: "https://t.example.com/api" });
    expect(withPath.status).toBe(2);
    expect(withPath.stderr).toContain("must be an origin only");
    const dataHttp = await runAddinServer(["--port", "0", "--data-origin", "http://data.example.com"]);
    expect(dataHttp.status).toBe(2);
    expect(dataHttp.stderr).toContain('Data origin "http://data.example.com" must use https://');
    const dataPath = await runAddinServer(["--port", "0"], {
      DATA_ORIGINS: "https://data.example.com/data/1",
    });
    expect(dataPath.status).toBe(2);
    expect(dataPath.stderr).toContain('Data origin "https://data.example.com/data/1" must be an origin only');
    expect((await runAddinServer(["--port", "70000"])).status).toBe(2);
    expect((await runAddinServer(["--cert", "a.pem"])).status).toBe(2);
    expect((await runAddinServer(["--frobnicate"])).stderr).toContain('Unknown argument "--frobnicate"');
    // The relay's wait and its load are bounded; a bound must be a positive whole number.
    const timeout = await runAddinServer(["--port", "0", "--relay-timeout", "0"]);
    expect(timeout.status).toBe(2);
    expect(timeout.stderr).toContain("--relay-timeout must be a whole number from 1");
    const inFlight = await runAddinServer(["--port", "0"], { RELAY_MAX_IN_FLIGHT: "lots" });
    expect(inFlight.status).toBe(2);
    expect(inFlight.stderr).toContain("RELAY_MAX_IN_FLIGHT must be a whole number from 1");
  });

  it("names a flag it does not know as given, and a flag without its value, with the usage", async () => {
    const [unknown, missing] = await Promise.all([
      runAddinServer(["--port=0", "--frobnicate=yes"]),
      runAddinServer(["--port", "0", "--tenant"]),
    ]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe('Unknown argument "--frobnicate=yes".');
    expect(unknown.stderr).toContain("usage: npm run serve");
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr.split("\n")[0]).toBe("--tenant needs a value.");
    expect(missing.stderr).toContain("usage: npm run serve");
  });
});

describe("npm run serve over HTTPS", () => {
  let dir: string;
  let secure: SpawnedAddinServer;
  let ca: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "addin-certs-"));
    const cert = await devCertificate(dir);
    expect(cert.generated).toBe(true);
    ca = readFileSync(cert.caFile, "utf8");
    secure = await spawnAddinServer([
      "--port",
      "0",
      "--quiet",
      "--cert",
      join(dir, "localhost.crt"),
      "--key",
      join(dir, "localhost.key"),
    ]);
  });
  afterAll(async () => {
    await secure?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves the pane with a certificate the office-addin-dev-certs authority vouches for, with HSTS", async () => {
    expect(secure.url).toMatch(/^https:\/\/localhost:\d+$/);
    const url = new URL(`${secure.url}/taskpane.html`);
    const answer = await new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", servername: "localhost", port: url.port, path: url.pathname, ca },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, hsts: res.headers["strict-transport-security"] as string });
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(answer).toEqual({ status: 200, hsts: "max-age=31536000" });
  });

  it("reuses a certificate that is still valid", async () => {
    expect((await devCertificate(dir)).generated).toBe(false);
  });
});
