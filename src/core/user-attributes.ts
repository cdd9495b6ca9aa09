/**
 * User attributes as the pane edits them: name/value rows of text, read into the values the chat
 * API takes (platform-api.md: string, number, boolean, list of strings or numbers, or null).
 */
import type { UserAttribute } from "./schema.js";

export interface AttributeRow {
  name: string;
  value: string;
}

type AttributeValue = UserAttribute["value"];

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function scalar(text: string): string | number {
  const t = text.trim();
  return NUMBER.test(t) && Number.isFinite(Number(t)) ? Number(t) : t;
}

/**
 * "42" -> 42, "true"/"false" -> booleans, "a, b" -> ["a", "b"] (numbers in a list become numbers),
 * "" -> null, anything else the text, trimmed.
 */
export function parseAttributeValue(text: string): AttributeValue {
  const t = text.trim();
  if (t === "") return null;
  if (t === "true") return true;
  if (t === "false") return false;
  if (t.includes(",")) {
    return t
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map(scalar);
  }
  return scalar(t);
}

/** The text a value is edited as; `parseAttributeValue(formatAttributeValue(v))` gives v back. */
export function formatAttributeValue(value: AttributeValue): string {
  if (value === null) return "";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

/** Rows with a name become attributes; rows without one are ignored. */
export function rowsToAttributes(rows: readonly AttributeRow[]): UserAttribute[] {
  return rows
    .filter((r) => r.name.trim() !== "")
    .map((r) => ({ name: r.name.trim(), value: parseAttributeValue(r.value) }));
}

export function attributesToRows(attributes: readonly UserAttribute[]): AttributeRow[] {
  return attributes.map((a) => ({ name: a.name, value: formatAttributeValue(a.value) }));
}
