/**
 * The sandbox's state: the seed, held in memory. Every mutation is one synchronous step inside a
 * request, so concurrent requests cannot interleave halfway through one (Node runs one at a time).
 */
import type { Report } from "../core/schema.js";
import { type CubeData, cubeRows, type Row } from "./cubes.js";
import { HttpError, readAuthorization } from "./respond.js";
import type { Seed } from "./seed.js";

export type Deployment = Seed["deployments"][number];
export type Agent = Seed["agents"][number];
export type User = Seed["users"][number];
export type ApiKey = Seed["apiKeys"][number];

export class SandboxState {
  readonly deployments: Map<number, Deployment>;
  /** Reports by id, in seed order. */
  readonly reports: Map<number, Report>;
  readonly users: readonly User[];
  readonly agents: Map<string, Agent>;
  /** Each deployment's cubes with their rows (generated once, on the cube's first query). */
  readonly cubes: Map<number, CubeData[]>;
  /** The API keys as the seed gives them: security context and user id included. */
  readonly keys: Map<string, ApiKey>;
  private readonly apiKeys: Map<string, "all" | ReadonlySet<number>>;
  private readonly scimTokens: ReadonlySet<string>;
  private readonly agentKeys: ReadonlySet<string>;

  constructor(seed: Seed) {
    // A deep copy: the caller's seed object is never changed.
    const copy = structuredClone(seed);
    this.deployments = new Map(copy.deployments.map((d) => [d.id, d]));
    this.reports = new Map(copy.reports.map((r) => [r.id, r]));
    this.users = copy.users;
    this.agents = new Map(copy.agents.map((a) => [a.id, a]));
    this.apiKeys = new Map(
      copy.apiKeys.map((k) => [k.key, k.deployments === "all" ? "all" : new Set(k.deployments)]),
    );
    this.keys = new Map(copy.apiKeys.map((k) => [k.key, k]));
    this.cubes = new Map(copy.deployments.map((d) => [d.id, []]));
    for (const cube of copy.cubes) {
      // Generated on the cube's first query, not here: a sandbox started afresh (each preview test,
      // each Reset demo) is asked for few of its cubes, and the largest is 50,000 rows. The rows
      // are the same whenever they are made (cubeRows).
      let rows: Row[] | undefined;
      this.cubes.get(cube.deploymentId)?.push({
        seed: cube,
        get rows() {
          rows ??= cubeRows(cube);
          return rows;
        },
      });
    }
    this.scimTokens = new Set(copy.scimTokens);
    this.agentKeys = new Set(copy.agents.flatMap((a) => a.apiKeys));
  }

  /** Any credential the sandbox knows, whatever it is for. */
  private isKnown(token: string): boolean {
    return this.apiKeys.has(token) || this.scimTokens.has(token) || this.agentKeys.has(token);
  }

  /**
   * Management and build API (auth rules 2, 4, 7): `Bearer <API key>`. A credential the sandbox
   * knows for another purpose (a SCIM token, an agent-only key) is valid but not authorized: 403.
   */
  authorizeManagement(request: Request, deploymentId?: number): string {
    const cred = readAuthorization(request);
    if (!cred) throw new HttpError(401, "Missing credential: send Authorization: Bearer <API key>.");
    if (cred.scheme !== "bearer") {
      throw new HttpError(
        401,
        "Malformed credential: the management API takes Authorization: Bearer <API key>.",
      );
    }
    const scope = this.apiKeys.get(cred.token);
    if (!scope) {
      if (this.isKnown(cred.token)) {
        throw new HttpError(403, "This credential is not an API key for the management API.");
      }
      throw new HttpError(401, "Unknown or expired API key.");
    }
    if (deploymentId !== undefined && scope !== "all" && !scope.has(deploymentId)) {
      throw new HttpError(
        403,
        `This API key is scoped to other deployments: deployment ${deploymentId} is not among them.`,
      );
    }
    return cred.token;
  }

  /** Deployments an API key may see. */
  deploymentsFor(token: string): Deployment[] {
    const scope = this.apiKeys.get(token);
    return [...this.deployments.values()].filter((d) => scope === "all" || scope?.has(d.id));
  }

  /**
   * Provisioning API (auth rule 5): `Bearer` or `Api-Key` with a SCIM token. Another known
   * credential is valid but not authorized: 403.
   */
  authorizeScim(request: Request): void {
    const cred = readAuthorization(request);
    if (!cred) throw new HttpError(401, "Missing credential: send Authorization: Bearer <SCIM token>.");
    if (cred.scheme !== "bearer" && cred.scheme !== "api-key") {
      throw new HttpError(401, "Malformed credential: SCIM takes Authorization: Bearer <SCIM token>.");
    }
    if (this.scimTokens.has(cred.token)) return;
    if (this.isKnown(cred.token)) throw new HttpError(403, "This API key is not a SCIM token.");
    throw new HttpError(401, "Unknown or expired SCIM token.");
  }

  /**
   * Agent chat (auth rule 6, chat rule 6): `Api-Key <key>` where the agent lists the key. Bearer is
   * a malformed credential here (401). A known key the agent does not list, or an API key scoped to
   * other deployments than the agent's, is 403. Checked before the agent is looked up (401 first);
   * an unknown agent is 404.
   */
  authorizeAgent(request: Request, agentId: string): Agent {
    const cred = readAuthorization(request);
    if (!cred) throw new HttpError(401, "Missing credential: send Authorization: Api-Key <API key>.");
    if (cred.scheme !== "api-key") {
      throw new HttpError(
        401,
        "Malformed credential: the agent chat takes Authorization: Api-Key <API key>.",
      );
    }
    if (!this.isKnown(cred.token)) throw new HttpError(401, "Unknown or expired API key.");
    const agent = this.agents.get(agentId);
    if (!agent) throw new HttpError(404, `No agent "${agentId}".`);
    if (!agent.apiKeys.includes(cred.token)) {
      throw new HttpError(403, `This API key has no access to agent "${agentId}".`);
    }
    const scope = this.apiKeys.get(cred.token);
    if (scope && scope !== "all" && !scope.has(agent.deploymentId)) {
      throw new HttpError(
        403,
        `This API key is scoped to other deployments: deployment ${agent.deploymentId} (agent "${agentId}") is not among them.`,
      );
    }
    return agent;
  }
}
