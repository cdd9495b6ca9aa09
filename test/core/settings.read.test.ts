/**
 * `readStoredSettings` reads the plain shape this add-in writes by hand (src/core/settings.ts):
 * what it answers must be exactly what reading with `StoredSettingsSchema` answers, for every text
 * a store may hold, and `EMPTY_SETTINGS` is the schema's defaults.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  EMPTY_SETTINGS,
  readStoredSettings,
  type StoredSettings,
  StoredSettingsSchema,
} from "../../src/core/index.js";

/** Every key path of a value, in the order its objects hold them (toStrictEqual ignores key order). */
function keyOrder(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.keys(value).flatMap((key) => [
    `${path}.${key}`,
    ...keyOrder((value as Record<string, unknown>)[key], `${path}.${key}`),
  ]);
}

/** readStoredSettings with zod's reading in place of the hand one (the legacy binding as there). */
function zodReading(text: string): StoredSettings {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ...EMPTY_SETTINGS };
  }
  const parsed = StoredSettingsSchema.safeParse(data);
  if (!parsed.success) return { ...EMPTY_SETTINGS };
  const s = parsed.data;
  const rec = data as Record<string, unknown>;
  if (!("apiKeyFor" in rec) && !("agentApiKeyFor" in rec) && !("scimTokenFor" in rec)) {
    const originOf = (url: string) => {
      try {
        return url ? new URL(url).origin : "";
      } catch {
        return "";
      }
    };
    if (s.apiKey) s.apiKeyFor = originOf(s.tenantUrl);
    if (s.scimToken) s.scimTokenFor = originOf(s.tenantUrl);
    if (s.agentApiKey) s.agentApiKeyFor = originOf(s.chatUrl);
  }
  return s;
}

const odd = fc.constantFrom<unknown>(null, 0, -0, 1.5, true, "", "x", [], {}, [1], { a: 1 });
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("https://acme.example.com", "sk-1"));
const maybeOdd = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, odd);
const attribute = fc.record(
  {
    name: maybeOdd(fc.string({ maxLength: 4 })),
    value: maybeOdd(
      fc.oneof(
        fc.string({ maxLength: 3 }),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer(), fc.boolean()), { maxLength: 3 }),
      ),
    ),
    extra: odd,
  },
  { requiredKeys: ["name"] },
);

const anySettings = fc.record(
  {
    tenantUrl: maybeOdd(text),
    deploymentId: maybeOdd(fc.oneof(fc.integer(), fc.constant(null))),
    chatUrl: maybeOdd(text),
    externalId: maybeOdd(text),
    email: maybeOdd(text),
    userAttributes: maybeOdd(fc.array(maybeOdd(attribute), { maxLength: 3 })),
    apiKey: maybeOdd(text),
    agentApiKey: maybeOdd(text),
    scimToken: maybeOdd(text),
    apiKeyFor: maybeOdd(text),
    scimTokenFor: maybeOdd(text),
    agentApiKeyFor: maybeOdd(text),
    chatUrlConfirmed: maybeOdd(text),
    somethingElse: odd,
  },
  { requiredKeys: [] },
);

function expectSameReading(stored: string) {
  const hand = readStoredSettings(stored);
  const zod = zodReading(stored);
  expect(hand).toStrictEqual(zod);
  expect(keyOrder(hand)).toEqual(keyOrder(zod));
}

describe("readStoredSettings: the stored settings, read by hand when plain", () => {
  it("answers exactly what StoredSettingsSchema answers, for generated settings", () => {
    fc.assert(
      fc.property(anySettings, (s) => expectSameReading(JSON.stringify(s))),
      { numRuns: 3000 },
    );
  });

  it("answers the same for what is not settings at all", () => {
    for (const stored of ["null", "3", '"x"', "[]", "{}", "[{}]", '{"tenantUrl": null}', "{"]) {
      expectSameReading(stored);
    }
  });

  it("reads each field's default when it is missing, and drops unknown fields", () => {
    const read = readStoredSettings(JSON.stringify({ tenantUrl: "https://acme.example.com", other: 1 }));
    expect(read).toStrictEqual({
      ...EMPTY_SETTINGS,
      tenantUrl: "https://acme.example.com",
      userAttributes: [],
    });
  });

  it("keeps EMPTY_SETTINGS equal to the schema's defaults", () => {
    expect(EMPTY_SETTINGS).toStrictEqual(StoredSettingsSchema.parse({}));
    expect(keyOrder(EMPTY_SETTINGS)).toEqual(keyOrder(StoredSettingsSchema.parse({})));
  });
});
