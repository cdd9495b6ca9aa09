/**
 * The deployment's data API (platform-api.md part C, "Getting the data"), the service's side:
 * `GET /deployments/{id}` with its `deploymentUrl`, `POST /deployments/{id}/token` for a data token,
 * and under `{deploymentUrl}/cubejs-api/v1/` the REST `load` (with "Continue wait") and the SQL
 * `cubesql` stand-in. Errors of the data API are `{"error": "..."}`, as Cube writes them.
 */
import { randomBytes } from "node:crypto";
import type { CubeData, Row } from "./cubes.js";
import {
  annotationOf,
  canonical,
  cellText,
  checkMembers,
  loadRows,
  normalizedQuery,
  type Query,
  QueryError,
  readQuery,
  runQuery,
} from "./query.js";
import { HttpError, jsonResponse, readJsonBody } from "./respond.js";
import { parseSql } from "./sql.js";
import type { ApiKey, SandboxState } from "./state.js";

export const DEFAULT_TOKEN_SECONDS = 86_400;
export const MIN_TOKEN_SECONDS = 60;
export const DEFAULT_CONTINUE_WAIT_MS = 1_000;
/** Rows per `{"data": [...]}` line of a cubesql answer. */
export const CUBESQL_CHUNK_ROWS = 1_000;

export interface DataApiOptions {
  /** The clock (ms since the epoch): tokens expire by it, refreshes are dated by it. */
  now: () => number;
  /** The longest one load request waits on a running query before answering "Continue wait". */
  continueWaitMs: number;
  /** `--data-delay-ms`: every query runs at least this long. */
  dataDelayMs: number;
  /** The sandbox's own base URL: `deploymentUrl` is `${baseUrl}/data/{id}`. */
  baseUrl: () => string;
}

interface DataToken {
  deploymentId: number;
  expiresAt: number;
  securityContext: Record<string, unknown>;
}

/** A data-API error: status and `{"error"}`. */
class DataError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function dataErrorResponse(error: unknown): Response {
  if (error instanceof DataError) return jsonResponse(error.status, { error: error.message });
  if (error instanceof QueryError) return jsonResponse(400, { error: error.message });
  if (error instanceof HttpError) return jsonResponse(error.status, { error: error.message }, error.headers);
  throw error;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class DataApi {
  private readonly tokens = new Map<string, DataToken>();
  /** Running slow queries: how much of their run is left (ms), by deployment + query + security context. */
  private readonly jobs = new Map<string, { remaining: number }>();

  constructor(
    private readonly state: SandboxState,
    private readonly options: DataApiOptions,
  ) {}

  deploymentUrl(deploymentId: number): string {
    return `${this.options.baseUrl()}/data/${deploymentId}`;
  }

  /** GET /api/v1/deployments/{id}: the deployment with its `deploymentUrl`. */
  getDeployment(request: Request, deploymentId: number): Response {
    this.state.authorizeManagement(request, deploymentId);
    const deployment = this.state.deployments.get(deploymentId);
    if (!deployment) throw new HttpError(404, `No deployment ${deploymentId}.`);
    return jsonResponse(200, { ...deployment, deploymentUrl: this.deploymentUrl(deploymentId) });
  }

  /**
   * POST /api/v1/deployments/{id}/token `{expiresIn?}`: a data token for the key's security context.
   * The sandbox keeps it in memory; it is opaque and random.
   */
  async issueToken(request: Request, deploymentId: number): Promise<Response> {
    const key = this.state.authorizeManagement(request, deploymentId);
    if (!this.state.deployments.has(deploymentId)) throw new HttpError(404, `No deployment ${deploymentId}.`);
    const body = await readJsonBody(request);
    let seconds = DEFAULT_TOKEN_SECONDS;
    if (body !== undefined && body !== null) {
      const expiresIn =
        typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>).expiresIn : body;
      if (expiresIn !== undefined && expiresIn !== null) {
        if (
          typeof expiresIn !== "number" ||
          !Number.isInteger(expiresIn) ||
          expiresIn < MIN_TOKEN_SECONDS ||
          expiresIn > DEFAULT_TOKEN_SECONDS
        ) {
          const message = `expiresIn must be a whole number of seconds from ${MIN_TOKEN_SECONDS} to ${DEFAULT_TOKEN_SECONDS} (got ${JSON.stringify(expiresIn)}).`;
          throw new HttpError(400, message, { body: { error: message } });
        }
        seconds = expiresIn;
      }
    }
    // Forget expired tokens as new ones are issued, so a long-running sandbox does not grow.
    const now = this.options.now();
    for (const [t, record] of this.tokens) if (record.expiresAt <= now) this.tokens.delete(t);
    const token = `sbx-data-${randomBytes(24).toString("base64url")}`;
    const record = this.state.keys.get(key) as ApiKey;
    this.tokens.set(token, {
      deploymentId,
      expiresAt: now + seconds * 1000,
      securityContext: structuredClone(record.securityContext ?? {}),
    });
    return jsonResponse(200, { cubeApiToken: token });
  }

