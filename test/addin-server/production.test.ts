/**
 * The production build as an admin ships it: `npm run build` (dist/excel and dist/server), then in
 * a folder holding only package.json, package-lock.json and dist/, `npm ci --omit=dev` and
 * `node dist/server/main.js`: no TypeScript loader, no development dependency. It serves the pane
 * with its security headers, the probes, the manifests rendered for its public URL, and relays to
 * a loopback tenant. Needs the npm registry (or npm's cache) for `npm ci`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

let folder: string;
let tenant: Server;
let tenantUrl: string;
let child: ChildProcess;
let url: string;
let stderr = "";

beforeAll(async () => {
  // The pane is reused when built (a full build takes minutes); the server's bundle is quick.
  if (!existsSync(join(ROOT, "dist/excel/taskpane.html"))) {
    execFileSync(npm, ["run", "-s", "build:excel"], { cwd: ROOT, stdio: "ignore" });
  }
  execFileSync(npm, ["run", "-s", "build:server"], { cwd: ROOT, stdio: "ignore" });

  folder = mkdtempSync(join(tmpdir(), "addin-server-production-"));
  for (const file of ["package.json", "package-lock.json"]) cpSync(join(ROOT, file), join(folder, file));
  cpSync(join(ROOT, "dist/excel"), join(folder, "dist/excel"), { recursive: true });
  cpSync(join(ROOT, "dist/server"), join(folder, "dist/server"), { recursive: true });
  execFileSync(npm, ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: folder,
    stdio: "ignore",
    env: { ...process.env, NODE_ENV: "production" },
  });

  tenant = createServer((req, res) => {
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify({ path: req.url, authorization: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => tenant.listen(0, "127.0.0.1", r));
  tenantUrl = `http://127.0.0.1:${(tenant.address() as AddressInfo).port}`;

  // No tsx: plain Node, as in the container (NODE_OPTIONS could carry the test runner's loader).
  const { NODE_OPTIONS: _, ...env } = process.env;
  child = spawn(
    process.execPath,
    [
      "dist/server/main.js",
      "--port",
      "0",
      "--tenant",
      tenantUrl,
      "--public-url",
      "https://addin.example.com",
    ],
    {
      cwd: folder,
      env: { ...env, PORT: "", TENANT_ORIGINS: "", DATA_ORIGINS: "", ADDIN_BASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  url = await new Promise<string>((resolveUrl, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (c: string) => {
      out += c;
      if (out.includes("\n")) resolveUrl(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`dist/server/main.js exited with ${code}: ${stderr}`)));
  });
}, 240_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    await new Promise((r) => {
      child.once("exit", r);
      child.kill("SIGTERM");
    });
  }
  await new Promise((r) => (tenant ? tenant.close(r) : r(undefined)));
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("node dist/server/main.js with production dependencies only", () => {
  it("has no development tool installed: no tsx, vite or office-addin-dev-certs", () => {
    for (const name of ["tsx", "vite", "office-addin-dev-certs", "vitest"]) {
      expect(existsSync(join(folder, "node_modules", name)), name).toBe(false);
    }
    expect(existsSync(join(folder, "node_modules", "hono"))).toBe(true);
  });

  it("has none of the pane's libraries either: the build bundled them into dist/excel", () => {
    for (const name of ["react", "react-dom", "@fluentui", "react-markdown", "@tanstack", "zod", "tldts"]) {
      expect(existsSync(join(folder, "node_modules", name)), name).toBe(false);
    }
    expect(existsSync(join(folder, "node_modules", "@hono", "node-server"))).toBe(true);
  });

  it("loads the development certificate tooling only when asked for, and says what is missing", () => {
    const { NODE_OPTIONS: _, ...env } = process.env;
    let status = 0;
    let stderr = "";
    try {
      execFileSync(process.execPath, ["dist/server/main.js", "--port", "0", "--dev-certs"], {
        cwd: folder,
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(1);
    expect(stderr).toContain("--dev-certs needs the development dependencies");
  });

  it("serves taskpane.html with its security headers", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${url}/taskpane.html`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("office.js");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("answers a malformed address with 400 and its message, as the server does from source", async () => {
    // The bundler may drop a call whose result goes unused as free of side effects, a throwing
    // decodeURIComponent included: then the check is gone from the build and the address is a 404.
    const { hostname, port } = new URL(url);
    for (const path of ["/%E0%A4%A", "/relay/%E0%A4%A/x"]) {
      const answer = await new Promise<{ status: number; body: string }>((done, fail) => {
        const req = httpRequest({ host: hostname, port, path, method: "GET" }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => done({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", fail);
        req.end();
      });
      expect([answer.status, JSON.parse(answer.body)], path).toEqual([
        400,
        { message: "The address is malformed." },
      ]);
    }
  });

  it("answers /healthz and /readyz", async () => {
    const alive = await fetch(`${url}/healthz`);
    expect([alive.status, await alive.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
  });

  it("hands out manifests naming its public URL, not the build's address", async () => {
    const xml = await (await fetch(`${url}/manifest.xml`)).text();
    expect(xml).toContain('<SourceLocation DefaultValue="https://addin.example.com/taskpane.html"/>');
    expect(xml).not.toContain("localhost");
    const json = await (await fetch(`${url}/manifest.json`)).json();
    expect(json.validDomains).toEqual(["addin.example.com"]);
  });

  it("relays to a listed loopback tenant", async () => {
    const host = new URL(tenantUrl).host;
    const answer = await fetch(`${url}/relay/${host}/api/v1/deployments?page=2`, {
      headers: { Authorization: "Bearer sk-test" },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      path: "/api/v1/deployments?page=2",
      authorization: "Bearer sk-test",
    });
    expect(answer.headers.get("content-security-policy")).toContain("sandbox");
  });
});
