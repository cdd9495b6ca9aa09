/**
 * The runs of the scripted agent and their timing. A run is independent of the HTTP response that
 * started it, as on the real service: it keeps the lines it sent, so the same `messageId`
 * re-subscribes to a running stream (replaying what was sent), replays a finished one, and resumes
 * a suspended one; a caller who disconnects only stops listening. Runs end when the server stops.
 */
import { abortedLine, cutoffLine, type Line, usageLine } from "./chat-lines.js";
import { mergeIntoThread } from "./chat-threads.js";
import type { Run, Step, Subscriber, Thread, TurnScript } from "./chat-types.js";

export type { Run, Subscriber };

export class RunScheduler {
  private readonly runs = new Map<string, Run>();
  private closed = false;

  /** How many runs were started (the sandbox's generated messageIds count them). */
  get size(): number {
    return this.runs.size;
  }

  find(messageId: string): Run | undefined {
    return this.runs.get(messageId);
  }

  /** Starts answering in `thread`; the first lines are sent to whoever subscribes right after. */
  start(thread: Thread, messageId: string, input: string, script: TurnScript): Run {
    const run: Run = {
      messageId,
      input,
      thread,
      steps: script.steps,
      next: 0,
      status: "running",
      lines: [],
      subscribers: new Set(),
      timer: null,
      usage: script.usage,
    };
    this.runs.set(messageId, run);
    thread.running = run;
    return run;
  }

  /**
   * Sends `subscriber` what the run sent so far, then each line as it is produced, until the run
   * ends or pauses. Returns the unsubscribe (the caller went away: the run goes on).
   */
  subscribe(run: Run, subscriber: Subscriber): () => void {
    for (const line of run.lines) subscriber.write(line);
    if (run.status === "done" || run.status === "aborted") {
      subscriber.end();
      return () => undefined;
    }
    run.subscribers.add(subscriber);
    return () => run.subscribers.delete(subscriber);
  }

  /** Runs the next steps: those without delay at once, then one timer for the next. */
  advance(run: Run): void {
    if (run.timer !== null) return;
    while (run.status === "running" && !this.closed) {
      const step = run.steps[run.next];
      if (!step) {
        this.finish(run, "done");
        return;
      }
      if (step.delay > 0) {
        run.timer = setTimeout(() => {
          run.timer = null;
          if (run.status !== "running" || this.closed) return;
          this.runStep(run, step);
          this.advance(run);
        }, step.delay);
        return;
      }
      this.runStep(run, step);
    }
  }

  /** A suspended run goes on: a fresh `__cutoff__` opens the new segment, then the rest. */
  resume(run: Run): void {
    run.status = "running";
    run.thread.running = run;
    run.lines = [];
    this.emit(run, cutoffLine(run.thread.chatId, true));
    this.advance(run);
  }

  /** `/chat/abort`: a streaming run ends with `__aborted__` and `__usage__`; a suspended one just ends. */
  abort(run: Run): void {
    if (run.timer) clearTimeout(run.timer);
    run.timer = null;
    if (run.status === "running") {
      this.emit(run, abortedLine(run.messageId));
      this.emit(run, usageLine(run.usage));
    }
    this.finish(run, "aborted");
  }

  /** Stops every run's timers and ends their streams (server shutdown). */
  close(): void {
    this.closed = true;
    for (const run of this.runs.values()) {
      if (run.timer) clearTimeout(run.timer);
      run.timer = null;
      for (const s of run.subscribers) s.end();
      run.subscribers.clear();
    }
  }

  private runStep(run: Run, step: Step): void {
    run.next++;
    this.emit(run, step.make());
    if (step.suspends) {
      run.status = "suspended";
      for (const sub of run.subscribers) sub.end();
      run.subscribers.clear();
      run.thread.running = null;
    }
  }

  private finish(run: Run, status: "done" | "aborted"): void {
    run.status = status;
    if (run.thread.running === run) run.thread.running = null;
    for (const sub of run.subscribers) sub.end();
    run.subscribers.clear();
  }

  /** Sends a line to every subscriber and records user and assistant messages in the thread. */
  private emit(run: Run, line: Line | string): void {
    const text = typeof line === "string" ? line : JSON.stringify(line);
    run.lines.push(text);
    if (typeof line !== "string" && typeof line.role === "string" && typeof line.id === "string") {
      mergeIntoThread(run.thread, line);
    }
    for (const sub of run.subscribers) sub.write(text);
  }
}
