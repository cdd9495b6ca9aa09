/**
 * src/core/once.ts: a value loaded once and shared, loaded again after a failure (a chunk that
 * failed on a flaky network is asked for again by the next call).
 */
import { describe, expect, it } from "vitest";
import { once } from "../../src/core/once.js";

describe("once", () => {
  it("loads nothing until called, then shares one load between every call", async () => {
    let loads = 0;
    const value = once(async () => ++loads);
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([value(), value()]);
    expect([a, b, await value()]).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it("loads again after a failure, and keeps the value once a load succeeds", async () => {
    let loads = 0;
    const value = once(async () => {
      loads++;
      if (loads === 1) throw new Error("chunk failed");
      return "loaded";
    });
    await expect(value()).rejects.toThrow("chunk failed");
    expect(await value()).toBe("loaded");
    expect(await value()).toBe("loaded");
    expect(loads).toBe(2);
  });

  it("a call made while a failing load is in flight shares that failure", async () => {
    let fail!: (e: Error) => void;
    let loads = 0;
    const value = once(() => {
      loads++;
      return loads === 1 ? new Promise<string>((_, reject) => (fail = reject)) : Promise.resolve("second");
    });
    const first = value();
    const second = value();
    fail(new Error("offline"));
    await expect(first).rejects.toThrow("offline");
    await expect(second).rejects.toThrow("offline");
    expect(await value()).toBe("second");
  });
});
