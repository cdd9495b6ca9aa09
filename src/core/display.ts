/**
 * Names the service or the workbook supplies (report, sheet, workbook names) are shown as text, but
 * text can lie: a right-to-left override reorders what follows it ("Placed at '3N:2M!'Summary"), a
 * zero-width space makes two different names look the same, a newline breaks a message in two.
 * `revealInvisible` shows such characters as visible marks (`⟨U+202E⟩`) wherever they can change
 * what a reader sees; the pane also isolates each name (`<bdi>`, `dir="auto"`), so legitimate
 * right-to-left names stay readable without reordering the text around them.
 */
import { quoteSheetName } from "./location.js";
import { placementAnchor, placementEnd, placementSheetName } from "./placement-fields.js";
import type { ReportPlacement } from "./schema.js";

/**
 * Format characters (Unicode category Cf: bidi embeddings, overrides and isolates, the marks LRM,
 * RLM and ALM, zero-width space, word joiner, byte order mark, soft hyphen, invisible operators,
 * tag characters...) and controls (Cc: newline, tab, escape...). Variation selectors are left: they
 * only pick a glyph.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;

/** Letters, marks and pictographs: between two of them, ZWJ and ZWNJ shape a script or an emoji. */
const JOINABLE = /[\p{L}\p{M}\p{Extended_Pictographic}]/u;
const ZWNJ = 0x200c;
const ZWJ = 0x200d;

function mark(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** Line feed, carriage return and tab: the layout of a multi-line text such as markdown. */
const LAYOUT = new Set([0x0a, 0x0d, 0x09]);

/**
 * The text with every invisible or reordering character shown as `⟨U+XXXX⟩`. A zero-width joiner or
 * non-joiner between two non-ASCII letters or pictographs is kept: there it is part of how Persian,
 * Hindi or an emoji sequence is written, and changes no order. `keepLayout` keeps line breaks and
 * tabs, for a text whose lines matter (the agent's markdown answer: its paragraphs, code blocks).
 */
export function revealInvisible(text: string, options: { keepLayout?: boolean } = {}): string {
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(text)) return text;
  INVISIBLE.lastIndex = 0;
  return text.replace(INVISIBLE, (ch, offset: number, whole: string) => {
    const code = ch.codePointAt(0);
    if (options.keepLayout && code !== undefined && LAYOUT.has(code)) return ch;
    if (code === ZWJ || code === ZWNJ) {
      const before = [...whole.slice(0, offset)].pop() ?? "";
      const after = [...whole.slice(offset + ch.length)][0] ?? "";
      const joinable = (c: string) => c !== "" && c.charCodeAt(0) > 0x7f && JOINABLE.test(c);
      if (joinable(before) && joinable(after)) return ch;
    }
    return mark(ch);
  });
}

/**
 * "Sales!B2:F20": how the pane shows a placement. `currentSheetName` names the sheet as it is now
 * (after a rename) instead of the name the placement stores.
 */
export function describePlacement(p: ReportPlacement, currentSheetName?: string | null): string {
  // For reading only: a sheet name's bidi overrides and invisible characters are shown, not obeyed.
  const stored = currentSheetName || placementSheetName(p);
  const sheet = stored ? revealInvisible(stored) : stored;
  const anchor = placementAnchor(p);
  if (!anchor) return revealInvisible(p.resultLocation);
  const end = placementEnd(p);
  const range = end && end !== anchor ? `${anchor}:${end}` : anchor;
  return sheet ? `${quoteSheetName(sheet)}!${range}` : range;
}
