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
