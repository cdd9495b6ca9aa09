/**
 * The data API as the sandbox serves it (platform-api.md part C, "Getting the data"), rule by rule,
 * over loopback HTTP. The sandbox runs in-process (`startSandbox`) so its clock can be injected:
 * token expiry is tested by moving the clock, never by waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SeedInput } from "../../src/sandbox/seed.js";
import { parseSeed } from "../../src/sandbox/seed.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";
import { call, KEY, SCOPED_KEY, seedWith } from "../support/sandbox-fixtures.js";

const EU_KEY = "sk-test-eu-0005";
const OTHER_KEY = "sk-test-dep2-0006";

const seed: SeedInput = seedWith([], {
  apiKeys: [
    { key: KEY, deployments: "all" },
    { key: SCOPED_KEY, deployments: [1] },
    { key: EU_KEY, deployments: [1], securityContext: { region: ["EU"] } },
    { key: OTHER_KEY, deployments: [2] },
  ],
  continueWaitMs: 20,
  cubes: [
    {
      name: "sales",
      deploymentId: 1,
      title: "Sales",
      rowLevelSecurity: { region: "region" },
      dimensions: [
        { name: "region", title: "Region", type: "string" },
        { name: "city", title: "City", type: "string" },
        { name: "day", title: "Sale day", shortTitle: "Day", type: "time" },
        { name: "amount", title: "Amount", type: "number" },
        { name: "customer", title: "Customer", type: "string" },
        { name: "paid", title: "Paid", type: "boolean" },
      ],
      measures: [
        { name: "revenue", title: "Revenue", aggregation: "sum", of: "amount", format: "currency" },
        { name: "count", title: "Sales", aggregation: "count", type: "count" },
        { name: "customers", title: "Customers", aggregation: "countDistinct", of: "customer" },
        { name: "avg", title: "Average", aggregation: "avg", of: "amount" },
        { name: "smallest", title: "Smallest", aggregation: "min", of: "amount" },
        { name: "largest", title: "Largest", aggregation: "max", of: "amount" },
      ],
      rows: [
        { region: "EU", city: "Berlin", day: "2024-01-03", amount: 10.5, customer: "a", paid: true },
        { region: "EU", city: "Paris", day: "2024-01-20", amount: 20, customer: "b", paid: false },
        { region: "EU", city: "Berlin", day: "2024-02-14", amount: 30, customer: "a", paid: true },
        { region: "NA", city: "Boston", day: "2024-04-02", amount: 40, customer: "c", paid: true },
        { region: "NA", city: "Denver", day: "2024-07-30", amount: 50.25, customer: "d", paid: true },
        {
          region: "APAC",
          city: "Tokyo",
          day: "2024-12-31T23:00:00",
          amount: 60,
          customer: null,
          paid: false,
        },
        { region: "APAC", city: null, day: "2023-12-31", amount: 70, customer: "e", paid: true },
      ],
    },
    {
      name: "big",
      deploymentId: 1,
      dimensions: [
        { name: "id", title: "Id", type: "number" },
        { name: "grp", title: "Group", type: "string" },
      ],
      measures: [{ name: "count", title: "Count", aggregation: "count" }],
      generator: { seed: 1, rows: 12_345, columns: { id: { sequence: {} }, grp: { pick: ["a", "b", "c"] } } },
    },
    {
      name: "slow",
      deploymentId: 1,
      delayMs: 50,
      dimensions: [{ name: "k", title: "K", type: "string" }],
      measures: [{ name: "count", title: "Count", aggregation: "count" }],
      rows: [{ k: "x" }, { k: "y" }],
    },
    {
      name: "stock",
      deploymentId: 2,
      dimensions: [{ name: "site", title: "Site", type: "string" }],
      measures: [{ name: "count", title: "Count", aggregation: "count" }],
      rows: [{ site: "Dublin" }],
    },
  ],
});

let clock = Date.parse("2024-06-01T12:00:00.000Z");
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: parseSeed(seed), now: () => clock });
});
afterAll(async () => {
  await sandbox?.close();
});

async function token(key = KEY, deploymentId = 1, body?: object): Promise<string> {
  const answer = await call(sandbox.url, `/api/v1/deployments/${deploymentId}/token`, {
    method: "POST",
    auth: `Bearer ${key}`,
    body,
  });
  expect(answer.status).toBe(200);
  return answer.json.cubeApiToken;
}

function load(tok: string | null, query: unknown, deploymentId = 1) {
  return call(sandbox.url, `/data/${deploymentId}/cubejs-api/v1/load`, {
    method: "POST",
    auth: tok,
    body: { query },
  });
}

/** Loads, answering "Continue wait" as the platform's client does (again at once); counts the waits. */
async function loadAll(tok: string, query: unknown, deploymentId = 1) {
  let waits = 0;
  for (;;) {
    const answer = await load(tok, query, deploymentId);
    if (answer.status === 200 && answer.json.error === "Continue wait") {
      waits++;
      continue;
    }
    return { answer, waits };
  }
}

