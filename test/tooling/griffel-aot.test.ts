/**
 * The pane's styles resolved at build time (tooling/griffel-aot.ts): the CSS is what makeStyles
 * would insert at run time, constants from the pane's own modules included; a style object that
 * needs a run-time value stays with makeStyles, so the build still works.
 */
import { fileURLToPath } from "node:url";
import { tokens } from "@fluentui/react-theme";
import { resolveStyleRulesForSlots } from "@griffel/core";
import { describe, expect, it } from "vitest";
import { TWO_LINES } from "../../taskpane/PlacementItem.js";
import { precompileStyles } from "../../tooling/griffel-aot.js";

const APP = fileURLToPath(new URL("../../taskpane/App.tsx", import.meta.url));

describe("build-time styles", () => {
  it("turns makeStyles into __styles with the classes and CSS makeStyles computes, imported constants included", () => {
    const source = [
      'import { makeStyles, tokens } from "@fluentui/react-components";',
      'import { TWO_LINES } from "./PlacementList.js";',
      "const useStyles = makeStyles({",
      "  root: { color: tokens.colorNeutralForeground1, ...TWO_LINES },",
      '  label: { paddingLeft: "4px" },',
      "});",
    ].join("\n");
    const warnings: string[] = [];
    const out = precompileStyles(source, APP, (w) => warnings.push(w)) ?? "";
    expect(warnings).toEqual([]);
    expect(out).not.toMatch(/makeStyles\(/);
    const [classes, css] = resolveStyleRulesForSlots({
      root: { color: tokens.colorNeutralForeground1, ...TWO_LINES },
      label: { paddingLeft: "4px" },
    } as never);
    expect(out).toContain(`__griffelStyles(${JSON.stringify(classes)}, ${JSON.stringify(css)})`);
    // The right-to-left variant is there too (padding-left becomes padding-right).
    expect(JSON.stringify(css)).toContain("padding-right:4px");
  });

  it("evaluates the module's own constants, one used by several others", () => {
    const source = [
      'const GAP = "8px";',
      "const ROW = { columnGap: GAP };",
      "const COLUMN = { rowGap: GAP };",
      "const useStyles = makeStyles({ row: ROW, column: COLUMN });",
    ].join("\n");
    const warnings: string[] = [];
    const out = precompileStyles(source, APP, (w) => warnings.push(w)) ?? "";
    expect(warnings).toEqual([]);
    expect(out).toContain("column-gap:8px");
    expect(out).toContain("row-gap:8px");
  });

  it("leaves a style object that needs a run-time value to makeStyles, and says so", () => {
    const source = "const width = window.innerWidth;\nconst useStyles = makeStyles({ root: { width } });";
    const warnings: string[] = [];
    expect(precompileStyles(source, APP, (w) => warnings.push(w))).toBeNull();
    expect(warnings.join()).toMatch(/left to run time/);
  });
});
