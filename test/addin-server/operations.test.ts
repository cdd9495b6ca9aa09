/**
 * What an orchestrator and a log collector see of the add-in server, in process: the probes
 * (/healthz, /readyz through starting, ready and draining), the manifests rendered for the public
 * URL, the request log (exactly its fields, the request id, nothing a caller sent beyond it), and
 * draining's handling of connections.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAddinApp } from "../../src/addin-server/app.js";
import { ServerState } from "../../src/addin-server/health.js";
import { formatRequestLog, type RequestLogEntry } from "../../src/addin-server/logging.js";
import { parseOperationalOptions } from "../../src/addin-server/operations.js";
import { type RunningAddinServer, startAddinServer } from "../../src/addin-server/server.js";
import { parseTenantList } from "../../src/addin-server/tenants.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DIST = join(ROOT, "dist/excel");

let tenant: Server;
let tenantHost: string;
let server: RunningAddinServer;
let entries: RequestLogEntry[] = [];

beforeAll(async () => {
  tenant = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => tenant.listen(0, "127.0.0.1", r));
  tenantHost = `127.0.0.1:${(tenant.address() as AddressInfo).port}`;
  server = await startAddinServer({
    distDir: DIST,
    port: 0,
    tenants: parseTenantList([`http://${tenantHost}`]),
    publicUrl: "https://addin.contoso.com/reports/",
    requestLog: (entry) => entries.push(entry),
  });
});
afterAll(async () => {
  await server?.close();
  tenant.closeAllConnections();
  await new Promise((r) => tenant.close(r));
});
beforeEach(() => {
  entries = [];
});

/** The log entry of the one request made since `beforeEach`, once its answer has been read. */
async function onlyEntry(): Promise<RequestLogEntry> {
  await expect.poll(() => entries.length).toBe(1);
  return entries[0]!;
}

