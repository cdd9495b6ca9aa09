/**
 * The right-click command before the pane's core is ready: commands wait, in order, and run once
 * it is; if the core never loads, each waiting command is still completed (Office otherwise shows
 * it as running) and the user is told once.
 */
import { describe, expect, it } from "vitest";
import { createEarlyCommand } from "../../../src/hosts/excel/early-command.js";

function event(name: string, log: string[]) {
  return { name, completed: () => log.push(`completed ${name}`) };
}

describe("the early command", () => {
  it("queues commands that arrive before the core is ready and runs them in order, then runs later ones at once", () => {
    const log: string[] = [];
    const early = createEarlyCommand<ReturnType<typeof event>>();
    early.invoke(event("first", log));
    early.invoke(event("second", log));
    expect(early.waiting).toBe(2);
    expect(early.isReady).toBe(false);
    expect(log).toEqual([]);
    early.ready((e) => log.push(`ran ${e.name}`));
    early.invoke(event("third", log));
    expect(log).toEqual(["ran first", "ran second", "ran third"]);
    expect(early.isReady).toBe(true);
    expect(early.waiting).toBe(0);
  });

  it("completes every waiting command and tells the user once when the core fails to load", () => {
    const log: string[] = [];
    const early = createEarlyCommand<ReturnType<typeof event>>();
    early.invoke(event("first", log));
    early.invoke(event("second", log));
    early.failed(() => log.push("told"));
    early.invoke(event("late", log));
    expect(log).toEqual(["told", "completed first", "completed second", "told", "completed late"]);
  });
});
