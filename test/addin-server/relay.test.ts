/**
 * The relay, against a recording upstream over real sockets: exactly what crosses (method, path,
 * query, body, Authorization, Content-Type, Accept), nothing for a host not listed, no redirect
 * followed, hop-by-hop headers and cookies dropped, the answer streamed as it arrives, and nothing
 * secret in the log.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../src/addin-server/server.js";
import { parseTenantList, TenantListError } from "../../src/addin-server/tenants.js";
import { createPlatformClient } from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist/excel");

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let upstream: Server;
let upstreamHost: string;
let received: Received[] = [];
let releaseStream: () => void = () => {};
let streamClosed: Promise<void> = Promise.resolve();
let server: RunningAddinServer;
const logs: string[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path === "/redirect") {
    res.writeHead(302, { Location: "/elsewhere" }).end();
  } else if (path.startsWith("/moved/")) {
    res.writeHead(307, { Location: "https://elsewhere.example.net/collect" }).end();
  } else if (path === "/cookies") {
    res.writeHead(200, {
      "Content-Type": "application/json",
      "Set-Cookie": "session=abc; HttpOnly",
      "Keep-Alive": "timeout=77",
      Connection: "keep-alive, X-Hop",
      "X-Hop": "only for this hop",
      "Retry-After": "3",
      "Access-Control-Allow-Origin": "*",
      // The relay's own signal: a tenant must not be able to forge it.
      "X-Relay-Error": "tenant-not-listed",
    });
    res.end("{}");
  } else if (path === "/origin-wide") {
    // Headers that act on the whole origin that serves them: through the relay, the add-in's.
    res.writeHead(200, {
      "Content-Type": "application/json",
      ETag: '"v1"',
      "Last-Modified": "Tue, 01 Jan 2030 00:00:00 GMT",
      "Retry-After": "5",
      "WWW-Authenticate": 'Bearer realm="tenant"',
      "X-Request-Id": "req-42",
      "Clear-Site-Data": '"storage", "cookies", "cache"',
      NEL: '{"report_to":"t","max_age":86400}',
      "Report-To": '{"group":"t","max_age":86400,"endpoints":[{"url":"https://collect.example.net"}]}',
      "Reporting-Endpoints": 't="https://collect.example.net"',
      "Alt-Svc": 'h3=":443"; ma=86400',
      Refresh: "0; url=https://evil.example.net",
      Link: "<https://evil.example.net/s.js>; rel=preload; as=script",
      "Service-Worker-Allowed": "/",
      "Cache-Control": "public, max-age=86400",
      "Content-Security-Policy-Report-Only": "default-src 'none'; report-uri https://collect.example.net",
      "Permissions-Policy": "camera=*",
      "Cross-Origin-Opener-Policy": "unsafe-none",
      "Cross-Origin-Resource-Policy": "cross-origin",
      "Cross-Origin-Embedder-Policy": "unsafe-none",
      "X-Frame-Options": "ALLOWALL",
      "Origin-Agent-Cluster": "?0",
      "Timing-Allow-Origin": "*",
      "Accept-CH": "Sec-CH-UA-Full-Version-List",
      "Critical-CH": "Sec-CH-UA-Full-Version-List",
      "Supports-Loading-Mode": "credentialed-prerender",
      "Speculation-Rules": '"https://evil.example.net/rules.json"',
      "X-DNS-Prefetch-Control": "on",
      "Set-Login": "logged-in",
    });
    res.end("{}");
  } else if (path === "/stream") {
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    streamClosed = new Promise((resolve) => res.on("close", () => resolve()));
    res.write(`${JSON.stringify({ id: "__cutoff__" })}\n`);
    // The rest only once the test has read the first line through the relay.
    releaseStream = () => res.end(`${JSON.stringify({ id: "__usage__" })}\n`);
  } else {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ echoed: body.length }));
  }
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      answer(req, res, body);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamHost = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startAddinServer({
    distDir: DIST,
    port: 0,
    tenants: parseTenantList([`http://${upstreamHost}`]),
    log: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await server?.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});
beforeEach(() => {
  received = [];
});

describe("the relay", () => {
  it("forwards method, path, query, body, Authorization, Content-Type and Accept, and nothing else", async () => {
    const body = JSON.stringify({ sheetName: "Sales", anchorCell: "B2" });
    const res = await fetch(
      `${server.url}/relay/${upstreamHost}/api/v1/deployments/1/reports/7/connect-workbook?x=1&y=%20z`,
      {
        method: "DELETE",
        headers: {
          Authorization: "Bearer sk-secret-123",
          "Content-Type": "application/json",
          Accept: "application/json",
          Cookie: "session=from-the-page",
          "X-Custom": "private",
          "X-Forwarded-For": "10.0.0.1",
          Referer: "https://addin.example.com/taskpane.html",
        },
        body,
      },
    );
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.method).toBe("DELETE");
    expect(got.url).toBe("/api/v1/deployments/1/reports/7/connect-workbook?x=1&y=%20z");
    expect(got.body).toBe(body);
    expect(got.headers.authorization).toBe("Bearer sk-secret-123");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers.accept).toBe("application/json");
    for (const name of ["cookie", "x-custom", "x-forwarded-for", "referer", "origin"]) {
      expect(got.headers[name]).toBeUndefined();
    }
    // Everything else the tenant receives is what Node's fetch (undici) adds to every request,
    // none of it the user's; the relay names itself instead of Node's "node".
    expect(got.headers).toEqual({
      host: upstreamHost,
      connection: "keep-alive",
      authorization: "Bearer sk-secret-123",
      "content-type": "application/json",
      accept: "application/json",
      "accept-language": "*",
      "sec-fetch-mode": "cors",
      "user-agent": "reporting-platform-addin-relay",
      "accept-encoding": "gzip, deflate",
      "content-length": String(body.length),
    });
  });

  it("refuses a host that is not listed with a 403 JSON error and sends nothing", async () => {
    const res = await fetch(`${server.url}/relay/evil.example.com/api/v1/deployments`, {
      headers: { Authorization: "Bearer sk-secret-123" },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-relay-error")).toBe("tenant-not-listed");
    expect(await res.json()).toMatchObject({
      error: "tenant-not-listed",
      message: expect.stringContaining("evil.example.com"),
    });
    // Another port on the listed host is another origin: not listed either.
    expect((await fetch(`${server.url}/relay/127.0.0.1:9/api`)).status).toBe(403);
    expect(received).toEqual([]);
    // The admin sees the refusal in the log, with the host it named and without the key.
    expect(logs.join("\n")).toContain("GET /relay/evil.example.com 403 not listed");
  });

  it("follows no redirect: the 3xx comes back without its Location, and its target is never asked", async () => {
    const res = await fetch(`${server.url}/relay/${upstreamHost}/redirect`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBeNull();
    // Named for the pane's error, under a name no browser follows, resolved against the tenant.
    expect(res.headers.get("x-relay-location")).toBe(`http://${upstreamHost}/elsewhere`);
    expect(received.map((r) => r.url)).toEqual(["/redirect"]);
  });

  it("a tenant's redirect reaches the pane's client as an error naming the location, nothing followed", async () => {
    // A GET, which the pane sends with redirect "follow": with no Location there is nothing to
    // follow, so the browser hands over the 307 and the client reads X-Relay-Location.
    const client = createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: `${server.url}/relay/${upstreamHost}/moved`,
      token: "sk-secret-123",
      sleep: async () => {},
    });
    const error = await client.listDeployments().then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toContain("redirect (307) to https://elsewhere.example.net/collect");
    expect(received.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /moved/api/v1/deployments"]);
  });

  it("drops cookies, hop-by-hop headers and CORS headers of the answer, keeps the rest", async () => {
    const res = await fetch(`${server.url}/relay/${upstreamHost}/cookies`);
    expect(res.headers.get("set-cookie")).toBeNull();
    // The add-in server may keep its own connection alive; the tenant's hop header is not passed on.
    expect(res.headers.get("keep-alive")).not.toBe("timeout=77");
    expect(res.headers.get("x-hop")).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("x-relay-error")).toBeNull();
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("passes only the headers the pane reads: none that act on the add-in's whole origin", async () => {
    const res = await fetch(`${server.url}/relay/${upstreamHost}/origin-wide`);
    expect(res.status).toBe(200);
    const passed = Object.fromEntries(res.headers);
    // What the pane and the core read (content type, Retry-After, a request id, the challenge) and
    // the caching validators cross; a tenant's answer is never kept by a cache, shared or not.
    expect(passed).toMatchObject({
      "content-type": "application/json",
      etag: '"v1"',
      "last-modified": "Tue, 01 Jan 2030 00:00:00 GMT",
      "retry-after": "5",
      "www-authenticate": 'Bearer realm="tenant"',
      "x-request-id": "req-42",
      "cache-control": "no-store",
    });
    // Every other header of the tenant stays at the add-in server: a Clear-Site-Data through the
    // relay would erase the add-in's storage (where the keys are), a Report-To or NEL would send
    // the origin's traffic reports to the tenant, an Alt-Svc or Link would steer later loads.
    const own = new Set([
      "content-security-policy",
      "x-content-type-options",
      "referrer-policy",
      "date",
      // The add-in server frames what it sends itself.
      "content-length",
      "connection",
      "keep-alive",
      "transfer-encoding",
    ]);
    const unexpected = Object.keys(passed).filter(
      (name) =>
        !own.has(name) &&
        ![
          "content-type",
          "etag",
          "last-modified",
          "retry-after",
          "www-authenticate",
          "x-request-id",
          "cache-control",
        ].includes(name),
    );
    expect(unexpected).toEqual([]);
  });

  it("streams the answer: the first NDJSON line arrives before the tenant has finished", async () => {
    const res = await fetch(`${server.url}/relay/${upstreamHost}/stream`, { method: "POST", body: "{}" });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended before its first line");
      text += decoder.decode(value, { stream: true });
    }
    // The tenant is still holding the rest: this line came through before the stream ended.
    expect(JSON.parse(text.split("\n")[0]!)).toEqual({ id: "__cutoff__" });
    releaseStream();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(["__cutoff__", "__usage__"]);
  });

  it("closes the tenant's stream when the pane goes away (Stop, a closed pane)", async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/relay/${upstreamHost}/stream`, {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });
    await res.body!.getReader().read();
    controller.abort();
    // Resolves only when the tenant's side of the stream has closed.
    await streamClosed;
  });

  it("logs method, host and path only: never a header value, a query or a body", async () => {
    await fetch(`${server.url}/relay/${upstreamHost}/api/v1/x?token=query-secret`, {
      method: "POST",
      headers: { Authorization: "Api-Key ak-secret-456", "Content-Type": "application/json" },
      body: JSON.stringify({ input: "body-secret" }),
    });
    const text = logs.join("\n");
    expect(text).toContain(`POST /relay/${upstreamHost}/api/v1/x 200`);
    for (const secret of ["ak-secret-456", "sk-secret-123", "query-secret", "body-secret"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("refuses a body past its cap with 413 as soon as the cap is passed, without waiting for the rest", async () => {
    // A chunked body with no length that never ends: buffering it whole would hold the request (and
    // its memory) for as long as the sender likes.
    const status = await new Promise<number>((resolvePromise, reject) => {
      const req = httpRequest(`${server.url}/relay/${upstreamHost}/api/v1/x`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
      });
      req.on("response", (res) => {
        res.resume();
        resolvePromise(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      // 3 MB sent, more than the 2 MB cap, and the request left open.
      for (let i = 0; i < 12; i++) req.write(chunk);
    });
    expect(status).toBe(413);
    expect(received).toEqual([]);
  });

  it("serves fetch calls only: a relayed answer cannot be loaded as a script, a page or a frame of the add-in's origin", async () => {
    // The add-in's origin holds the user's keys and its policy allows scripts from 'self': what a
    // tenant answers must never run there, whatever its Content-Type.
    for (const dest of ["script", "document", "iframe", "style", "worker"]) {
      const res = await fetch(`${server.url}/relay/${upstreamHost}/api/v1/x`, {
        headers: { "Sec-Fetch-Dest": dest, "Sec-Fetch-Mode": dest === "document" ? "navigate" : "no-cors" },
      });
      expect(res.status, dest).toBe(403);
      expect(res.headers.get("x-relay-error"), dest).toBe("not-a-fetch");
    }
    expect(received).toEqual([]);
    const fetched = await fetch(`${server.url}/relay/${upstreamHost}/api/v1/x`, {
      headers: { "Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors" },
    });
    expect(fetched.status).toBe(200);
    // Opened by hand (or in a browser that sends no Sec-Fetch-* header), a relayed answer is
    // sandboxed: no script of it runs, and it has no access to the add-in's storage.
    const policy = fetched.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/(^|;)\s*sandbox\s*(;|$)/);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("answers 502 when the listed tenant cannot be reached", async () => {
    const closed = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList(["http://127.0.0.1:9"]),
    });
    try {
      const res = await fetch(`${closed.url}/relay/127.0.0.1:9/api/v1/deployments`);
      expect(res.status).toBe(502);
      expect(res.headers.get("x-relay-error")).toBe("tenant-unreachable");
    } finally {
      await closed.close();
    }
  });
});

describe("the relay's waits and its load", () => {
  /** A tenant that answers as the test says, and tells when a request's socket closes. */
  async function scriptedTenant(handler: (req: IncomingMessage, res: ServerResponse) => void) {
    const closed: Promise<void>[] = [];
    const tenant = createServer((req, res) => {
      closed.push(new Promise((r) => res.on("close", () => r())));
      handler(req, res);
    });
    await new Promise<void>((r) => tenant.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(tenant.address() as AddressInfo).port}`;
    return {
      host,
      closed,
      async stop() {
        tenant.closeAllConnections();
        await new Promise((r) => tenant.close(r));
      },
    };
  }

  it("gives up on a tenant that sends nothing: 504, and the tenant's connection is closed", async () => {
    const tenant = await scriptedTenant(() => {});
    const relaying = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([`http://${tenant.host}`]),
      relayTimeoutMs: 200,
    });
    try {
      const res = await fetch(`${relaying.url}/relay/${tenant.host}/api/v1/deployments`);
      expect(res.status).toBe(504);
      expect(res.headers.get("x-relay-error")).toBe("tenant-timeout");
      await tenant.closed[0];
    } finally {
      await relaying.close();
      await tenant.stop();
    }
  });

  it("a stream that stalls part-way is ended, and the tenant's connection closed", async () => {
    const tenant = await scriptedTenant((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ id: "__cutoff__" })}\n`);
    });
    const relaying = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([`http://${tenant.host}`]),
      relayTimeoutMs: 200,
    });
    try {
      const res = await fetch(`${relaying.url}/relay/${tenant.host}/chat`, { method: "POST", body: "{}" });
      expect(res.status).toBe(200);
      // The read ends (with an error: the stream was cut) instead of waiting for ever.
      await res.text().catch(() => "");
      await tenant.closed[0];
    } finally {
      await relaying.close();
      await tenant.stop();
    }
  });

  it("holds a bounded number of requests at once: past it 503 with Retry-After, nothing sent", async () => {
    const held: ServerResponse[] = [];
    const tenant = await scriptedTenant((_req, res) => {
      held.push(res);
    });
    const relaying = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([`http://${tenant.host}`]),
      relayMaxInFlight: 2,
    });
    try {
      const first = [1, 2].map(() => fetch(`${relaying.url}/relay/${tenant.host}/api/v1/x`));
      while (held.length < 2) await new Promise((r) => setImmediate(r));
      const third = await fetch(`${relaying.url}/relay/${tenant.host}/api/v1/x`);
      expect(third.status).toBe(503);
      expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(third.headers.get("x-relay-error")).toBe("relay-busy");
      expect(held).toHaveLength(2);
      // Once they are answered, the relay takes requests again.
      for (const res of held) res.end("{}");
      for (const res of await Promise.all(first)) await res.text();
      const fourth = fetch(`${relaying.url}/relay/${tenant.host}/api/v1/x`);
      while (held.length < 3) await new Promise((r) => setImmediate(r));
      held[2]!.end("{}");
      expect((await fourth).status).toBe(200);
    } finally {
      await relaying.close();
      await tenant.stop();
    }
  });
});

