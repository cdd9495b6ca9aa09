/**
 * The relay's data origins (`--data-origin`, `DATA_ORIGINS`), against a recording upstream over
 * real sockets: a listed data origin is relayed its data API's load call with the data token, and
 * nothing else: no other path or method, and never a credential with a scheme (the tenant's
 * `Bearer` API key, the agent's `Api-Key`). A data origin not listed is refused like a tenant.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../src/addin-server/server.js";
import { DATA_ORIGIN, parseTenantList, TenantListError } from "../../src/addin-server/tenants.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist/excel");

let upstream: Server;
let dataHost: string;
let received: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];
let server: RunningAddinServer;
const logs: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"data":[]}');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  dataHost = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  server = await startAddinServer({
    distDir: DIST,
    port: 0,
    tenants: parseTenantList([]),
    dataOrigins: parseTenantList([`http://${dataHost}`], DATA_ORIGIN),
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

const LOAD = "/data/1/cubejs-api/v1/load";
const QUERY = JSON.stringify({ query: { measures: ["orders.count"] } });

describe("the relay to a listed data origin", () => {
  it("forwards the data API's load call with its bare data token", async () => {
    const res = await fetch(`${server.url}/relay/${dataHost}${LOAD}`, {
      method: "POST",
      headers: { Authorization: "eyJ.data-token.sig", "Content-Type": "application/json" },
      body: QUERY,
    });
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: "POST", url: LOAD, body: QUERY });
    expect(received[0]?.headers.authorization).toBe("eyJ.data-token.sig");
  });

  it("never sends it a credential with a scheme: the tenant's API key, the agent's key", async () => {
    for (const authorization of ["Bearer sk-secret-123", "Api-Key ak-secret-456", "bearer  sk-secret-123"]) {
      const res = await fetch(`${server.url}/relay/${dataHost}${LOAD}`, {
        method: "POST",
        headers: { Authorization: authorization, "Content-Type": "application/json" },
        body: QUERY,
      });
      expect(res.status, authorization).toBe(403);
      expect(res.headers.get("x-relay-error")).toBe("data-origin-call-refused");
    }
    expect(received).toEqual([]);
    expect(logs.join("\n")).not.toMatch(/sk-secret-123|ak-secret-456/);
  });

  it("relays no other call there: a management path, another method", async () => {
    const asked = [
      fetch(`${server.url}/relay/${dataHost}/api/v1/deployments`, { headers: { Authorization: "t" } }),
      fetch(`${server.url}/relay/${dataHost}${LOAD}`, { headers: { Authorization: "t" } }),
      fetch(`${server.url}/relay/${dataHost}/data/1/cubejs-api/v1/cubesql`, {
        method: "POST",
        headers: { Authorization: "t" },
        body: "{}",
      }),
      fetch(`${server.url}/relay/${dataHost}${LOAD}/../../../api/v1/deployments`, {
        method: "POST",
        headers: { Authorization: "t" },
        body: "{}",
      }),
    ];
    for (const res of await Promise.all(asked)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: "data-origin-call-refused" });
    }
    expect(received).toEqual([]);
  });

  it("refuses a data origin it does not list, as it does a tenant", async () => {
    const res = await fetch(`${server.url}/relay/data.elsewhere.example.com${LOAD}`, {
      method: "POST",
      headers: { Authorization: "eyJ.data-token.sig" },
      body: QUERY,
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("x-relay-error")).toBe("tenant-not-listed");
    expect(received).toEqual([]);
  });

  it("tells the pane which data origins it relays to (config.json)", async () => {
    expect(await (await fetch(`${server.url}/config.json`)).json()).toEqual({
      relay: { tenants: [], dataOrigins: [`http://${dataHost}`] },
    });
  });
});

describe("the data origin list", () => {
  it("holds data origins to a tenant's rules, and names them as data origins in its refusals", () => {
    expect(parseTenantList(["https://Data.Example.com"], DATA_ORIGIN).origins).toEqual([
      "https://data.example.com",
    ]);
    expect(() => parseTenantList(["http://data.example.com"], DATA_ORIGIN)).toThrow(TenantListError);
    expect(() => parseTenantList(["https://data.example.com/data/1"], DATA_ORIGIN)).toThrow(
      'Data origin "https://data.example.com/data/1" must be an origin only',
    );
    expect(() => parseTenantList(["nonsense"], DATA_ORIGIN)).toThrow(
      'Data origin "nonsense" is not a URL: list it as https://data.example.com.',
    );
  });
});
