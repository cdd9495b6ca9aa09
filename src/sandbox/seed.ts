/**
 * The seed file: everything the sandbox serves, as one JSON document, checked on load. Reports are
 * checked with the core's strict `ReportSchema` (platform-api.md, Report, to the letter); the rest of the shape is
 * the sandbox's own (docs/sandbox.md, "Seed format"). Unknown top-level fields are refused so that a typo
 * ("deployment" for "deployments") is named instead of silently ignored.
 */
// First: zod's jitless setting (core/zod.ts) before any schema here is built. In a page whose
// policy forbids eval (the preview), zod probes `new Function` when an object schema is built
// without it, and the browser reports the refused probe as a policy violation.
import "../core/zod.js";
import { z } from "zod";
import { ReportPlacementSchema, ReportSchema } from "../core/schema.js";
import { type CubeData, CubeSeed, cubeProblems } from "./cubes.js";
import { storedPlacements } from "./placement-rules.js";
import { checkMembers, QueryError, readQuery } from "./query.js";

/**
 * A placement's `resultChecksum` (platform-api.md part C): `{v, chunks: [{from, hash}], payload?}`,
 * opaque to the service. `to` on a chunk is deprecated and accepted.
 */
export const ResultChecksumSchema = z.strictObject({
  v: z.number().int().min(1),
  chunks: z
    .array(
      z.strictObject({
        from: z.number().int().min(0),
        hash: z.string().min(1).max(64),
        to: z.number().int().min(0).optional(),
      }),
    )
    .max(2000),
  payload: z.string().min(1).max(128).optional(),
});
export type ResultChecksum = z.output<typeof ResultChecksumSchema>;

/**
 * A report as the seed gives it: the core's strict Report, with `resultChecksum` kept on placements
 * (the core's schema drops fields it does not know; the sandbox stores and serves this one).
 */
const SeedReport = z.object({
  ...ReportSchema.shape,
  externalWorkbookPlacements: z
    .array(
      z.object({
        ...ReportPlacementSchema.shape,
        resultChecksum: ResultChecksumSchema.nullable().optional(),
      }),
    )
    .nullable()
    .optional(),
});

/** A security-context value: what a key's user attributes may hold (row-level security). */
const ContextValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.union([z.string(), z.number()])),
  z.null(),
]);

const DeploymentSeed = z.strictObject({ id: z.number().int(), name: z.string().min(1) });

const UserSeed = z.strictObject({
  id: z.number().int(),
  email: z.string().min(1),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  picture: z.string().nullable().optional(),
  /** SCIM `active`; true unless set. */
  active: z.boolean().optional(),
});

const ApiKeySeed = z.strictObject({
  key: z.string().min(1),
  /** "all" (unscoped) or the ids of the deployments the key is scoped to (auth rule 4). */
  deployments: z.union([z.literal("all"), z.array(z.number().int())]),
  /** Who calls with this key: the `refreshedByUserId` of a refresh (the report's owner when absent). */
  userId: z.number().int().optional(),
  /** The key's user attributes: a data token carries them, and cubes' `rowLevelSecurity` reads them. */
  securityContext: z.record(z.string().min(1), ContextValue).optional(),
});

const AgentSeed = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/, "agent id must be letters, digits, - or _"),
  deploymentId: z.number().int(),
  name: z.string().min(1),
  /** The API keys that have access to this agent (chat rule 6). */
  apiKeys: z.array(z.string().min(1)),
});