describe("the relay's log when a stream breaks", () => {
  it("a tenant that breaks off and a pane that goes away each leave one log line, and nothing on the console", async () => {
    const printed: unknown[][] = [];
    const spies = (["error", "info", "log", "warn"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args)),
    );
    const lines: string[] = [];
    const tenant = createServer((req, res) => {
      res.writeHead(200, { "Content-Type": "application/x-ndjson" });
      res.write(`${JSON.stringify({ id: "__cutoff__" })}\n`);
      // The tenant breaks off part-way; the other request is left open for the pane to leave.
      if (req.url === "/broken") setTimeout(() => res.socket?.destroy(), 20);
    });
    await new Promise<void>((r) => tenant.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(tenant.address() as AddressInfo).port}`;
    const relaying = await startAddinServer({
      distDir: DIST,
      port: 0,
      tenants: parseTenantList([`http://${host}`]),
      log: (line) => lines.push(line),
    });
    try {
      const broken = await fetch(`${relaying.url}/relay/${host}/broken`, { method: "POST", body: "{}" });
      await broken.text().catch(() => "");
      const leaving = new AbortController();
      const left = await fetch(`${relaying.url}/relay/${host}/open`, {
        method: "POST",
        body: "{}",
        signal: leaving.signal,
      });
      await left.body!.getReader().read();
      leaving.abort();
      await vi.waitFor(() => expect(lines.some((l) => l.includes("/open") && / ended: /.test(l))).toBe(true));
      await vi.waitFor(() =>
        expect(lines.some((l) => l.includes("/broken") && / ended: /.test(l))).toBe(true),
      );
      // The relay stopped: every connection has ended and its handling with it, so whatever the
      // server would print about the two streams it has printed by now.
      await relaying.close();
      expect(printed).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
      await relaying.close();
      tenant.closeAllConnections();
      await new Promise((r) => tenant.close(r));
    }
  });
});