describe("the probes", () => {
  it("/healthz answers 200 with a small JSON body, never cached", async () => {
    const alive = await fetch(`${server.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: "ok" });
    expect(alive.headers.get("cache-control")).toBe("no-store");
    expect(alive.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("/readyz is 200 once started", async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }]);
  });

  it("/readyz is 503 while starting and while draining; /healthz stays 200", async () => {
    const state = new ServerState();
    const app = createAddinApp({ distDir: DIST, tenants: parseTenantList([]), secure: false, state });
    const starting = await app.request("/readyz");
    expect([starting.status, await starting.json()]).toEqual([503, { status: "starting" }]);
    state.readiness = "ready";
    expect((await app.request("/readyz")).status).toBe(200);
    state.readiness = "draining";
    const draining = await app.request("/readyz");
    expect([draining.status, await draining.json()]).toEqual([503, { status: "draining" }]);
    expect((await app.request("/healthz")).status).toBe(200);
  });
});

describe("the manifests", () => {
  it("are rendered for the public URL at start, whatever address the build named", async () => {
    const built = readFileSync(join(DIST, "manifest.xml"), "utf8");
    const xml = await (await fetch(`${server.url}/manifest.xml`)).text();
    expect(xml).toContain('<SourceLocation DefaultValue="https://addin.contoso.com/reports/taskpane.html"/>');
    // The same add-in as the build's, only its URLs differ.
    const origin = (text: string) =>
      text.match(/<SourceLocation DefaultValue="(https:\/\/[^/"]+(?:\/reports)?)\//)![1]!;
    expect(xml.replaceAll(origin(xml), "BASE")).toBe(built.replaceAll(origin(built), "BASE"));
    const json = await (await fetch(`${server.url}/manifest.json`)).json();
    expect(json.validDomains).toEqual(["addin.contoso.com"]);
    expect(json.extensions[0].runtimes[0].code.page).toBe("https://addin.contoso.com/reports/taskpane.html");
  });

  it("are the built files when the server has no public https address", async () => {
    const plain = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([]) });
    try {
      const xml = await (await fetch(`${plain.url}/manifest.xml`)).text();
      expect(xml).toBe(readFileSync(join(DIST, "manifest.xml"), "utf8"));
    } finally {
      await plain.close();
    }
  });

  it("refuses a public URL that is not https", () => {
    expect(() => parseOperationalOptions({ publicUrl: "http://addin.contoso.com" }, {})).toThrow(/https/);
    expect(parseOperationalOptions({}, { ADDIN_BASE_URL: "https://a.example.com/x/" }).publicUrl).toBe(
      "https://a.example.com/x",
    );
  });
});

describe("the request log", () => {
  it("holds exactly time, request id, method, route, status, duration, bytes (and the tenant's host)", async () => {
    const page = await fetch(`${server.url}/taskpane.html`);
    const body = await page.arrayBuffer();
    const entry = await onlyEntry();
    expect(Object.keys(entry).sort()).toEqual(
      ["bytes", "durationMs", "method", "requestId", "route", "status", "time"].sort(),
    );
    expect(entry).toMatchObject({ method: "GET", route: "/*", status: 200, bytes: body.byteLength });
    expect(entry.requestId).toBe(page.headers.get("x-request-id"));
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);

    entries = [];
    const relayed = await fetch(`${server.url}/relay/${tenantHost}/api/v1/secret-report/42?token=q-s3cr3t`, {
      headers: { Authorization: "Bearer sk-l0g-n3v3r" },
    });
    const relayedBody = await relayed.arrayBuffer();
    const relayEntry = await onlyEntry();
    expect(Object.keys(relayEntry).sort()).toEqual(
      ["bytes", "durationMs", "method", "requestId", "route", "status", "tenant", "time"].sort(),
    );
    expect(relayEntry).toMatchObject({
      route: "/relay/:host/*",
      tenant: tenantHost,
      status: 200,
      bytes: relayedBody.byteLength,
    });
  });

  it("keeps a caller's request id when it is a safe token, and replaces any other", async () => {
    const kept = await fetch(`${server.url}/healthz`, { headers: { "X-Request-Id": "req-42.abc_DEF" } });
    expect(kept.headers.get("x-request-id")).toBe("req-42.abc_DEF");
    expect((await onlyEntry()).requestId).toBe("req-42.abc_DEF");
    for (const hostile of ['x"}\n{"status":500', "a b", "x".repeat(65), "<script>", "id;rm -rf"]) {
      entries = [];
      const answer = await fetch(`${server.url}/healthz`, {
        headers: { "X-Request-Id": encodeURI(hostile) },
      });
      const id = answer.headers.get("x-request-id")!;
      expect(id).not.toBe(encodeURI(hostile));
      expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
      expect((await onlyEntry()).requestId).toBe(id);
    }
  });

  it("never holds a query string, a header value, a relayed path or an unlisted host", async () => {
    await (
      await fetch(`${server.url}/relay/${tenantHost}/api/v1/secret-report/42?token=q-s3cr3t`, {
        headers: { Authorization: "Bearer sk-l0g-n3v3r", Cookie: "c00kie-v" },
      })
    ).arrayBuffer();
    await (await fetch(`${server.url}/relay/evil.example.com/x?token=q-s3cr3t`)).arrayBuffer();
    await (await fetch(`${server.url}/taskpane.html?token=q-s3cr3t`)).arrayBuffer();
    await expect.poll(() => entries.length).toBe(3);
    expect(entries[1]!.tenant).toBeUndefined();
    const text = [
      ...entries.map((e) => formatRequestLog(e, "json")),
      ...entries.map((e) => formatRequestLog(e, "text")),
    ].join("\n");
    for (const secret of [
      "q-s3cr3t",
      "sk-l0g-n3v3r",
      "c00kie-v",
      "secret-report",
      "evil.example.com",
      "token",
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe("draining", () => {
  /** One keep-alive connection: sends a request, resolves with the raw answer's head and body. */
  async function connection(url: string) {
    const { connect } = await import("node:net");
    const { port } = new URL(url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((r) => socket.once("connect", r));
    socket.setEncoding("utf8");
    return {
      socket,
      get(path: string): Promise<string> {
        return new Promise((resolveAnswer) => {
          let text = "";
          const onData = (chunk: string) => {
            text += chunk;
            const head = text.indexOf("\r\n\r\n");
            const length = Number(/content-length: (\d+)/i.exec(text)?.[1] ?? Number.NaN);
            if (head >= 0 && text.length >= head + 4 + length) {
              socket.off("data", onData);
              resolveAnswer(text);
            }
          };
          socket.on("data", onData);
          socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
        });
      },
    };
  }

  it("closes idle keep-alive connections at once and lets a relayed stream in flight finish", async () => {
    let finishStream: (() => void) | null = null;
    const slow = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write('{"line":1}\n');
      finishStream = () => res.end('{"line":2}\n');
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    const slowHost = `127.0.0.1:${(slow.address() as AddressInfo).port}`;
    const draining = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([`http://${slowHost}`]),
    });
    try {
      const idle = await connection(draining.url);
      expect(await idle.get("/readyz")).toMatch(/^HTTP\/1\.1 200/);
      const stream = await fetch(`${draining.url}/relay/${slowHost}/api/v1/agent`);
      const reader = stream.body!.getReader();
      await reader.read();
      const drained = draining.drain(60_000);
      // The idle keep-alive connection is closed at once (a probe then fails, as a 503 would).
      await new Promise<void>((r) => (idle.socket.destroyed ? r() : idle.socket.once("close", () => r())));
      finishStream!();
      while (!(await reader.read()).done) {}
      expect(await drained).toEqual({ cutOff: 0 });
    } finally {
      await draining.close();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });
});
