/**
 * No surprises on the wire from a misbehaving service: a DELETE follows no redirect, answers and
 * lists are bounded, an endless cursor ends. Over real loopback servers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPlatformClient,
  createSyncPlatformClient,
  MAX_LIST_PAGES,
  MAX_LISTED_REPORTS,
  MAX_RESPONSE_BYTES,
  type PlatformError,
} from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";
import { fullReport } from "./fixtures.js";

const TOKEN = "sk-live-limits-0123456789";
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: { method: string; url: string; auth: string | undefined }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", auth: req.headers.authorization });
      handler(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

const client = (baseUrl: string) =>
  createPlatformClient({ transport: fetchTransport(fetch), baseUrl, token: TOKEN, sleep: async () => {} });

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    return e as PlatformError;
  }
  throw new Error("expected a failure");
}

describe("a DELETE follows no redirect", () => {
  it.each([307, 308])(
    "a %i to another host: an error naming it, one DELETE, nothing sent there",
    async (status) => {
      const elsewhere = await serve((_req, res) => res.end(JSON.stringify(fullReport())));
      const tenant = await serve((_req, res) => {
        res.writeHead(status, { Location: `${elsewhere.base}/collect` });
        res.end();
      });
      const error = await failure(
        client(tenant.base).disconnectReportFromWorkbook(1, 101, { placementId: "p1" }),
      );
      expect(error.message).toContain(`redirect (${status}) to ${elsewhere.base}/collect`);
      expect(tenant.received.map((r) => r.method)).toEqual(["DELETE"]);
      expect(elsewhere.received).toEqual([]);
    },
  );

  it("a redirect loop is one DELETE, not dozens", async () => {
    const tenant = await serve((req, res) => {
      res.writeHead(308, { Location: req.url ?? "/" });
      res.end();
    });
    await failure(client(tenant.base).disconnectReportFromWorkbook(1, 101, { placementId: "p1" }));
    expect(tenant.received).toHaveLength(1);
  });

  it("the synchronous runner (UrlFetchApp follows none) names the location too", () => {
    const sync = createSyncPlatformClient({
      baseUrl: "https://acme.example.com",
      token: TOKEN,
      sleep: () => {},
      transport: () => ({ status: 302, headers: { location: "https://evil.example.net/x" }, body: "" }),
    });
    expect(() => sync.disconnectReportFromWorkbook(1, 101, { placementId: "p1" })).toThrow(
      expect.objectContaining({
        message: expect.stringContaining("redirect (302) to https://evil.example.net/x"),
      }),
    );
  });
});

describe("bounded answers and lists", () => {
  it(`an answer larger than ${MAX_RESPONSE_BYTES / 1024 / 1024} MB is refused with a clear message`, async () => {
    const chunk = Buffer.alloc(1024 * 1024, 32);
    const tenant = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.write("[");
      for (let i = 0; i < 12; i++) res.write(chunk);
      res.end("]");
    });
    const error = await failure(client(tenant.base).listDeployments());
    expect(error.kind).toBe("invalid-response");
    expect(error.message).toMatch(/larger than 10 MB, the add-in's limit/);
  });

  it(`an endless cursor stops after ${MAX_LIST_PAGES} pages, with a problem that says so`, async () => {
    let n = 0;
    const tenant = await serve((_req, res) => {
      n += 1;
      res.end(JSON.stringify({ items: [], pageInfo: { hasNextPage: true, endCursor: `c${n}` } }));
    });
    const problems: string[] = [];
    const reports = await client(tenant.base).listReports(1, { onProblem: (p) => problems.push(p) });
    expect(reports).toEqual([]);
    expect(tenant.received).toHaveLength(MAX_LIST_PAGES);
    expect(problems).toEqual([expect.stringMatching(/stops after 50 pages, the add-in's limit/)]);
  });

  it(`a list stops at ${MAX_LISTED_REPORTS} reports, with a problem that says so`, async () => {
    let n = 0;
    const tenant = await serve((_req, res) => {
      const items = Array.from({ length: 100 }, (_, i) => fullReport({ id: n * 100 + i + 1 }));
      n += 1;
      res.end(JSON.stringify({ items, pageInfo: { hasNextPage: true, endCursor: `c${n}` } }));
    });
    const problems: string[] = [];
    const reports = await client(tenant.base).listReports(1, { onProblem: (p) => problems.push(p) });
    expect(reports).toHaveLength(MAX_LISTED_REPORTS);
    expect(tenant.received).toHaveLength(MAX_LISTED_REPORTS / 100);
    expect(problems).toEqual([expect.stringMatching(/stops at 2,000 reports, the add-in's limit/)]);
  });
});