describe("the tenant list", () => {
  it("takes https origins and explicitly listed loopback http, matches host and port exactly", () => {
    const list = parseTenantList([
      "https://Tenant.Example.com",
      "http://127.0.0.1:4010",
      "https://b.example.com:8443",
    ]);
    expect(list.origins).toEqual([
      "https://tenant.example.com",
      "http://127.0.0.1:4010",
      "https://b.example.com:8443",
    ]);
    expect(list.lookup("tenant.example.com")).toBe("https://tenant.example.com");
    expect(list.lookup("tenant.example.com:443")).toBe("https://tenant.example.com");
    expect(list.lookup("127.0.0.1:4010")).toBe("http://127.0.0.1:4010");
    expect(list.lookup("b.example.com")).toBeNull();
    expect(list.lookup("tenant.example.com.evil.com")).toBeNull();
    expect(list.lookup("tenant.example.com@evil.com")).toBeNull();
  });

  it("refuses plain http to a host that is not loopback, paths, and credentials", () => {
    expect(() => parseTenantList(["http://tenant.example.com"])).toThrow(TenantListError);
    // Node resolves a name under .localhost through DNS: only IP literals and localhost itself.
    expect(() => parseTenantList(["http://foo.localhost:4450"])).toThrow(TenantListError);
    expect(() => parseTenantList(["https://tenant.example.com/api"])).toThrow(/origin only/);
    expect(() => parseTenantList(["https://user:pw@tenant.example.com"])).toThrow(/origin only/);
    expect(() => parseTenantList(["ftp://tenant.example.com"])).toThrow(TenantListError);
    expect(() => parseTenantList(["not a url"])).toThrow(/not a URL/);
  });
});