const SeedSchema = z
  .strictObject({
    deployments: z.array(DeploymentSeed),
    users: z.array(UserSeed).default([]),
    apiKeys: z.array(ApiKeySeed).default([]),
    scimTokens: z.array(z.string().min(1)).default([]),
    reports: z.array(SeedReport).default([]),
    agents: z.array(AgentSeed).default([]),
    /** The data API's cubes (docs/sandbox.md, "Seed format"). */
    cubes: z.array(CubeSeed).default([]),
    /** How long one data-API request waits on a running query before "Continue wait" (ms, default 1,000). */
    continueWaitMs: z.number().int().min(1).max(60_000).optional(),
  })
  .superRefine((seed, ctx) => {
    const deploymentIds = new Set<number>();
    seed.deployments.forEach((d, i) => {
      if (deploymentIds.has(d.id)) {
        ctx.addIssue({ code: "custom", path: ["deployments", i, "id"], message: `duplicate id ${d.id}` });
      }
      deploymentIds.add(d.id);
    });
    const known = (id: number) => deploymentIds.has(id);
    const userIds = new Set(seed.users.map((u) => u.id));
    seed.apiKeys.forEach((k, i) => {
      if (k.userId !== undefined && !userIds.has(k.userId)) {
        ctx.addIssue({
          code: "custom",
          path: ["apiKeys", i, "userId"],
          message: `no user has id ${k.userId}`,
        });
      }
      if (k.deployments === "all") return;
      k.deployments.forEach((id, j) => {
        if (!known(id)) {
          ctx.addIssue({
            code: "custom",
            path: ["apiKeys", i, "deployments", j],
            message: `no deployment has id ${id}`,
          });
        }
      });
    });
    const cubeNames = new Set<string>();
    const cubesByDeployment = new Map<number, CubeData[]>();
    seed.cubes.forEach((c, i) => {
      if (cubeNames.has(c.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["cubes", i, "name"],
          message: `duplicate cube name "${c.name}"`,
        });
      }
      cubeNames.add(c.name);
      if (!known(c.deploymentId)) {
        ctx.addIssue({
          code: "custom",
          path: ["cubes", i, "deploymentId"],
          message: `no deployment has id ${c.deploymentId}`,
        });
      }
      const problems = cubeProblems(c);
      for (const [path, message] of problems)
        ctx.addIssue({ code: "custom", path: ["cubes", i, ...path], message });
      // Members only: the rows are made when the sandbox starts.
      if (problems.length === 0) {
        const list = cubesByDeployment.get(c.deploymentId) ?? [];
        list.push({ seed: c, rows: [] });
        cubesByDeployment.set(c.deploymentId, list);
      }
    });
    const reportIds = new Set<number>();
    seed.reports.forEach((r, i) => {
      if (reportIds.has(r.id)) {
        ctx.addIssue({ code: "custom", path: ["reports", i, "id"], message: `duplicate report id ${r.id}` });
      }
      reportIds.add(r.id);
      if (!known(r.deploymentId)) {
        ctx.addIssue({
          code: "custom",
          path: ["reports", i, "deploymentId"],
          message: `no deployment has id ${r.deploymentId}`,
        });
      }
      // With cubes in the seed, a report's query must name members of its own deployment's cubes.
      if (seed.cubes.length > 0 && r.jsonQuery) {
        try {
          checkMembers(cubesByDeployment.get(r.deploymentId) ?? [], readQuery(r.jsonQuery));
        } catch (e) {
          if (!(e instanceof QueryError)) throw e;
          ctx.addIssue({ code: "custom", path: ["reports", i, "jsonQuery"], message: e.message });
        }
      }
      const placementIds = new Set<string>();
      storedPlacements(r).forEach((p, j) => {
        if (!p.id) return;
        if (placementIds.has(p.id)) {
          ctx.addIssue({
            code: "custom",
            path: ["reports", i, "externalWorkbookPlacements", j, "id"],
            message: `duplicate placement id "${p.id}" in one report`,
          });
        }
        placementIds.add(p.id);
      });
    });
    const agentIds = new Set<string>();
    seed.agents.forEach((a, i) => {
      if (agentIds.has(a.id)) {
        ctx.addIssue({ code: "custom", path: ["agents", i, "id"], message: `duplicate agent id "${a.id}"` });
      }
      agentIds.add(a.id);
      if (!known(a.deploymentId)) {
        ctx.addIssue({
          code: "custom",
          path: ["agents", i, "deploymentId"],
          message: `no deployment has id ${a.deploymentId}`,
        });
      }
    });
  });

/** A checked seed (defaults filled in). */
export type Seed = z.output<typeof SeedSchema>;
/** What a seed file may hold (optional lists may be left out). */
export type SeedInput = z.input<typeof SeedSchema>;

export class SeedError extends Error {
  override readonly name = "SeedError";
  /** The path of the first bad field, as `reports[3].publicId`, or "" for the whole document. */
  readonly field: string;
  constructor(message: string, field: string) {
    super(message);
    this.field = field;
  }
}

/** `["reports", 3, "publicId"]` -> `reports[3].publicId`. */
function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * Checks a seed: a parsed JSON value, or JSON text. Throws a `SeedError` whose message names the
 * bad field ("reports[3].publicId: ...").
 */
export function parseSeed(json: unknown): Seed {
  let value = json;
  if (typeof json === "string") {
    try {
      value = JSON.parse(json);
    } catch (e) {
      throw new SeedError(`The seed is not valid JSON: ${(e as Error).message}`, "");
    }
  }
  const result = SeedSchema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 5).map((issue) => {
    // An unknown key is reported on its parent object: name the key itself.
    const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
    const field = formatFieldPath(path);
    return { field, text: `${field || "(the whole seed)"}: ${issue.message}` };
  });
  const more =
    result.error.issues.length > issues.length ? ` (and ${result.error.issues.length - 5} more)` : "";
  throw new SeedError(`Invalid seed: ${issues.map((i) => i.text).join("; ")}${more}`, issues[0]?.field ?? "");
}
