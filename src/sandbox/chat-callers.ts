/**
 * Who is asking: the chat request's `sessionSettings` as an identity that owns threads. Threads
 * belong to `externalId`, or to the seed user `internalId` names (platform-api.md, Agent chat).
 */
import type { UserAttribute } from "../core/schema.js";
import { HttpError } from "./respond.js";
import { CONFIGURED_ATTRIBUTES } from "./scripted-agent.js";
import type { User } from "./state.js";

export interface Caller {
  /** The key threads are owned by: `external:<id>` or `internal:<user id>`. */
  owner: string;
  externalId: string;
  email?: string | undefined;
  userAttributes?: UserAttribute[] | undefined;
}

export interface CallerSettings {
  externalId?: string | undefined;
  internalId?: string | undefined;
  email?: string | undefined;
  userAttributes?: UserAttribute[] | undefined;
}

/**
 * The caller `settings` name. 400 for an attribute no admin configured, an `externalId` that is
 * not lowercase and trimmed (the sandbox does not normalise it), an unknown `internalId`, or none.
 */
export function identifyCaller(users: readonly User[], settings: CallerSettings): Caller {
  for (const [i, a] of (settings.userAttributes ?? []).entries()) {
    if (!(CONFIGURED_ATTRIBUTES as readonly string[]).includes(a.name)) {
      throw new HttpError(
        400,
        `sessionSettings.userAttributes.${i}.name: "${a.name}" is not a configured attribute (configured: ${CONFIGURED_ATTRIBUTES.join(", ")}).`,
      );
    }
  }
  const common = { email: settings.email, userAttributes: settings.userAttributes };
  if (settings.externalId !== undefined) {
    const id = settings.externalId;
    if (id === "" || id !== id.trim() || id !== id.toLowerCase()) {
      throw new HttpError(400, "sessionSettings.externalId must be non-empty, lowercase and trimmed.");
    }
    return { owner: `external:${id}`, externalId: id, ...common };
  }
  if (settings.internalId !== undefined) {
    const user = users.find((u) => String(u.id) === settings.internalId || u.email === settings.internalId);
    if (!user) throw new HttpError(400, `sessionSettings.internalId: no user "${settings.internalId}".`);
    return {
      owner: `internal:${user.id}`,
      externalId: user.email,
      ...common,
      email: settings.email ?? user.email,
    };
  }
  throw new HttpError(400, "sessionSettings needs externalId (or internalId).");
}
