/**
 * The preview's query options: `?width=N` sets the pane's width within its bounds, and every option
 * the page reads is documented in docs/preview.md.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { paneWidthFrom, QUERY_OPTIONS } from "../../../src/hosts/preview/query.js";

describe("the preview's query options", () => {
  it("?width takes a whole number of px from 260 to 800, and ignores anything else", () => {
    expect(paneWidthFrom("?width=300")).toBe(300);
    expect(paneWidthFrom("?width=260")).toBe(260);
    expect(paneWidthFrom("?width=800")).toBe(800);
    for (const search of [
      "",
      "?width=",
      "?width=259",
      "?width=801",
      "?width=300.5",
      "?width=wide",
      "?w=300",
    ]) {
      expect(paneWidthFrom(search), search).toBeNull();
    }
  });

  it("docs/preview.md documents each option the page reads", () => {
    const docs = readFileSync(new URL("../../../docs/preview.md", import.meta.url), "utf8");
    for (const option of QUERY_OPTIONS) expect(docs).toMatch(new RegExp(`\\?${option}=`));
    expect(docs).toContain("?width=300");
  });
});