  /** The token of a data-API request: `Authorization: <token>` (or `Bearer <token>`), for this deployment, unexpired. */
  private authorize(request: Request, deploymentId: number): DataToken {
    const header = request.headers.get("authorization")?.trim();
    if (!header) throw new DataError(403, "Authorization header isn't set: send Authorization: <token>.");
    const token = header.replace(/^Bearer\s+/i, "");
    const found = this.tokens.get(token);
    if (!found) throw new DataError(403, "Invalid token.");
    if (found.expiresAt <= this.options.now()) throw new DataError(403, "Token expired: ask for a new one.");
    if (found.deploymentId !== deploymentId) {
      throw new DataError(403, `This token is for another deployment than ${deploymentId}.`);
    }
    return found;
  }

  private cubesOf(deploymentId: string): [number, CubeData[]] {
    const id = /^\d{1,15}$/.test(deploymentId) ? Number(deploymentId) : Number.NaN;
    const cubes = this.state.cubes.get(id);
    if (!cubes) throw new DataError(404, `No deployment ${deploymentId}.`);
    return [id, cubes];
  }

  /** The cube's rows this token may read (row-level security). */
  private visibleRows(cube: CubeData, context: Record<string, unknown>): readonly Row[] {
    const rules = Object.entries(cube.seed.rowLevelSecurity ?? {}).filter(
      ([attribute]) => attribute in context,
    );
    if (rules.length === 0) return cube.rows;
    const allowed = rules.map(([attribute, dimension]) => {
      const value = context[attribute];
      const list = Array.isArray(value) ? value : [value];
      return [dimension, new Set(list.map((v) => String(v)))] as const;
    });
    return cube.rows.filter((row) =>
      allowed.every(([dimension, values]) => row[dimension] != null && values.has(String(row[dimension]))),
    );
  }

  /** The query of a load or cubesql body: `{"query": ...}`. */
  private async body(request: Request): Promise<unknown> {
    let body: unknown;
    try {
      body = await readJsonBody(request);
    } catch (e) {
      if (e instanceof HttpError) throw new DataError(e.status, e.message);
      throw e;
    }
    if (typeof body !== "object" || body === null || !("query" in body)) {
      throw new DataError(400, 'Send a JSON body {"query": ...}.');
    }
    return (body as { query: unknown }).query;
  }

