/**
 * A page of reports of the plain shape is read by hand (src/core/operations.ts, `plainReportPage`);
 * anything else by zod. What `listReportsPage`'s reading answers must be what zod's reading of the
 * page (the schema below, as operations.ts builds it) makes of it, for every page: the same items,
 * paging and failure.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { operations } from "../../src/core/index.js";
import * as z from "../../src/core/zod.js";
import { fullReport } from "./fixtures.js";

const zodPage = z.looseObject({
  items: z.optional(z.array(z.unknown())),
  data: z.optional(z.array(z.unknown())),
  pageInfo: z.nullish(
    z.looseObject({ hasNextPage: z.optional(z.boolean()), endCursor: z.nullish(z.string()) }),
  ),
});

const odd = fc.constantFrom<unknown>(null, undefined, 0, true, "", "x", [], {}, [1], { a: 1 });
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: a as fc.Arbitrary<unknown> }, odd);
const reports = fc.array(fc.constantFrom<unknown>(fullReport(), { ...fullReport(), id: "x" }, 3), {
  maxLength: 3,
});
const anyPage = fc.oneof(
  fc.record(
    {
      items: maybe(reports),
      data: maybe(reports),
      pageInfo: maybe(
        fc.record(
          {
            hasNextPage: maybe(fc.boolean()),
            endCursor: maybe(fc.oneof(fc.string(), fc.constant(null))),
            x: odd,
          },
          { requiredKeys: [] },
        ),
      ),
      other: odd,
    },
    { requiredKeys: [] },
  ),
  odd,
);

function expectSameReading(json: unknown) {
  const read = () => operations.listReportsPage(1, {}).read(json);
  const ref = zodPage.safeParse(json);
  const items = ref.success ? (ref.data.items ?? ref.data.data) : undefined;
  if (!ref.success || !items) {
    expect(read).toThrow();
    return;
  }
  const page = read();
  expect(page.reports.length + page.problems.length).toBe(items.length);
  expect(page.hasNextPage).toBe(ref.data.pageInfo?.hasNextPage === true);
  expect(page.endCursor).toBe(ref.data.pageInfo?.endCursor ?? null);
}

describe("a page of reports, read by hand when plain", () => {
  it("reads what zod reads, and fails where zod fails, for generated pages", () => {
    fc.assert(fc.property(anyPage, expectSameReading), { numRuns: 2000 });
  });

  it("names what is wrong with a page it cannot read, as zod does", () => {
    expect(() => operations.listReportsPage(1, {}).read({ items: "none" })).toThrow(/items/);
    expect(() =>
      operations.listReportsPage(1, {}).read({ items: [], pageInfo: { hasNextPage: "yes" } }),
    ).toThrow(/pageInfo\.hasNextPage/);
  });
});
