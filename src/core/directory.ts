/**
 * The directory (auth rule 5, `/api/scim/v2`): SCIM user resources as the service answers them,
 * and the mapping to the users the pane lists.
 */
import { lazily } from "./lazy-schema.js";
import * as z from "./zod.js";

/** Built when first used (lazy-schema.ts): the pane's first list reads no directory. */
export const ScimListResponseSchema = lazily(() => {
  const user = z.looseObject({
    id: z.string(),
    userName: z.string(),
    name: z.nullish(
      z.looseObject({
        givenName: z.nullish(z.string()),
        familyName: z.nullish(z.string()),
        formatted: z.nullish(z.string()),
      }),
    ),
    displayName: z.nullish(z.string()),
    emails: z.nullish(z.array(z.looseObject({ value: z.string(), primary: z.nullish(z.boolean()) }))),
    active: z.nullish(z.boolean()),
  });
  return z.looseObject({
    schemas: z.array(z.string()),
    totalResults: z.int(),
    startIndex: z.optional(z.int()),
    itemsPerPage: z.optional(z.int()),
    Resources: z.optional(z.array(user)),
  });
});
export type ScimListResponse = z.infer<typeof ScimListResponseSchema>;

/** A directory user as the pane lists it: one SCIM user resource, read for display. */
export interface DirectoryUser {
  id: string;
  userName: string;
  /** displayName, else the formatted name, else given and family name, else the user name. */
  displayName: string;
  /** The primary email, else the first one; null when there is none. */
  email: string | null;
  /** SCIM `active`; a user without one counts as active. */
  active: boolean;
}

/** One page of directory users, with SCIM's paging numbers. */
export interface DirectoryUserPage {
  users: DirectoryUser[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
}

/**
 * Reads a SCIM ListResponse as a page of directory users. `startIndex` and `itemsPerPage` are
 * optional in a ListResponse: the requested start index (else 1) and the number of resources stand
 * in for them.
 */
export function toDirectoryUserPage(
  response: ScimListResponse,
  requestedStartIndex?: number,
): DirectoryUserPage {
  const resources = response.Resources ?? [];
  return {
    totalResults: response.totalResults,
    startIndex: response.startIndex ?? requestedStartIndex ?? 1,
    itemsPerPage: response.itemsPerPage ?? resources.length,
    users: resources.map((u) => {
      const email = u.emails?.find((e) => e.primary)?.value ?? u.emails?.[0]?.value ?? null;
      const name =
        u.displayName ??
        u.name?.formatted ??
        [u.name?.givenName, u.name?.familyName].filter(Boolean).join(" ");
      return {
        id: u.id,
        userName: u.userName,
        displayName: name || u.userName,
        email,
        active: u.active !== false,
      };
    }),
  };
}