  /**
   * "Continue wait" (part C): a query on a slow cube (or with `--data-delay-ms`) runs for a while.
   * The first request starts a job; each request holds at most `continueWaitMs` of the job's run
   * and answers "Continue wait" when the job is not done by then; the request that gets the data
   * ends the job. The job's time runs while requests wait on it, so every refresh of the same slow
   * report sees the same number of "Continue wait" answers, however fast the client polls.
   * Answers true when the data may be sent now.
   */
  private async waitFor(
    deploymentId: number,
    cube: CubeData,
    query: Query,
    token: DataToken,
  ): Promise<boolean> {
    const delay = Math.max(cube.seed.delayMs ?? 0, this.options.dataDelayMs);
    if (delay <= 0) return true;
    const id = canonical([deploymentId, normalizedQuery(query), token.securityContext]);
    let job = this.jobs.get(id);
    if (!job) {
      job = { remaining: delay };
      this.jobs.set(id, job);
    }
    const step = Math.min(job.remaining, this.options.continueWaitMs);
    job.remaining -= step;
    const done = job.remaining <= 0;
    if (done) this.jobs.delete(id);
    await sleep(step);
    return done;
  }

  /** POST {deploymentUrl}/cubejs-api/v1/load. */
  async load(request: Request, deploymentIdText: string): Promise<Response> {
    try {
      const [deploymentId, cubes] = this.cubesOf(deploymentIdText);
      const token = this.authorize(request, deploymentId);
      const query = readQuery(await this.body(request));
      const cube = checkMembers(cubes, query);
      if (!(await this.waitFor(deploymentId, cube, query, token))) {
        return jsonResponse(200, { error: "Continue wait" });
      }
      const answer = runQuery(cubes, this.visibleRows(cube, token.securityContext), query);
      return jsonResponse(200, {
        query: normalizedQuery(query),
        data: loadRows(answer),
        annotation: annotationOf(cubes, query),
        lastRefreshTime: new Date(this.options.now()).toISOString(),
        ...(query.total ? { total: answer.total } : {}),
      });
    } catch (e) {
      return dataErrorResponse(e);
    }
  }

  /**
   * POST {deploymentUrl}/cubejs-api/v1/cubesql `{"query": "SELECT ..."}`: NDJSON, first the schema
   * line, then `{"data": [[...], ...]}` lines of up to 1,000 rows. Values are strings, as `load`'s.
   */
  async cubesql(request: Request, deploymentIdText: string): Promise<Response> {
    try {
      const [deploymentId, cubes] = this.cubesOf(deploymentIdText);
      const token = this.authorize(request, deploymentId);
      const sql = await this.body(request);
      if (typeof sql !== "string") throw new DataError(400, 'cubesql: send {"query": "SELECT ..."}.');
      const { query, columns } = parseSql(sql, cubes);
      const cube = checkMembers(cubes, query);
      const answer = runQuery(cubes, this.visibleRows(cube, token.securityContext), query);
      const schema = columns.map((c) => {
        const col = answer.columns.find((a) => a.key === c.key)!;
        const measure = cube.seed.measures.find((m) => `${cube.seed.name}.${m.name}` === c.key);
        const type =
          c.kind === "timeDimension"
            ? "Timestamp"
            : measure
              ? ["count", "countDistinct"].includes(measure.aggregation)
                ? "Int64"
                : "Double"
              : { string: "String", number: "Double", time: "Timestamp", boolean: "Boolean" }[col.type];
        return { name: c.name, column_type: type };
      });
      const lines = [JSON.stringify({ schema, lastRefreshTime: new Date(this.options.now()).toISOString() })];
      const rows = answer.rows.map((row) =>
        columns.map((c) => {
          const col = answer.columns.find((a) => a.key === c.key)!;
          return cellText(row[c.key] ?? null, col.type);
        }),
      );
      for (let i = 0; i < rows.length; i += CUBESQL_CHUNK_ROWS) {
        lines.push(JSON.stringify({ data: rows.slice(i, i + CUBESQL_CHUNK_ROWS) }));
      }
      return new Response(`${lines.join("\n")}\n`, {
        status: 200,
        headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Cache-Control": "no-store" },
      });
    } catch (e) {
      return dataErrorResponse(e);
    }
  }
}
