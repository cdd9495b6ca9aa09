/**
 * createSyncDataClient as the Sheets server runs it: over the server's own UrlFetchApp transport
 * (destination check included), with the Apps Script fakes' limits: no streaming, about 60 s per
 * fetch, Utilities.sleep on the execution's clock, and 6 minutes per execution
 * (test/support/apps-script-limits.ts). No test waits for real.
 */
import { describe, expect, it } from "vitest";
import {
  createSyncDataClient,
  createSyncPlatformClient,
  DATA_REQUEST_TIMEOUT_MS,
  type DataQuery,
  isPlatformError,
  type PlatformError,
} from "../../src/core/index.js";
import {
  createUrlFetchTransport,
  type Destinations,
} from "../../src/hosts/sheets/server/url-fetch-transport.js";
import {
  type FetchAnswer,
  type FetchedRequest,
  fakeUrlFetchApp,
  fakeUtilitiesSleep,
} from "../support/apps-script.js";
import { ExecutionClock } from "../support/apps-script-limits.js";

const TENANT = "https://tenant.example.com";
const DATA = "https://data.example.com/cube/1";
const KEY = "sk-sheets-secret-9876";
const QUERY: DataQuery = { measures: ["orders.count"], dimensions: ["orders.status"] };

const ANNOTATION = {
  measures: { "orders.count": { title: "Orders Count", shortTitle: "Count", type: "number" } },
  dimensions: { "orders.status": { title: "Orders Status", shortTitle: "Status", type: "string" } },
  segments: {},
  timeDimensions: {},
};

type DataAnswer = (query: DataQuery, request: FetchedRequest) => FetchAnswer;

/** One Apps Script execution's world: a tenant and its data API behind the fake UrlFetchApp. */
function execution(data: DataAnswer, deploymentUrl = DATA) {
  const clock = new ExecutionClock();
  const requests: FetchedRequest[] = [];
  const sleeps: number[] = [];
  const json = (status: number, body: unknown, durationMs?: number): FetchAnswer => ({
    status,
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    ...(durationMs === undefined ? {} : { durationMs }),
  });
  const urlFetch = fakeUrlFetchApp({
    clock,
    record: (r) => requests.push(r),
    fetch: (r) => {
      if (r.url === `${TENANT}/api/v1/deployments/1`) return json(200, { id: 1, name: "P", deploymentUrl });
      if (r.url === `${TENANT}/api/v1/deployments/1/token`) return json(200, { cubeApiToken: "tok-sheets" });
      if (r.url === `${deploymentUrl}/cubejs-api/v1/load`) {
        return data((JSON.parse(r.payload ?? "{}") as { query: DataQuery }).query, r);
      }
      return json(404, { message: "no route" });
    },
  });
  const destinations: Destinations = { tenantBase: TENANT, chatUrl: null, dataBases: [] };
  const transport = createUrlFetchTransport(destinations, urlFetch as never);
  const utilities = fakeUtilitiesSleep(clock, sleeps);
  const platform = createSyncPlatformClient({
    baseUrl: TENANT,
    token: KEY,
    transport,
    sleep: utilities.sleep,
  });
  const client = createSyncDataClient({
    platform,
    transport,
    sleep: utilities.sleep,
    secrets: [KEY],
    now: () => clock.now,
    random: () => 0.5,
    remainingMs: () => clock.remaining(),
    onDataUrl: (_id, base) => destinations.dataBases?.push(base),
  });
  const run = <T>(work: () => T): T => clock.run("loadReportData", work);
  return { clock, requests, sleeps, client, run, json, destinations };
}

function thrown(work: () => unknown): PlatformError {
  try {
    work();
  } catch (e) {
    if (isPlatformError(e)) return e;
    throw e;
  }
  throw new Error("expected a PlatformError");
}

const page = (query: DataQuery, n: number) => ({
  query,
  data: Array.from({ length: n }, (_, i) => ({
    "orders.status": `s${(query.offset ?? 0) + i}`,
    "orders.count": "1",
  })),
  annotation: ANNOTATION,
  ...(query.total ? { total: n } : {}),
});

describe("the sync data client under the Apps Script fakes", () => {
  it("loads through UrlFetchApp: token, then the load call with the token alone, never the API key", () => {
    const w = execution((q) => w.json(200, page(q, 3)));
    const answer = w.run(() => w.client.load(1, QUERY));
    expect(answer.data).toHaveLength(3);
    const load = w.requests.find((r) => r.url.endsWith("/cubejs-api/v1/load"));
    expect(load?.method).toBe("POST");
    expect(load?.headers.Authorization).toBe("tok-sheets");
    expect(JSON.stringify(load)).not.toContain(KEY);
    expect(load?.contentType).toBe("application/json");
  });

  it("Continue wait: Utilities.sleep between asks, on the execution's clock, then the data", () => {
    let n = 0;
    const w = execution((q) =>
      ++n <= 3 ? w.json(200, { error: "Continue wait" }) : w.json(200, page(q, 1)),
    );
    const answer = w.run(() => w.client.load(1, QUERY));
    expect(answer.data).toHaveLength(1);
    expect(w.sleeps).toEqual([250, 500, 1000]);
  });

  it("stops with a timeout error of its own before Apps Script's 6 minutes end the execution", () => {
    // Each "Continue wait" takes 50 s to come (the service holds the request): the load cannot
    // finish within the execution, and says so while it still can.
    const w = execution(() => w.json(200, { error: "Continue wait" }, 50_000));
    const error = thrown(() => w.run(() => w.client.load(1, QUERY)));
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/try again/i);
    expect(w.clock.timeouts).toEqual([]);
    expect(w.clock.remaining()).toBeGreaterThan(0);
  });

  it("a data request that takes past UrlFetchApp's 60 s fails as a network error and is tried again", () => {
    let n = 0;
    const w = execution((q) => (++n === 1 ? w.json(200, page(q, 1), 61_000) : w.json(200, page(q, 2))));
    const answer = w.run(() => w.client.load(1, QUERY));
    expect(answer.data).toHaveLength(2);
    expect(n).toBe(2);
  });

  it("pages a long query within the execution, and asks each page once", () => {
    const w = execution((q) => w.json(200, page(q, q.limit ?? 0), 2_000));
    const client = w.client;
    const answer = w.run(() => client.load(1, { ...QUERY, limit: 120_000 }));
    expect(answer.data).toHaveLength(120_000);
    expect(w.requests.filter((r) => r.url.endsWith("/load"))).toHaveLength(3);
  });

  it("sends the token only to the data URL the tenant named, and only to its load call", () => {
    const w = execution((q) => w.json(200, page(q, 1)));
    w.run(() => w.client.load(1, QUERY));
    expect(w.destinations.dataBases).toEqual([DATA]);
    const urls = new Set(w.requests.map((r) => r.url));
    expect([...urls].sort()).toEqual(
      [
        `${TENANT}/api/v1/deployments/1`,
        `${TENANT}/api/v1/deployments/1/token`,
        `${DATA}/cubejs-api/v1/load`,
      ].sort(),
    );
  });

  it("a request is not started with less than a fetch's time left in the execution", () => {
    const w = execution((q) => w.json(200, page(q, 1)));
    w.clock.run("late", () => {
      w.clock.spend(6 * 60_000 - DATA_REQUEST_TIMEOUT_MS + 1_000);
      const error = thrown(() => w.client.load(1, QUERY));
      expect(error.kind).toBe("timeout");
    });
    expect(w.requests.filter((r) => r.url.endsWith("/load"))).toHaveLength(0);
  });
});
