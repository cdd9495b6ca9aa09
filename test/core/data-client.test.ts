/**
 * The data client (src/core/data-client.ts) against a scripted data API: the token, the load call's
 * shape, "Continue wait", pages, caps and errors (docs/platform-api.md, "The data API", data rules
 * 1-6). Time is a fake clock: pauses advance it, nothing waits for real. The sandbox serves the same
 * API over real sockets in test/sandbox/data-client-against-sandbox.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  createDataClient,
  createPlatformClient,
  DATA_POLL_MAX_MS,
  DATA_TOKEN_LIFETIME_S,
  DATA_WAIT_TIMEOUT_MS,
  type DataQuery,
  dataResponseOf,
  type HttpRequest,
  type HttpResponse,
  isPlatformError,
  MAX_DATA_CELLS,
  type PlatformError,
  reportQuery,
} from "../../src/core/index.js";
import { fullReport } from "./fixtures.js";

const TENANT = "https://tenant.example.com";
const DATA = "https://data.example.com/deployments/1";
const API_KEY = "sk-secret-management-key-123";

interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

type DataHandler = (query: DataQuery, sent: Sent) => { status: number; body: unknown } | null;

/** A scripted tenant: deployment and token on the management API, the load call on the data API. */
function scriptedService(options: { data?: DataHandler; deploymentUrl?: string | null } = {}) {
  const sent: Sent[] = [];
  let tokens = 0;
  const clock = { now: 1_000_000 };
  const sleeps: number[] = [];
  const answer = (status: number, body: unknown): HttpResponse => ({
    status,
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const transport = async (request: HttpRequest): Promise<HttpResponse> => {
    const body = request.body ? JSON.parse(request.body) : undefined;
    const s: Sent = { method: request.method, url: request.url, headers: request.headers, body };
    sent.push(s);
    if (request.url === `${TENANT}/api/v1/deployments/1`) {
      return answer(200, {
        id: 1,
        name: "Production",
        deploymentUrl: options.deploymentUrl === undefined ? DATA : options.deploymentUrl,
      });
    }
    if (request.url === `${TENANT}/api/v1/deployments/1/token`) {
      tokens++;
      return answer(200, { cubeApiToken: `tok-${tokens}` });
    }
    if (request.url === `${DATA}/cubejs-api/v1/load`) {
      const result = options.data?.(body.query as DataQuery, s);
      if (result) return answer(result.status, result.body);
    }
    return answer(404, { message: "no such route" });
  };
  const platform = createPlatformClient({ baseUrl: TENANT, token: API_KEY, transport, retries: 0 });
  const client = (extra: Partial<Parameters<typeof createDataClient>[0]> = {}) =>
    createDataClient({
      platform,
      transport,
      secrets: [API_KEY],
      now: () => clock.now,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.now += ms;
      },
      random: () => 0.5,
      ...extra,
    });
  return {
    sent,
    sleeps,
    clock,
    client,
    loads: () => sent.filter((s) => s.url.endsWith("/cubejs-api/v1/load")),
    tokenRequests: () => sent.filter((s) => s.url.endsWith("/token")),
  };
}

const ANNOTATION = {
  measures: { "orders.revenue": { title: "Orders Revenue", shortTitle: "Revenue", type: "number" } },
  dimensions: { "orders.region": { title: "Orders Region", shortTitle: "Region", type: "string" } },
  segments: {},
  timeDimensions: {},
};

/** `n` rows from `offset`, as the data API sends them: values as strings. */
function rows(offset: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    "orders.region": `R${offset + i}`,
    "orders.revenue": String((offset + i) * 10),
  }));
}

