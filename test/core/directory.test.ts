import { describe, expect, it } from "vitest";
import { toDirectoryUserPage } from "../../src/core/directory.js";

describe("a SCIM ListResponse read as a page of directory users", () => {
  const schemas = ["urn:ietf:params:scim:api:messages:2.0:ListResponse"];

  it("names each user by displayName, else the formatted name, else given and family name, else the user name", () => {
    const page = toDirectoryUserPage(
      {
        schemas,
        totalResults: 4,
        startIndex: 1,
        itemsPerPage: 4,
        Resources: [
          { id: "1", userName: "ana", displayName: "Ana Lee", name: { formatted: "A. Lee" } },
          { id: "2", userName: "bo", name: { formatted: "Bo Chen", givenName: "Bo" } },
          { id: "3", userName: "cy", name: { givenName: "Cy", familyName: null } },
          { id: "4", userName: "dee", name: {} },
        ],
      },
      1,
    );
    expect(page.users.map((u) => u.displayName)).toEqual(["Ana Lee", "Bo Chen", "Cy", "dee"]);
  });

  it("takes the primary email, else the first, else none; a user without active counts as active", () => {
    const page = toDirectoryUserPage(
      {
        schemas,
        totalResults: 3,
        Resources: [
          {
            id: "1",
            userName: "ana",
            emails: [{ value: "ana@old.example.com" }, { value: "ana@example.com", primary: true }],
            active: false,
          },
          { id: "2", userName: "bo", emails: [{ value: "bo@example.com", primary: false }] },
          { id: "3", userName: "cy", emails: null, active: null },
        ],
      },
      1,
    );
    expect(page.users).toEqual([
      { id: "1", userName: "ana", displayName: "ana", email: "ana@example.com", active: false },
      { id: "2", userName: "bo", displayName: "bo", email: "bo@example.com", active: true },
      { id: "3", userName: "cy", displayName: "cy", email: null, active: true },
    ]);
  });

  it("keeps the service's paging numbers; without them, the requested start index (else 1) and the count of users", () => {
    const given = toDirectoryUserPage(
      { schemas, totalResults: 40, startIndex: 21, itemsPerPage: 20, Resources: [] },
      1,
    );
    expect(given).toEqual({ users: [], totalResults: 40, startIndex: 21, itemsPerPage: 20 });
    const missing = toDirectoryUserPage(
      { schemas, totalResults: 40, Resources: [{ id: "1", userName: "ana" }] },
      21,
    );
    expect(missing).toMatchObject({ totalResults: 40, startIndex: 21, itemsPerPage: 1 });
    expect(toDirectoryUserPage({ schemas, totalResults: 0 })).toEqual({
      users: [],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
    });
  });
});
