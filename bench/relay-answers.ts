/**
 * What one answer of the relay bench (bench/relay-load.ts) was: the echo asked for; the relay's own
 * refusal for being busy (past its requests-in-flight limit it answers 503, `X-Relay-Error:
 * relay-busy`, with Retry-After: an overload answer it gives by design, which a client retries);
 * or lost (anything else: another status, another echo, no answer). Kept apart so the bench's
 * counting is tested without a load run.
 */
export type AnswerKind = "answered" | "shed" | "lost";

export function answerKind(
  status: number,
  relayError: string | null,
  body: unknown,
  asked: number,
): AnswerKind {
  if (status === 503 && relayError === "relay-busy") return "shed";
  if (status !== 200 || typeof body !== "object" || body === null) return "lost";
  return (body as { n?: unknown }).n === asked ? "answered" : "lost";
}