describe("GET /api/v1/deployments/{id}", () => {
  it("answers the deployment with its deploymentUrl under the sandbox", async () => {
    const answer = await call(sandbox.url, "/api/v1/deployments/2");
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ id: 2, name: "Staging", deploymentUrl: `${sandbox.url}/data/2` });
  });

  it("is 401 without a key, 403 for a key scoped to other deployments, 404 for an unknown deployment", async () => {
    expect((await call(sandbox.url, "/api/v1/deployments/1", { auth: null })).status).toBe(401);
    expect((await call(sandbox.url, "/api/v1/deployments/2", { auth: `Bearer ${SCOPED_KEY}` })).status).toBe(
      403,
    );
    expect((await call(sandbox.url, "/api/v1/deployments/9")).status).toBe(404);
  });
});

describe("POST /api/v1/deployments/{id}/token", () => {
  it("answers {cubeApiToken}, a different opaque token each time", async () => {
    const a = await token();
    const b = await token();
    expect(typeof a).toBe("string");
    expect(a).not.toBe(b);
    expect(a).not.toContain(KEY);
  });

  it("is 401 without a key and 403 for a key scoped to other deployments", async () => {
    const path = "/api/v1/deployments/2/token";
    expect((await call(sandbox.url, path, { method: "POST", auth: null })).status).toBe(401);
    expect((await call(sandbox.url, path, { method: "POST", auth: "Bearer sk-unknown" })).status).toBe(401);
    expect((await call(sandbox.url, path, { method: "POST", auth: `Bearer ${SCOPED_KEY}` })).status).toBe(
      403,
    );
  });

  it.each([59, 86_401, 90.5, "600", true])("refuses expiresIn %s with 400 {error}", async (expiresIn) => {
    const answer = await call(sandbox.url, "/api/v1/deployments/1/token", {
      method: "POST",
      body: { expiresIn },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(/expiresIn/);
  });

  it("lasts expiresIn seconds (default 24 hours): an expired token is 403 {error}", async () => {
    const short = await token(KEY, 1, { expiresIn: 60 });
    const long = await token(KEY, 1);
    const query = { measures: ["sales.count"] };
    expect((await load(short, query)).status).toBe(200);
    clock += 61_000;
    const expired = await load(short, query);
    expect(expired.status).toBe(403);
    expect(expired.json).toEqual({ error: expect.stringMatching(/expired/i) });
    expect((await load(long, query)).status).toBe(200);
    clock += 86_400_000;
    expect((await load(long, query)).status).toBe(403);
  });
});

describe("POST {deploymentUrl}/cubejs-api/v1/load", () => {
  let tok: string;
  beforeAll(async () => {
    tok = await token();
  });

  it("answers Cube's shape: rows keyed by member with values as strings, null kept, the annotation", async () => {
    const answer = await load(tok, {
      dimensions: ["sales.city"],
      measures: ["sales.revenue", "sales.count"],
      order: { "sales.city": "asc" },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual([
      { "sales.city": "Berlin", "sales.revenue": "40.5", "sales.count": "2" },
      { "sales.city": "Boston", "sales.revenue": "40", "sales.count": "1" },
      { "sales.city": "Denver", "sales.revenue": "50.25", "sales.count": "1" },
      { "sales.city": "Paris", "sales.revenue": "20", "sales.count": "1" },
      { "sales.city": "Tokyo", "sales.revenue": "60", "sales.count": "1" },
      { "sales.city": null, "sales.revenue": "70", "sales.count": "1" },
    ]);
    expect(answer.json.annotation).toEqual({
      measures: {
        "sales.revenue": {
          title: "Sales Revenue",
          shortTitle: "Revenue",
          type: "number",
          format: "currency",
        },
        "sales.count": { title: "Sales Sales", shortTitle: "Sales", type: "count" },
      },
      dimensions: { "sales.city": { title: "Sales City", shortTitle: "City", type: "string" } },
      segments: {},
      timeDimensions: {},
    });
    expect(answer.json.lastRefreshTime).toBe(new Date(clock).toISOString());
    expect(answer.json.query).toMatchObject({ dimensions: ["sales.city"], limit: 10_000 });
    expect(answer.json).not.toHaveProperty("total");
  });

  it("keys a time dimension by <member>.<granularity> and <member>, as zone-less local ISO date-times", async () => {
    const answer = await load(tok, {
      measures: ["sales.count"],
      timeDimensions: [
        { dimension: "sales.day", granularity: "quarter", dateRange: ["2024-01-01", "2024-12-31"] },
      ],
    });
    expect(answer.json.data).toEqual([
      {
        "sales.day.quarter": "2024-01-01T00:00:00.000",
        "sales.day": "2024-01-01T00:00:00.000",
        "sales.count": "3",
      },
      {
        "sales.day.quarter": "2024-04-01T00:00:00.000",
        "sales.day": "2024-04-01T00:00:00.000",
        "sales.count": "1",
      },
      {
        "sales.day.quarter": "2024-07-01T00:00:00.000",
        "sales.day": "2024-07-01T00:00:00.000",
        "sales.count": "1",
      },
      {
        "sales.day.quarter": "2024-10-01T00:00:00.000",
        "sales.day": "2024-10-01T00:00:00.000",
        "sales.count": "1",
      },
    ]);
    expect(Object.keys(answer.json.annotation.timeDimensions).sort()).toEqual([
      "sales.day",
      "sales.day.quarter",
    ]);
    expect(answer.json.annotation.timeDimensions["sales.day"]).toMatchObject({
      shortTitle: "Day",
      type: "time",
    });
  });

  it.each([
    ["day", "2024-01-03T00:00:00.000"],
    ["week", "2024-01-01T00:00:00.000"],
    ["month", "2024-01-01T00:00:00.000"],
    ["year", "2024-01-01T00:00:00.000"],
  ])("truncates to the %s", async (granularity, first) => {
    const answer = await load(tok, {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.day", granularity, dateRange: ["2024-01-01", "2024-01-10"] }],
    });
    expect(answer.json.data).toEqual([
      { [`sales.day.${granularity}`]: first, "sales.day": first, "sales.count": "1" },
    ]);
  });

  it("a time dimension without granularity only narrows the rows (no column)", async () => {
    const answer = await load(tok, {
      measures: ["sales.count"],
      timeDimensions: [{ dimension: "sales.day", dateRange: ["2023-12-31", "2024-01-31"] }],
    });
    expect(answer.json.data).toEqual([{ "sales.count": "3" }]);
  });

  it("aggregates sum, count, countDistinct, avg, min and max over each group", async () => {
    const answer = await load(tok, {
      dimensions: ["sales.region"],
      measures: [
        "sales.revenue",
        "sales.count",
        "sales.customers",
        "sales.avg",
        "sales.smallest",
        "sales.largest",
      ],
      filters: [{ member: "sales.region", operator: "equals", values: ["EU"] }],
    });
    expect(answer.json.data).toEqual([
      {
        "sales.region": "EU",
        "sales.revenue": "60.5",
        "sales.count": "3",
        "sales.customers": "2",
        "sales.avg": "20.166667",
        "sales.smallest": "10.5",
        "sales.largest": "30",
      },
    ]);
  });

  it.each([
    [{ member: "sales.region", operator: "equals", values: ["EU", "NA"] }, 5],
    [{ member: "sales.region", operator: "notEquals", values: ["EU"] }, 4],
    [{ member: "sales.city", operator: "contains", values: ["ER"] }, 3],
    [{ member: "sales.city", operator: "notContains", values: ["er"] }, 4],
    [{ member: "sales.amount", operator: "gt", values: ["40"] }, 3],
    [{ member: "sales.amount", operator: "gte", values: ["40"] }, 4],
    [{ member: "sales.amount", operator: "lt", values: ["20"] }, 1],
    [{ member: "sales.amount", operator: "lte", values: ["20"] }, 2],
    [{ member: "sales.city", operator: "set" }, 6],
    [{ member: "sales.city", operator: "notSet" }, 1],
    [{ member: "sales.day", operator: "inDateRange", values: ["2024-01-01", "2024-02-14"] }, 3],
    [{ member: "sales.paid", operator: "equals", values: ["false"] }, 2],
    [
      {
        or: [
          { member: "sales.region", operator: "equals", values: ["NA"] },
          { member: "sales.city", operator: "equals", values: ["Tokyo"] },
        ],
      },
      3,
    ],
    [{ member: "sales.count", operator: "gt", values: ["1"] }, 2],
  ])("filters %j: %i sales", async (filter, count) => {
    const answer = await load(tok, { measures: ["sales.count"], filters: [filter] });
    expect(answer.status).toBe(200);
    if ("member" in filter && filter.member === "sales.count") {
      // A filter on a measure applies to the answer's rows: here the one total row (7 > 1).
      expect(answer.json.data).toEqual([{ "sales.count": "7" }]);
      return;
    }
    expect(answer.json.data).toEqual([{ "sales.count": String(count) }]);
  });

  it("orders by an object or a list of pairs", async () => {
    const byObject = await load(tok, {
      dimensions: ["sales.city"],
      measures: ["sales.revenue"],
      order: { "sales.revenue": "desc" },
      limit: 2,
    });
    expect(byObject.json.data.map((r: Record<string, string>) => r["sales.city"])).toEqual([null, "Tokyo"]);
    const byPairs = await load(tok, {
      dimensions: ["sales.region", "sales.city"],
      order: [
        ["sales.region", "desc"],
        ["sales.city", "asc"],
      ],
    });
    expect(byPairs.json.data.map((r: Record<string, string>) => r["sales.city"])).toEqual([
      "Boston",
      "Denver",
      "Berlin",
      "Paris",
      "Tokyo",
      null,
    ]);
  });

  it("accepts the query as a JSON string, and the token after Bearer", async () => {
    const answer = await load(`Bearer ${tok}`, JSON.stringify({ measures: ["sales.count"] }));
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual([{ "sales.count": "7" }]);
  });

  it("returns at most 10,000 rows without a limit; pages with limit and offset; total counts them all", async () => {
    const query = { dimensions: ["big.id"], order: { "big.id": "asc" } };
    const first = await load(tok, { ...query, total: true });
    expect(first.json.data).toHaveLength(10_000);
    expect(first.json.total).toBe(12_345);
    const page = await load(tok, { ...query, limit: 5_000, offset: 10_000, total: true });
    expect(page.json.data).toHaveLength(2_345);
    expect(page.json.data[0]).toEqual({ "big.id": "10001" });
    expect(page.json.total).toBe(12_345);
    expect((await load(tok, { ...query, limit: 50_000 })).json.data).toHaveLength(12_345);
  });

  it("refuses a limit above 50,000 with 400 {error}", async () => {
    const answer = await load(tok, { dimensions: ["big.id"], limit: 50_001 });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: expect.stringMatching(/50000/) });
  });

  it("names an unknown member in a 400 {error}; a cube of another deployment is unknown", async () => {
    const unknown = await load(tok, { measures: ["sales.profit"] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain("sales.profit");
    expect(unknown.json).not.toHaveProperty("message");
    const foreign = await load(tok, { measures: ["stock.count"] });
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toContain("stock.count");
  });

  it.each([
    [{ measures: ["sales.count"], segments: ["sales.big"] }, /Segments/],
    [
      { measures: ["sales.count"], timeDimensions: [{ dimension: "sales.day", granularity: "hour" }] },
      /granularity/,
    ],
    [
      { measures: ["sales.count"], filters: [{ member: "sales.city", operator: "like", values: ["x"] }] },
      /operator/,
    ],
    [{ measures: ["sales.count"], colour: "red" }, /colour/],
    [{ measures: ["sales.count", "big.count"] }, /join/],
    ["{not json", /JSON/],
  ])("refuses an invalid query with 400 {error}: %j", async (query, pattern) => {
    const answer = await load(tok, query);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatch(pattern);
  });

  it("is 403 {error} without a token, with an unknown token, or with a token of another deployment", async () => {
    const query = { measures: ["sales.count"] };
    for (const auth of [null, "nope", `Bearer ${KEY}`, await token(OTHER_KEY, 2)]) {
      const answer = await load(auth, query);
      expect(answer.status, String(auth)).toBe(403);
      expect(typeof answer.json.error).toBe("string");
    }
  });
});

describe("Continue wait", () => {
  it("a slow cube answers 200 {error: 'Continue wait'} while its query runs: the same count on every run", async () => {
    const tok = await token();
    const query = { dimensions: ["slow.k"], measures: ["slow.count"] };
    // delayMs 50 with holds of at most 20 ms: 20 + 20 + 10, the third request gets the data.
    for (let run = 0; run < 3; run++) {
      const { answer, waits } = await loadAll(tok, query);
      expect(waits).toBe(2);
      expect(answer.json.data).toHaveLength(2);
    }
    // A query on a quick cube never waits.
    expect((await loadAll(tok, { measures: ["sales.count"] })).waits).toBe(0);
  });

  it("a job is one query for one security context: another context starts its own", async () => {
    const query = { measures: ["slow.count"] };
    const all = await token();
    const eu = await token(EU_KEY);
    const first = await load(all, query);
    expect(first.json).toEqual({ error: "Continue wait" });
    // The EU key's job starts from the beginning: its own two waits.
    expect((await loadAll(eu, query)).waits).toBe(2);
    // The first job went on where it stopped: one wait left.
    expect((await loadAll(all, query)).waits).toBe(1);
  });

  it("--data-delay-ms makes every query slow", async () => {
    const slow = await startSandbox({ seed: parseSeed(seed), dataDelayMs: 30, continueWaitMs: 10 });
    try {
      const answer = await call(slow.url, "/api/v1/deployments/1/token", { method: "POST" });
      const tok = answer.json.cubeApiToken as string;
      let waits = 0;
      for (;;) {
        const r = await call(slow.url, "/data/1/cubejs-api/v1/load", {
          method: "POST",
          auth: tok,
          body: { query: { measures: ["sales.count"] } },
        });
        if (r.json.error !== "Continue wait") {
          expect(r.json.data).toEqual([{ "sales.count": "7" }]);
          break;
        }
        waits++;
      }
      expect(waits).toBe(2);
    } finally {
      await slow.close();
    }
  });
});

describe("row-level security", () => {
  it("a key's security context narrows the rows its tokens load; the same query, different rows", async () => {
    const query = {
      dimensions: ["sales.region"],
      measures: ["sales.count"],
      order: { "sales.region": "asc" },
    };
    const all = await load(await token(), query);
    const eu = await load(await token(EU_KEY), query);
    expect(all.json.data.map((r: Record<string, string>) => r["sales.region"])).toEqual(["APAC", "EU", "NA"]);
    expect(eu.json.data).toEqual([{ "sales.region": "EU", "sales.count": "3" }]);
    // A cube without rowLevelSecurity is not narrowed.
    expect((await load(await token(EU_KEY), { measures: ["big.count"] })).json.data).toEqual([
      { "big.count": "12345" },
    ]);
  });
});

describe("POST {deploymentUrl}/cubejs-api/v1/cubesql", () => {
  function cubesql(tok: string | null, sql: unknown) {
    return call(sandbox.url, "/data/1/cubejs-api/v1/cubesql", {
      method: "POST",
      auth: tok,
      body: { query: sql },
    });
  }
  const lines = (text: string) =>
    text
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));

  it("answers NDJSON: the schema line, then the rows in data chunks of 1,000", async () => {
    const answer = await cubesql(
      await token(),
      "SELECT id, grp AS g FROM big WHERE grp IN ('a', 'b') ORDER BY id LIMIT 2500",
    );
    expect(answer.status).toBe(200);
    const [head, ...chunks] = lines(answer.text);
    expect(head).toEqual({
      schema: [
        { name: "id", column_type: "Double" },
        { name: "g", column_type: "String" },
      ],
      lastRefreshTime: new Date(clock).toISOString(),
    });
    expect(chunks.map((c) => c.data.length)).toEqual([1000, 1000, 500]);
    expect(chunks[0].data[0]).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^[ab]$/)]);
  });

  it("reads aggregates, DATE_TRUNC, WHERE, GROUP BY and ORDER BY as the load query they stand for", async () => {
    const tok = await token();
    const answer = await cubesql(
      tok,
      "SELECT region, DATE_TRUNC('month', day) AS month, SUM(revenue) AS revenue FROM sales WHERE amount >= 20 AND city IS NOT NULL GROUP BY 1, 2 ORDER BY revenue DESC LIMIT 3",
    );
    const [head, chunk] = lines(answer.text);
    expect(head.schema).toEqual([
      { name: "region", column_type: "String" },
      { name: "month", column_type: "Timestamp" },
      { name: "revenue", column_type: "Double" },
    ]);
    expect(chunk.data).toEqual([
      ["APAC", "2024-12-01T00:00:00.000", "60"],
      ["NA", "2024-07-01T00:00:00.000", "50.25"],
      ["NA", "2024-04-01T00:00:00.000", "40"],
    ]);
  });

  it("row-level security applies to SQL too", async () => {
    const answer = await cubesql(await token(EU_KEY), "SELECT MEASURE(count) AS n FROM sales");
    expect(lines(answer.text)[1].data).toEqual([["3"]]);
  });

  it.each([
    "SELECT * FROM sales",
    "SELECT city FROM sales JOIN big ON 1 = 1",
    "SELECT nothing FROM sales",
    "DELETE FROM sales",
    "SELECT city FROM sales LIMIT 50001",
  ])("anything else is 400 {error}: %s", async (sql) => {
    const answer = await cubesql(await token(), sql);
    expect(answer.status).toBe(400);
    expect(typeof answer.json.error).toBe("string");
  });

  it("is 403 without a token", async () => {
    expect((await cubesql(null, "SELECT city FROM sales")).status).toBe(403);
  });
});

describe("CORS", () => {
  it("a preflight allows PUT (refresh, connect-workbook) besides GET, POST and DELETE", async () => {
    const answer = await call(sandbox.url, "/api/v1/deployments/1/reports/1/refresh", {
      method: "OPTIONS",
      auth: null,
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-methods")).toMatch(/\bPUT\b/);
  });
});

describe("the data API's other answers", () => {
  it("an unknown deployment is 404 and a wrong method 405, both with {error}", async () => {
    const tok = await token();
    const unknown = await call(sandbox.url, "/data/9/cubejs-api/v1/load", {
      method: "POST",
      auth: tok,
      body: {},
    });
    expect(unknown.status).toBe(404);
    expect(typeof unknown.json.error).toBe("string");
    const wrong = await call(sandbox.url, "/data/1/cubejs-api/v1/load", { method: "GET", auth: tok });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect(typeof wrong.json.error).toBe("string");
    const noQuery = await call(sandbox.url, "/data/1/cubejs-api/v1/load", {
      method: "POST",
      auth: tok,
      body: { q: 1 },
    });
    expect(noQuery.status).toBe(400);
    expect(noQuery.json.error).toMatch(/query/);
  });
});
