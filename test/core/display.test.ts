/** Names the service or the workbook supplies are shown as they are, never reordered or hidden. */
import { describe, expect, it } from "vitest";
import {
  describePlacement,
  disconnectOutcomeMessage,
  placedReports,
  revealInvisible,
} from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

const RLO = "\u202E";

describe("revealInvisible", () => {
  it("shows a right-to-left override instead of obeying it", () => {
    expect(revealInvisible(`${RLO}Summary`)).toBe("⟨U+202E⟩Summary");
  });

  it.each([
    ["zero-width space", "Sales\u200B", "Sales⟨U+200B⟩"],
    ["word joiner", "Q1\u2060Sales", "Q1⟨U+2060⟩Sales"],
    ["byte order mark", "\uFEFFNotes", "⟨U+FEFF⟩Notes"],
    ["left-to-right isolate", "a\u2066b\u2069", "a⟨U+2066⟩b⟨U+2069⟩"],
    ["newline", "Revenue\nby region", "Revenue⟨U+000A⟩by region"],
    ["zero-width joiner between ASCII letters", "pay\u200Dpal", "pay⟨U+200D⟩pal"],
    ["tag characters", "a\u{E0041}", "a⟨U+E0041⟩"],
  ])("shows a %s", (_what, text, shown) => {
    expect(revealInvisible(text)).toBe(shown);
  });

  it("keeps what writes a script or an emoji: ZWNJ in Persian, ZWJ in an emoji sequence", () => {
    const persian = "می\u200Cخواهم";
    const family = "👩\u200D👩\u200D👧";
    expect(revealInvisible(persian)).toBe(persian);
    expect(revealInvisible(family)).toBe(family);
    expect(revealInvisible("Ventas — עברית")).toBe("Ventas — עברית");
  });
});

describe("the words the pane reads", () => {
  it("a placement on a sheet named with an override reads with the override shown", () => {
    const report = fullReport({
      externalWorkbookPlacements: [
        placement({ id: "p1", sheetName: `${RLO}Summary`, anchorCell: "B2", endResultCell: "F8" }),
      ],
    });
    const [p] = placedReports([report]);
    expect(describePlacement(p!)).toBe("'⟨U+202E⟩Summary'!B2:F8");
  });

  it("the toast after a disconnect shows a report name's hidden characters", () => {
    const report = fullReport({
      name: `Revenue\u200B by region`,
      externalWorkbookPlacements: [placement({ id: "p1", sheetName: "Sales", anchorCell: "B2" })],
    });
    const [p] = placedReports([report]);
    const returned = { ...report, externalWorkbookPlacements: [] };
    expect(disconnectOutcomeMessage(p!, returned).message).toContain("Revenue⟨U+200B⟩ by region");
  });
});
