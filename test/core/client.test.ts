import { describe, expect, it } from "vitest";
import {
  buildHttpRequest,
  createPlatformClient,
  createSyncPlatformClient,
  operations,
  type Report,
  requireSecureUrl,
} from "../../src/core/index.js";
import { fetchTransport } from "../../src/core/transport.js";
import { failure, json, loopbackService, SCIM, TOKEN } from "../support/platform-service.js";
import { fullReport } from "./fixtures.js";

const service = loopbackService();
const { seen } = service;
const client = service.client;

describe("auth rules: authentication", () => {
  it("rule 1: only HTTPS is accepted; a plain http tenant is refused before anything is sent", async () => {
    expect(() =>
      createPlatformClient({
        transport: fetchTransport(fetch),
        baseUrl: "http://tenant.example.com",
        token: TOKEN,
      }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(() =>
      createPlatformClient({
        transport: fetchTransport(fetch),
        baseUrl: "ftp://tenant.example.com",
        token: TOKEN,
      }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(() =>
      createPlatformClient({ transport: fetchTransport(fetch), baseUrl: "not a url", token: TOKEN }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(seen).toHaveLength(0);
  });

  it("rule 1: loopback hosts may use http (the local sandbox)", () => {
    for (const url of [
      "http://localhost:3000",
      "http://127.0.0.1:9",
      "http://127.5.6.7",
      "http://[::1]:8080",
    ]) {
      expect(requireSecureUrl(url).href).toContain("http://");
    }
    expect(() => requireSecureUrl("http://127.0.0.1.example.com")).toThrow();
    expect(() => requireSecureUrl("https://user:pw@tenant.example.com")).toThrow();
  });

  it("rule 1: a name under .localhost is not loopback for plain http: Node resolves it through DNS", () => {
    // A browser keeps *.localhost on this machine; Node (the add-in server's relay, the sandbox's
    // clients) asks the resolver, which may answer with any address: the key would go there in clear.
    for (const url of [
      "http://foo.localhost:4450",
      "http://a.b.localhost",
      "http://localhost.attacker.example",
    ]) {
      expect(() => requireSecureUrl(url), url).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    }
  });

  it("rule 2: the management API takes Authorization: Bearer <key>", async () => {
    service.handler = (_req, res) => json(res, 200, [{ id: 1, name: "Production" }]);
    const deployments = await client().listDeployments();
    expect(deployments).toEqual([{ id: 1, name: "Production" }]);
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(seen[0]?.url).toBe("/api/v1/deployments");
    expect(seen[0]?.headers.accept).toBe("application/json");
  });

  it("rule 3: an OAuth access token is sent the same way as an API key", async () => {
    service.handler = (_req, res) => json(res, 200, []);
    const accessToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2lnbmF0dXJl";
    await createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: service.base,
      token: accessToken,
    }).listDeployments();
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${accessToken}`);
  });

  it("rule 4: a key scoped to other deployments gets 403 for this one, and the message names it", async () => {
    service.handler = (req, res) =>
      req.url.startsWith("/api/v1/deployments/2/")
        ? json(res, 403, { message: "out of scope" })
        : json(res, 200, { items: [] });
    expect(await client().listReports(1)).toEqual([]);
    const e = await failure(client().listReports(2));
    expect(e.kind).toBe("forbidden");
    expect(e.message).toContain("scoped to other deployments: deployment 2 is not among them");
  });

  it("rule 5: the provisioning API takes the SCIM token as Bearer", async () => {
    service.handler = (_req, res) =>
      json(res, 200, {
        schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
        totalResults: 1,
        startIndex: 3,
        itemsPerPage: 1,
        Resources: [{ id: "u1", userName: "ann@example.com", active: true }],
      });
    const page = await client().listScimUsers({ count: 1, startIndex: 3 });
    expect(page.Resources?.[0]?.userName).toBe("ann@example.com");
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${SCIM}`);
    expect(seen[0]?.url).toBe("/api/scim/v2/Users?count=1&startIndex=3");
  });

  it("rule 7: 401 means the credential is missing, malformed or expired", async () => {
    service.handler = (_req, res) => json(res, 401, { message: "token expired" });
    const e = await failure(client().listDeployments());
    expect(e.kind).toBe("unauthorized");
    expect(e.status).toBe(401);
    expect(e.message).toContain("Settings");
    expect(e.message).toContain("token expired");
    expect(seen).toHaveLength(1);
  });

  it("rule 7: 403 means valid but not authorized, and names the deployment", async () => {
    service.handler = (_req, res) => json(res, 403, { error: "key scoped to other deployments" });
    const e = await failure(client().listReports(42));
    expect(e.kind).toBe("forbidden");
    expect(e.message).toContain("deployment 42");
    expect(e.message).toContain("key scoped to other deployments");
    expect(seen).toHaveLength(1);
  });

  it("never puts the token in an error message, even when the service echoes it", async () => {
    service.handler = (req, res) => json(res, 400, { message: `bad header ${req.headers.authorization}` });
    const e = await failure(client().listDeployments());
    expect(e.kind).toBe("bad-request");
    expect(e.message).not.toContain(TOKEN);
    expect(JSON.stringify(e)).not.toContain(TOKEN);
  });
});

describe("the disconnect request (disconnect rules)", () => {
  it("sends DELETE with the JSON input and returns the parsed Report", async () => {
    const after = fullReport({ externalWorkbookPlacements: [] });
    service.handler = (_req, res) => json(res, 200, after);
    const input = { placementId: "p1" };
    const report = await client().disconnectReportFromWorkbook(1, 101, input);
    expect(report.externalWorkbookPlacements).toEqual([]);
    expect(seen[0]).toMatchObject({
      method: "DELETE",
      url: "/api/v1/deployments/1/reports/101/connect-workbook",
    });
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(seen[0]!.body)).toEqual(input);
  });

  it("a DELETE without a body asks for Content-Length: 0 and sends an empty body", async () => {
    const op = operations.disconnectReportFromWorkbook(1, 101);
    const request = buildHttpRequest({ baseUrl: "https://tenant.example.com", token: TOKEN }, op);
    expect(request.headers["Content-Length"]).toBe("0");
    expect(request.body).toBe("");
    service.handler = (_req, res) => json(res, 200, fullReport());
    await client().disconnectReportFromWorkbook(1, 101);
    expect(seen[0]?.body).toBe("");
    expect(seen[0]?.headers["content-type"]).toBeUndefined();
  });

  it("refuses an input of the wrong shape before sending", async () => {
    const e = await failure(client().disconnectReportFromWorkbook(1, 101, { sheetId: 5 } as never));
    expect(e.kind).toBe("bad-request");
    expect(seen).toHaveLength(0);
  });

  it("a malformed Report is a clear invalid-response naming the field", async () => {
    service.handler = (_req, res) => json(res, 200, { ...fullReport(), publicId: undefined });
    const e = await failure(client().disconnectReportFromWorkbook(1, 101, { placementId: "p1" }));
    expect(e.kind).toBe("invalid-response");
    expect(e.message).toContain("publicId");
  });

  it("a body that is not JSON is an invalid-response", async () => {
    service.handler = (_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end("{not json");
    };
    const e = await failure(client().getReport(1, 101));
    expect(e.kind).toBe("invalid-response");
  });
});

describe("listing reports", () => {
  const page = (ids: number[], next: string | null) => ({
    items: ids.map((id) => fullReport({ id, name: `R${id}` })),
    pageInfo: { hasNextPage: next !== null, endCursor: next },
  });

  it("follows the cursor through every page, with the filters on each request", async () => {
    service.handler = (req, res) => {
      const after = new URL(req.url, service.base).searchParams.get("after");
      if (!after) return json(res, 200, page([1, 2], "c1"));
      if (after === "c1") return json(res, 200, page([3], "c2"));
      return json(res, 200, page([4], null));
    };
    const reports = await client().listReports(1, { externalWorkbookId: "wb 1", search: "rev" });
    expect(reports.map((r: Report) => r.id)).toEqual([1, 2, 3, 4]);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      const q = new URL(s.url, service.base).searchParams;
      expect(q.get("externalWorkbookId")).toBe("wb 1");
      expect(q.get("search")).toBe("rev");
    }
  });

  it("accepts the deprecated `data` field in place of `items`", async () => {
    service.handler = (_req, res) => json(res, 200, { data: [fullReport({ id: 9 })], count: 1 });
    expect((await client().listReports(1)).map((r) => r.id)).toEqual([9]);
  });

  it("a cursor that repeats is an invalid-response, not an endless loop", async () => {
    service.handler = (_req, res) => json(res, 200, page([1], "same"));
    const e = await failure(client().listReports(1));
    expect(e.kind).toBe("invalid-response");
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it("one unreadable report does not hide the others", async () => {
    service.handler = (_req, res) =>
      json(res, 200, { items: [fullReport({ id: 1 }), { id: 2, name: "Broken" }, fullReport({ id: 3 })] });
    const problems: string[] = [];
    const reports = await client().listReports(1, { onProblem: (p) => problems.push(p) });
    expect(reports.map((r) => r.id)).toEqual([1, 3]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("Broken");
  });

  it("an unknown sync status from a newer service reads as UNKNOWN", async () => {
    const r = fullReport();
    const odd = {
      ...r,
      externalWorkbookPlacements: [{ ...r.externalWorkbookPlacements![0], syncStatus: "STALE" }],
    };
    service.handler = (_req, res) => json(res, 200, { items: [odd] });
    const [report] = await client().listReports(1);
    expect(report?.externalWorkbookPlacements?.[0]?.syncStatus).toBe("UNKNOWN");
  });
});

describe("the synchronous runner (Apps Script) shares the rules", () => {
  it("sends the same request and retries the same way", () => {
    const requests: { method: string; url: string; headers: Record<string, string>; body?: string }[] = [];
    const sleeps: number[] = [];
    let n = 0;
    const sync = createSyncPlatformClient({
      baseUrl: "https://tenant.example.com/",
      token: TOKEN,
      retryBaseMs: 100,
      random: () => 0,
      sleep: (ms) => sleeps.push(ms),
      transport: (req) => {
        requests.push(req);
        return ++n === 1
          ? { status: 503, headers: {}, body: "" }
          : { status: 200, headers: {}, body: JSON.stringify(fullReport()) };
      },
    });
    const report = sync.disconnectReportFromWorkbook(1, 101, { placementId: "p1" });
    expect(report.id).toBe(101);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      method: "DELETE",
      url: "https://tenant.example.com/api/v1/deployments/1/reports/101/connect-workbook",
      body: '{"placementId":"p1"}',
    });
    expect(requests[0]?.headers.Authorization).toBe(`Bearer ${TOKEN}`);
    expect(sleeps).toEqual([50]);
  });

  it("maps a thrown fetch to a network error and 403 to forbidden", () => {
    const failing = createSyncPlatformClient({
      baseUrl: "https://tenant.example.com",
      token: TOKEN,
      retries: 0,
      sleep: () => {},
      transport: () => {
        throw new Error("DNS error");
      },
    });
    expect(() => failing.listDeployments()).toThrow(expect.objectContaining({ kind: "network" }));
    const forbidden = createSyncPlatformClient({
      baseUrl: "https://tenant.example.com",
      token: TOKEN,
      sleep: () => {},
      transport: () => ({ status: 403, headers: {}, body: '{"message":"nope"}' }),
    });
    expect(() => forbidden.listReports(7)).toThrow(expect.objectContaining({ kind: "forbidden" }));
  });

  it("refuses an insecure tenant", () => {
    expect(() =>
      createSyncPlatformClient({
        baseUrl: "http://tenant.example.com",
        token: TOKEN,
        sleep: () => {},
        transport: () => ({ status: 200, headers: {}, body: "" }),
      }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
  });
});
