/**
 * `npm run start:excel -- --no-build`: the add-in server over HTTPS (office-addin-dev-certs'
 * localhost certificate, made in a temporary home here) beside the local Reporting Platform, which
 * accepts no browser calls and is listed for the relay. Building is left out: the build is npm
 * test's own step, and a second one here would rewrite dist/excel under the other tests.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY } from "../../src/sandbox/demo.js";

const ROOT = resolve(import.meta.dirname, "../..");

let home: string;
let child: ChildProcess;
let output = "";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

function get(
  url: string,
  ca: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { host: "127.0.0.1", servername: "localhost", port: target.port, path: target.pathname, ca, headers },
      (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

let port: number;
beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "start-excel-home-"));
  port = await freePort();
  child = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/start-excel.ts", "--no-build", "--port", String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout!.setEncoding("utf8");
  await new Promise<void>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`start:excel did not start: ${output}`)), 60_000);
    child.stdout!.on("data", (c: string) => {
      output += c;
      if (output.includes("Ctrl-C stops.")) {
        clearTimeout(timer);
        resolvePromise();
      }
    });
    child.once("exit", (code) => reject(new Error(`start:excel exited with ${code}: ${output}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

describe("npm run start:excel", () => {
  it("serves the pane over HTTPS with the office-addin-dev-certs certificate, and relays to the local tenant", async () => {
    const ca = readFileSync(join(home, ".office-addin-dev-certs", "ca.crt"), "utf8");
    expect(output).toContain(`https://localhost:${port}/taskpane.html`);
    const sandbox = /Local Reporting Platform: (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(sandbox).toBeDefined();
    const page = await get(`https://localhost:${port}/taskpane.html`, ca);
    expect(page.status).toBe(200);
    expect(JSON.parse((await get(`https://localhost:${port}/config.json`, ca)).body)).toEqual({
      relay: { tenants: [sandbox], dataOrigins: [] },
    });
    const relayed = await get(
      `https://localhost:${port}/relay/${new URL(sandbox!).host}/api/v1/deployments`,
      ca,
      {
        Authorization: `Bearer ${DEMO_API_KEY}`,
      },
    );
    expect(relayed.status).toBe(200);
    // The local tenant itself allows no browser calls, like a real one may not.
    const direct = await fetch(`${sandbox}/api/v1/deployments`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(direct.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("stops both servers cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