/** A data API over `count` rows: honours limit, offset and total (data rules 3, 6). */
function rowsService(count: number): DataHandler {
  return (query) => {
    const limit = query.limit ?? 10_000;
    if (limit > 50_000) return { status: 400, body: { error: "Limit exceeds 50000" } };
    const offset = query.offset ?? 0;
    const n = Math.max(0, Math.min(limit, count - offset));
    return {
      status: 200,
      body: {
        query,
        data: rows(offset, n),
        annotation: ANNOTATION,
        lastRefreshTime: "2026-11-27T06:00:00.000Z",
        ...(query.total ? { total: count } : {}),
      },
    };
  };
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  try {
    await promise;
  } catch (e) {
    if (isPlatformError(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

const QUERY: DataQuery = { measures: ["orders.revenue"], dimensions: ["orders.region"] };

describe("the load call (data rules 1-3)", () => {
  it("asks a token with the management key, then loads with `Authorization: <token>` and `{query}`", async () => {
    const s = scriptedService({ data: rowsService(3) });
    const answer = await s.client().load(1, QUERY);
    const [token] = s.tokenRequests();
    expect(token?.headers.Authorization).toBe(`Bearer ${API_KEY}`);
    expect(token?.body).toEqual({ expiresIn: DATA_TOKEN_LIFETIME_S });
    const [load] = s.loads();
    expect(load?.method).toBe("POST");
    // No "Bearer" on the data API, and never the management key there.
    expect(load?.headers.Authorization).toBe("tok-1");
    expect(JSON.stringify(load?.headers)).not.toContain(API_KEY);
    expect(load?.body).toEqual({ query: { ...QUERY, limit: 10_000, offset: 0, total: true } });
    expect(answer.data).toEqual(rows(0, 3));
    expect(answer.annotation.measures["orders.revenue"]?.title).toBe("Orders Revenue");
    expect(answer.total).toBe(3);
    expect(answer.query).toEqual(QUERY);
  });

  it("keeps the token and the data URL in memory: two loads, one token and one deployment read", async () => {
    const s = scriptedService({ data: rowsService(3) });
    const client = s.client();
    await client.load(1, QUERY);
    await client.load(1, QUERY);
    expect(s.tokenRequests()).toHaveLength(1);
    expect(s.sent.filter((x) => x.url.endsWith("/deployments/1"))).toHaveLength(1);
  });

  it("renews the token before it expires, never sending one within a minute of its end", async () => {
    const s = scriptedService({ data: rowsService(3) });
    const client = s.client();
    await client.load(1, QUERY);
    s.clock.now += (DATA_TOKEN_LIFETIME_S - 30) * 1000;
    await client.load(1, QUERY);
    expect(s.tokenRequests()).toHaveLength(2);
    expect(s.loads().map((l) => l.headers.Authorization)).toEqual(["tok-1", "tok-2"]);
  });

  it("a 403 from the data API gets one new token, once; a second 403 is the error", async () => {
    const s = scriptedService({
      data: (query, sent) =>
        sent.headers.Authorization === "tok-1"
          ? { status: 403, body: { error: "Invalid token" } }
          : rowsService(2)(query, sent),
    });
    const answer = await s.client().load(1, QUERY);
    expect(answer.data).toHaveLength(2);
    expect(s.tokenRequests()).toHaveLength(2);

    const denied = scriptedService({ data: () => ({ status: 403, body: { error: "No access" } }) });
    const error = await failure(denied.client().load(1, QUERY, { reportName: "Revenue" }));
    expect(error.kind).toBe("forbidden");
    expect(error.message).toContain('"Revenue"');
    expect(error.message).toContain("No access");
    expect(denied.loads()).toHaveLength(2);
    expect(denied.tokenRequests()).toHaveLength(2);
  });
});

describe("Continue wait (data rule 4)", () => {
  it("asks again after growing pauses until the data comes", async () => {
    let n = 0;
    const s = scriptedService({
      data: (q, sent) =>
        ++n <= 6 ? { status: 200, body: { error: "Continue wait" } } : rowsService(1)(q, sent),
    });
    const progress: string[] = [];
    const answer = await s
      .client()
      .load(1, QUERY, { onProgress: (p) => progress.push(`${p.phase}:${p.waits}`) });
    expect(answer.data).toHaveLength(1);
    expect(s.loads()).toHaveLength(7);
    expect(s.sleeps).toEqual([250, 500, 1000, 2000, 2000, 2000]);
    expect(Math.max(...s.sleeps)).toBe(DATA_POLL_MAX_MS);
    expect(progress).toContain("waiting:6");
  });

  it("gives up after the wait limit with a message that says to try later", async () => {
    const s = scriptedService({ data: () => ({ status: 200, body: { error: "Continue wait" } }) });
    const error = await failure(s.client().load(1, QUERY, { reportName: "Slow" }));
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/still preparing the data of "Slow".*Try again later/);
    const waited = s.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeLessThanOrEqual(DATA_WAIT_TIMEOUT_MS);
    expect(waited).toBeGreaterThan(DATA_WAIT_TIMEOUT_MS - 2 * DATA_POLL_MAX_MS);
  });

  it("Stop (an AbortSignal) ends the wait: no further request goes out", async () => {
    const controller = new AbortController();
    const s = scriptedService({ data: () => ({ status: 200, body: { error: "Continue wait" } }) });
    const client = s.client({
      sleep: async () => {
        controller.abort();
      },
    });
    const error = await failure(client.load(1, QUERY, { signal: controller.signal }));
    expect(error.kind).toBe("aborted");
    expect(s.loads()).toHaveLength(1);
  });

  it("a 200 carrying another error is that error, not data and not a wait", async () => {
    const s = scriptedService({ data: () => ({ status: 200, body: { error: "Query timeout" } }) });
    const error = await failure(s.client().load(1, QUERY));
    expect(error.kind).toBe("server");
    expect(error.message).toContain("Query timeout");
  });
});

describe("pages (data rule 6)", () => {
  it("a query without a limit loads the service's default of 10,000 rows, in one request", async () => {
    const s = scriptedService({ data: rowsService(25_000) });
    const answer = await s.client().load(1, QUERY);
    expect(answer.data).toHaveLength(10_000);
    expect(s.loads()).toHaveLength(1);
  });

  it("a limit past 50,000 is loaded in pages of at most 50,000, in order, from the query's offset", async () => {
    const s = scriptedService({ data: rowsService(200_000) });
    const answer = await s.client().load(1, { ...QUERY, limit: 120_000, offset: 5 });
    expect(s.loads().map((l) => (l.body as { query: DataQuery }).query)).toEqual([
      { ...QUERY, limit: 50_000, offset: 5, total: true },
      { ...QUERY, limit: 50_000, offset: 50_005 },
      { ...QUERY, limit: 20_000, offset: 100_005 },
    ]);
    expect(answer.data).toHaveLength(120_000);
    expect(answer.data[0]).toEqual(rows(5, 1)[0]);
    expect(answer.data[119_999]).toEqual(rows(120_004, 1)[0]);
    expect(answer.total).toBe(120_000);
  });

  it("a short page ends the load: no request for rows that are not there", async () => {
    const s = scriptedService({ data: rowsService(60_000) });
    const answer = await s.client({ pageRows: 25_000 }).load(1, { ...QUERY, limit: 100_000 });
    expect(answer.data).toHaveLength(60_000);
    expect(s.loads()).toHaveLength(3);
  });

  it("refuses a result past the cell cap from the announced total, before loading more pages", async () => {
    // Ten members a row: 500,001 rows are 5,000,010 cells, under the row cap and past the cell cap.
    const wide: DataQuery = { measures: Array.from({ length: 10 }, (_, i) => `orders.m${i}`) };
    const rowsOver = MAX_DATA_CELLS / 10 + 1;
    const s = scriptedService({
      data: (q) => ({
        status: 200,
        body: { data: rows(q.offset ?? 0, 10), annotation: ANNOTATION, total: rowsOver },
      }),
    });
    const error = await failure(s.client({ pageRows: 10 }).load(1, { ...wide, limit: rowsOver }));
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain("5,000,000 cells");
    expect(s.loads()).toHaveLength(1);
  });

  it("a page with more rows than asked is an answer the add-in cannot read", async () => {
    const s = scriptedService({
      data: () => ({ status: 200, body: { data: rows(0, 11), annotation: ANNOTATION } }),
    });
    const error = await failure(s.client().load(1, { ...QUERY, limit: 10 }));
    expect(error.kind).toBe("invalid-response");
  });
});

describe("bad answers and bad addresses", () => {
  it.each([
    ["not JSON", "<html>proxy error</html>"],
    ["no data list", { annotation: ANNOTATION }],
    ["a row that is not an object", { data: [1], annotation: ANNOTATION }],
    ["no annotation", { data: [] }],
  ])("%s: a clear invalid-response, never a crash later", async (_what, body) => {
    const s = scriptedService({ data: () => ({ status: 200, body }) });
    const error = await failure(s.client().load(1, QUERY));
    expect(error.kind).toBe("invalid-response");
  });

  it("a refused query (400) quotes the service, with neither the token nor the key in it", async () => {
    const s = scriptedService({
      data: (_q, sent) => ({
        status: 400,
        body: { error: `Unknown member orders.nope (token ${sent.headers.Authorization}, key ${API_KEY})` },
      }),
    });
    const error = await failure(s.client().load(1, QUERY));
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain("Unknown member orders.nope");
    expect(error.message).not.toContain("tok-1");
    expect(error.message).not.toContain(API_KEY);
  });

  it.each([
    [null, /did not say where deployment 1's data is/],
    ["http://data.example.com/d/1", /must use https/],
    ["https://user:pw@data.example.com/d/1", /user name or password/],
    ["https://data.example.com/d/1?x=1", /query or fragment/],
  ])("a deploymentUrl of %s is refused before the token goes anywhere", async (url, message) => {
    const s = scriptedService({ deploymentUrl: url, data: rowsService(1) });
    const error = await failure(s.client().load(1, QUERY));
    expect(error.message).toMatch(message);
    expect(s.loads()).toHaveLength(0);
    expect(s.tokenRequests()).toHaveLength(0);
  });

  it("retries a 503 from the data API, then gives the error after two more tries", async () => {
    const s = scriptedService({ data: () => ({ status: 503, body: { error: "down" } }) });
    const error = await failure(s.client().load(1, QUERY));
    expect(error.kind).toBe("server");
    expect(s.loads()).toHaveLength(3);
  });
});

describe("the report's query", () => {
  it("loads a report's jsonQuery, naming the report in its errors", async () => {
    const s = scriptedService({ data: rowsService(4) });
    const report = fullReport({ jsonQuery: JSON.stringify(QUERY) });
    const answer = await s.client().loadReport(report);
    expect(answer.data).toHaveLength(4);
  });

  it.each([
    [null, "it has no query"],
    ["", "it has no query"],
    ["{not json", "not valid JSON"],
    ["[1,2]", "not an object"],
    ['{"limit": -1}', "limit is not a whole number"],
    ['{"offset": 1.5}', "offset is not a whole number"],
  ])("a jsonQuery of %s is refused with what is wrong, and nothing is sent", (jsonQuery, why) => {
    const report = fullReport({ name: "Broken", jsonQuery });
    expect(() => reportQuery(report)).toThrow(why);
    expect(() => reportQuery(report)).toThrow('"Broken"');
  });
});

describe("runEffect: a load program run elsewhere (the refresh worker)", () => {
  it("does each effect as `load` does: the data URL and token kept, the request's body as it came when asked", async () => {
    const service = scriptedService({ data: rowsService(3) });
    const client = service.client();
    const progress: unknown[] = [];
    expect(await client.runEffect({ type: "data-url", deploymentId: 1 })).toBe(DATA);
    expect(await client.runEffect({ type: "token", deploymentId: 1, renew: false })).toBe("tok-1");
    // Kept: asked again, the same token and no second request.
    expect(await client.runEffect({ type: "token", deploymentId: 1, renew: false })).toBe("tok-1");
    expect(service.tokenRequests()).toHaveLength(1);
    const request = {
      method: "POST" as const,
      url: `${DATA}/cubejs-api/v1/load`,
      headers: { Authorization: "tok-1", "Content-Type": "application/json" },
      body: JSON.stringify({ query: { measures: ["orders.revenue"], limit: 3 } }),
    };
    const asText = (await client.runEffect({ type: "request", request })) as { text: string };
    const asBody = (await client.runEffect({ type: "request", request }, { asBytes: true })) as {
      status: number;
      body: string | Uint8Array;
    };
    expect(asBody.status).toBe(200);
    expect(dataResponseOf({ ...asBody, headers: {} }).text).toBe(asText.text);
    expect(JSON.parse(asText.text).data).toHaveLength(3);
    await client.runEffect(
      { type: "progress", progress: { phase: "loading", rows: 3, totalRows: 3, waits: 0 } },
      { onProgress: (p) => progress.push(p) },
    );
    expect(progress).toEqual([{ phase: "loading", rows: 3, totalRows: 3, waits: 0 }]);
  });

  it("after Stop, no effect is done: the worker's load ends as stopped", async () => {
    const service = scriptedService({ data: rowsService(3) });
    const controller = new AbortController();
    controller.abort();
    await expect(
      service
        .client()
        .runEffect({ type: "token", deploymentId: 1, renew: false }, { signal: controller.signal }),
    ).rejects.toMatchObject({ kind: "aborted" });
    expect(service.tokenRequests()).toHaveLength(0);
  });
});
