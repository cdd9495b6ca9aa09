/**
 * A JSON object: a plain object, of whichever realm made it (what `JSON.parse` makes of `{…}`). The
 * hand readings of the service's answers and of stored settings read only these; an array, a
 * class's instance or anything else goes to zod, whose reading is then the answer.
 */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}
