/** The seed file's checks: every bad field is named by its path. */
import { describe, expect, it } from "vitest";
import { parseSeed, SeedError } from "../../src/sandbox/seed.js";
import { makeReport, seedWith } from "../support/sandbox-fixtures.js";

function problem(seed: unknown): SeedError {
  try {
    parseSeed(seed);
  } catch (e) {
    if (e instanceof SeedError) return e;
    throw e;
  }
  throw new Error("expected the seed to be refused");
}

const good = seedWith([makeReport(1, [])]);

describe("parseSeed", () => {
  it("accepts a good seed, as a value or as JSON text, and fills in the optional lists", () => {
    expect(parseSeed(good).reports).toHaveLength(1);
    expect(parseSeed(JSON.stringify(good))).toEqual(parseSeed(good));
    expect(parseSeed({ deployments: [] })).toEqual({
      deployments: [],
      users: [],
      apiKeys: [],
      scimTokens: [],
      reports: [],
      agents: [],
      cubes: [],
    });
  });

  const placed = (fields: object) => ({
    ...makeReport(1, []),
    externalWorkbookPlacements: [{ workbookId: "w", resultLocation: "A!B2", ...fields }],
  });

  it.each([
    [
      "a report field against the Report of platform-api.md",
      { ...good, reports: [makeReport(1, [], { publicId: "short" })] },
      "reports[0].publicId",
    ],
    [
      "a placement enum",
      { ...good, reports: [placed({ syncStatus: "STALE" })] },
      "reports[0].externalWorkbookPlacements[0].syncStatus",
    ],
    [
      "a missing required report field",
      { ...good, reports: [{ ...makeReport(1, []), name: undefined }] },
      "reports[0].name",
    ],
    ["an unknown top-level field", { ...good, deployment: [] }, "deployment"],
    ["a missing deployments list", { ...good, deployments: undefined }, "deployments"],
    [
      "a key scoped to an unknown deployment",
      { ...good, apiKeys: [{ key: "k", deployments: [42] }] },
      "apiKeys[0].deployments[0]",
    ],
    [
      "a key scope that is neither all nor a list",
      { ...good, apiKeys: [{ key: "k", deployments: "some" }] },
      "apiKeys[0].deployments",
    ],
    [
      "an agent's keys",
      { ...good, agents: [{ id: "a", deploymentId: 1, name: "A", apiKeys: "k" }] },
      "agents[0].apiKeys",
    ],
    [
      "an agent in an unknown deployment",
      { ...good, agents: [{ id: "a", deploymentId: 9, name: "A", apiKeys: [] }] },
      "agents[0].deploymentId",
    ],
    [
      "a report in an unknown deployment",
      { ...good, reports: [makeReport(1, [], { deploymentId: 9 })] },
      "reports[0].deploymentId",
    ],
    ["duplicate report ids", { ...good, reports: [makeReport(1, []), makeReport(1, [])] }, "reports[1].id"],
    [
      "duplicate placement ids",
      {
        ...good,
        reports: [
          {
            ...makeReport(1, []),
            externalWorkbookPlacements: [
              { workbookId: "w", resultLocation: "A!B2", id: "p" },
              { workbookId: "w", resultLocation: "A!C2", id: "p" },
            ],
          },
        ],
      },
      "reports[0].externalWorkbookPlacements[1].id",
    ],
    [
      "an unknown user field",
      { ...good, users: [{ id: 1, email: "a@b", nickname: "x" }] },
      "users[0].nickname",
    ],
  ])("names %s", (_what, seed, field) => {
    const e = problem(seed);
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it("names JSON that does not parse", () => {
    expect(problem("{ nope").message).toMatch(/not valid JSON/);
  });
});

describe("parseSeed: cubes, key attributes and placements' checksums", () => {
  const cube = {
    name: "orders",
    deploymentId: 1,
    dimensions: [
      { name: "region", title: "Region", type: "string" },
      { name: "amount", title: "Amount", type: "number" },
      { name: "day", title: "Day", type: "time" },
    ],
    measures: [{ name: "revenue", title: "Revenue", aggregation: "sum", of: "amount" }],
    rows: [{ region: "EU", amount: 3, day: "2024-01-02" }],
  };
  const withCubes = (cubes: unknown[], extra: object = {}) => ({
    ...seedWith([makeReport(1, [], { jsonQuery: '{"measures":["orders.revenue"]}' })]),
    cubes,
    ...extra,
  });

  it("accepts cubes with rows or a generator, keys with userId and securityContext, and keeps placements' resultChecksum", () => {
    const checksum = { v: 1, chunks: [{ from: 0, hash: "abc" }], payload: "x" };
    const parsed = parseSeed({
      ...withCubes([
        cube,
        {
          ...cube,
          name: "lines",
          rows: undefined,
          generator: { seed: 1, rows: 3, columns: { region: { pick: ["EU"] }, amount: { int: [1, 2] } } },
        },
      ]),
      apiKeys: [{ key: "k", deployments: [1], userId: 7, securityContext: { region: ["EU"] } }],
      reports: [
        makeReport(1, [{ workbookId: "w", resultLocation: "A!B2", resultChecksum: checksum } as never], {
          jsonQuery: '{"measures":["orders.revenue"]}',
        }),
      ],
    });
    expect(parsed.cubes).toHaveLength(2);
    expect(parsed.apiKeys[0]).toEqual({
      key: "k",
      deployments: [1],
      userId: 7,
      securityContext: { region: ["EU"] },
    });
    expect(parsed.reports[0]!.externalWorkbookPlacements![0]).toMatchObject({ resultChecksum: checksum });
  });

  it.each([
    ["an unknown cube field", withCubes([{ ...cube, colour: "red" }]), "cubes[0].colour"],
    ["duplicate cube names", withCubes([cube, cube]), "cubes[1].name"],
    ["a cube in an unknown deployment", withCubes([{ ...cube, deploymentId: 9 }]), "cubes[0].deploymentId"],
    [
      "a dimension type",
      withCubes([{ ...cube, dimensions: [{ name: "region", title: "Region", type: "text" }] }]),
      "cubes[0].dimensions[0].type",
    ],
    [
      "a measure of an unknown dimension",
      withCubes([{ ...cube, measures: [{ name: "m", title: "M", aggregation: "sum", of: "price" }] }]),
      "cubes[0].measures[0].of",
    ],
    [
      "a sum over text",
      withCubes([{ ...cube, measures: [{ name: "m", title: "M", aggregation: "sum", of: "region" }] }]),
      "cubes[0].measures[0].of",
    ],
    [
      "a member named twice",
      withCubes([{ ...cube, measures: [{ name: "region", title: "R", aggregation: "count" }] }]),
      "cubes[0].measures[0].name",
    ],
    [
      "a row with an unknown column",
      withCubes([{ ...cube, rows: [{ city: "Oslo" }] }]),
      "cubes[0].rows[0].city",
    ],
    ["a row with a bad date", withCubes([{ ...cube, rows: [{ day: "soon" }] }]), "cubes[0].rows[0].day"],
    [
      "a generator column that uses a later one",
      withCubes([
        {
          ...cube,
          rows: undefined,
          generator: {
            seed: 1,
            rows: 1,
            columns: { amount: { multiply: ["amount", "region"] }, region: { pick: ["EU"] } },
          },
        },
      ]),
      "cubes[0].generator.columns.amount",
    ],
    [
      "rows and a generator at once",
      withCubes([{ ...cube, generator: { seed: 1, rows: 1, columns: {} } }]),
      "cubes[0].generator",
    ],
    [
      "a report query naming a member no cube has",
      withCubes([cube], { reports: [makeReport(1, [], { jsonQuery: '{"measures":["orders.profit"]}' })] }),
      "reports[0].jsonQuery",
    ],
    [
      "a report query naming a cube of another deployment",
      withCubes([{ ...cube, deploymentId: 2 }]),
      "reports[0].jsonQuery",
    ],
    [
      "a key's unknown user",
      withCubes([cube], { apiKeys: [{ key: "k", deployments: "all", userId: 99 }] }),
      "apiKeys[0].userId",
    ],
    ["continueWaitMs of 0", withCubes([cube], { continueWaitMs: 0 }), "continueWaitMs"],
    [
      "a malformed placement checksum",
      withCubes([cube], {
        reports: [
          makeReport(
            1,
            [{ workbookId: "w", resultLocation: "A!B2", resultChecksum: { v: 0, chunks: [] } } as never],
            {
              jsonQuery: '{"measures":["orders.revenue"]}',
            },
          ),
        ],
      }),
      "reports[0].externalWorkbookPlacements[0].resultChecksum.v",
    ],
  ])("names %s", (_what, seed, field) => {
    const e = problem(seed);
    expect(e.field).toBe(field);
    expect(e.message).toContain(field);
  });

  it("a seed without cubes leaves report queries unchecked (no data API to check them against)", () => {
    expect(
      parseSeed(seedWith([makeReport(1, [], { jsonQuery: '{"measures":["nowhere.count"]}' })])).reports,
    ).toHaveLength(1);
  });
});
