/**
 * One way for every bench line that has a goal to print it: the figure, the goal, and whether the
 * figure meets it ("meets" / "misses"), so a run reads as a checklist.
 */

/** `label: figure · goal: goal · meets` (or `misses`). */
export function goalLine(label: string, figure: string, goal: string, meets: boolean): string {
  return `${label}: ${figure} · goal: ${goal} · ${meets ? "meets" : "misses"}`;
}

/** A ratio of two timings in the same run against "within `limit`x". */
export function ratioLine(label: string, ratio: number, limit: number, detail = ""): string {
  const figure = `ratio ${ratio.toFixed(2)}${detail ? ` (${detail})` : ""}`;
  return goalLine(label, figure, `within ${limit}x`, ratio <= limit);
}
