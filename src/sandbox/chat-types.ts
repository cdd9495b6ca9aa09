/**
 * The scripted agent's threads, runs and steps as types only, in one module the three that use
 * them import (chat-threads.ts keeps threads, chat-runs.ts runs them, chat-turn-script.ts writes a
 * turn's steps), so that none of them imports another for a type and the imports go one way.
 */
import type { Line, Usage } from "./chat-lines.js";
import type { Topic } from "./scripted-agent.js";

export interface StoredMessage extends Line {
  id: string;
  role: string;
  content: string;
  graphPath: string[];
  sort: number;
}

export interface Thread {
  chatId: string;
  agentId: string;
  owner: string;
  messages: StoredMessage[];
  turns: { messageId: string; input: string; topic: Topic }[];
  /** The run answering now (null when idle or suspended): one at a time per thread. */
  running: Run | null;
}

/** Someone reading a run's lines (one HTTP response); lines come without their newline. */
export interface Subscriber {
  write(line: string): void;
  end(): void;
}

export interface Run {
  messageId: string;
  input: string;
  thread: Thread;
  steps: Step[];
  next: number;
  status: "running" | "suspended" | "done" | "aborted";
  /** Lines sent in the current segment (since start or resume), for re-subscribers. */
  lines: string[];
  subscribers: Set<Subscriber>;
  timer: NodeJS.Timeout | null;
  usage: Usage;
}

/** One step of a run: after `delay` ms, send a line (an object, or raw text for the malformed line). */
export interface Step {
  delay: number;
  make: () => Line | string;
  /** The run pauses after this step (`__suspended__`); the same request resumes it. */
  suspends?: boolean;
}

export interface TurnScript {
  steps: Step[];
  /** What `__usage__` reports, also when the run is aborted. */
  usage: Usage;
  /** What the turn answered about: a short follow-up keeps it. */
  topic: Topic;
}
