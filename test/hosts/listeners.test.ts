import { describe, expect, it, vi } from "vitest";
import {
  createListenerGroup,
  createListeners,
  newestOnly,
  settler,
  type Timers,
} from "../../src/hosts/listeners.js";

function manualTimers() {
  let now = 0;
  const due = new Map<number, { at: number; callback: () => void }>();
  let next = 1;
  const timers: Timers = {
    setTimeout(callback, ms) {
      due.set(next, { at: now + ms, callback });
      return next++;
    },
    clearTimeout(handle) {
      due.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => due.size,
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...due]) {
        if (t.at <= now) {
          due.delete(id);
          t.callback();
        }
      }
    },
  };
}

describe("listeners shared by the hosts", () => {
  it("a group's watch starts with its first listener, of any set, and stops after the last leaves", () => {
    const watch = { start: vi.fn(), stop: vi.fn() };
    const group = createListenerGroup(watch);
    const contexts = group.listeners<[string]>();
    const workbook = group.listeners<[]>();
    const offA = contexts.add(() => {});
    const offB = workbook.add(() => {});
    expect(watch.start).toHaveBeenCalledTimes(1);
    expect(group.listening).toBe(true);
    offA();
    offA();
    expect(watch.stop).not.toHaveBeenCalled();
    offB();
    expect(watch.stop).toHaveBeenCalledTimes(1);
    expect(group.listening).toBe(false);
    workbook.add(() => {});
    expect(watch.start).toHaveBeenCalledTimes(2);
  });

  it("tells every listener present when the change happened, even one that leaves meanwhile", () => {
    const heard: string[] = [];
    const set = createListeners<[string]>();
    let offSecond = () => {};
    set.add((v) => {
      heard.push(`first ${v}`);
      offSecond();
    });
    offSecond = set.add((v) => heard.push(`second ${v}`));
    set.notify("B2");
    set.notify("C3");
    expect(heard).toEqual(["first B2", "second B2", "first C3"]);
    expect(set.size).toBe(1);
  });

  it("the same function subscribed twice is told twice and removed one subscription at a time", () => {
    const listener = vi.fn();
    const set = createListeners<[]>();
    const off1 = set.add(listener);
    set.add(listener);
    off1();
    set.notify();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("a burst of changes settles into one call, after the last of them", () => {
    const clock = manualTimers();
    const settled = vi.fn();
    const s = settler(settled, 100, clock.timers);
    s.trigger();
    clock.advance(60);
    s.trigger();
    clock.advance(60);
    expect(settled).not.toHaveBeenCalled();
    clock.advance(40);
    expect(settled).toHaveBeenCalledTimes(1);
    s.trigger();
    s.cancel();
    clock.advance(200);
    expect(settled).toHaveBeenCalledTimes(1);
    expect(clock.pending()).toBe(0);
  });

  it("of two overlapping reads only the newer is delivered", async () => {
    const answers: ((v: string) => void)[] = [];
    const delivered: string[] = [];
    const run = newestOnly(
      () => new Promise<string>((resolve) => answers.push(resolve)),
      (v) => delivered.push(v),
      () => {},
    );
    run();
    run();
    answers[1]!("new");
    answers[0]!("old");
    await new Promise((r) => setTimeout(r, 0));
    expect(delivered).toEqual(["new"]);
  });
});
