/**
 * The provisioning API: `GET /api/scim/v2/Users` as a SCIM 2.0 ListResponse (RFC 7644 3.4.2).
 * Errors use the SCIM error shape (RFC 7644 3.12) and also carry `message`, like every error here.
 */
import { HttpError, jsonResponse } from "./respond.js";
import type { SandboxState, User } from "./state.js";

const LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";

/** The most resources one page holds; also the page size when `count` is not sent. */
const SCIM_MAX_COUNT = 100;

/** An error in SCIM's shape: `schemas`, `status` (a string), `scimType`, `detail`, and `message`. */
export function scimError(status: number, detail: string, scimType?: string): HttpError {
  return new HttpError(status, detail, {
    body: { schemas: [ERROR], status: String(status), ...(scimType ? { scimType } : {}), detail },
    headers: { "Content-Type": "application/scim+json; charset=utf-8" },
  });
}

/** Re-shapes an auth error (401/403) into SCIM's error body. */
export function asScimError(error: unknown): unknown {
  if (error instanceof HttpError && !("schemas" in error.body)) return scimError(error.status, error.message);
  return error;
}

/** An integer query parameter; absent -> undefined; anything but an integer -> 400 invalidValue. */
function intParam(params: URLSearchParams, name: string): number | undefined {
  const text = params.get(name);
  if (text === null || text.trim() === "") return undefined;
  if (!/^[+-]?\d{1,15}$/.test(text.trim())) {
    throw scimError(400, `${name} must be an integer (got "${text}").`, "invalidValue");
  }
  return Number(text.trim());
}

function toScimUser(user: User, baseUrl: string) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ");
  return {
    schemas: [USER],
    id: String(user.id),
    userName: user.email,
    name: {
      givenName: user.firstName ?? null,
      familyName: user.lastName ?? null,
      formatted: name || null,
    },
    displayName: name || user.email,
    emails: [{ value: user.email, type: "work", primary: true }],
    active: user.active ?? true,
    meta: { resourceType: "User", location: `${baseUrl}/api/scim/v2/Users/${user.id}` },
  };
}

/**
 * RFC 7644 3.4.2.4: `startIndex` is 1-based and a value below 1 reads as 1; `count` below 0 reads
 * as 0 (no resources, `totalResults` still given); a count above `SCIM_MAX_COUNT` reads as the
 * maximum. A `filter` is not supported: 400 invalidFilter rather than an unfiltered answer.
 */
export function listScimUsers(
  state: SandboxState,
  request: Request,
  params: URLSearchParams,
  baseUrl: string,
): Response {
  try {
    state.authorizeScim(request);
  } catch (e) {
    throw asScimError(e);
  }
  if (params.has("filter"))
    throw scimError(400, "Filtering is not supported by the sandbox.", "invalidFilter");
  const startIndex = Math.max(1, intParam(params, "startIndex") ?? 1);
  const count = Math.min(SCIM_MAX_COUNT, Math.max(0, intParam(params, "count") ?? SCIM_MAX_COUNT));
  const page = state.users.slice(startIndex - 1, startIndex - 1 + count);
  return jsonResponse(
    200,
    {
      schemas: [LIST_RESPONSE],
      totalResults: state.users.length,
      startIndex,
      itemsPerPage: page.length,
      Resources: page.map((u) => toScimUser(u, baseUrl)),
    },
    { "Content-Type": "application/scim+json; charset=utf-8" },
  );
}
