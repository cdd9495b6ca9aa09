/**
 * Fluent's tokens written out at build time (tooling/fluent-tokens.ts): a read by name becomes the
 * CSS variable the token stands for, so the first script needs no token table; anything else that
 * uses the table stays as written.
 */
import { tokens } from "@fluentui/react-components";
import { beforeAll, describe, expect, it } from "vitest";
import { inlineTokens, loadFluent } from "../../tooling/fluent-tokens.js";

beforeAll(loadFluent);

describe("Fluent tokens written out", () => {
  it("turns each read of a token by name into its CSS variable, Fluent's leftover reads included", () => {
    const source = [
      'import { tokens as t } from "@fluentui/react-theme";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal
      "const moz = `calc(${t.strokeWidthThin} + 0.25px)`;",
      "t.spacingHorizontalXXS;",
      "export const style = { backgroundColor: t.colorNeutralStencil1 };",
    ].join("\n");
    const out = inlineTokens(source, "/x/useBadgeStyles.styles.js") ?? "";
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a template literal
    expect(out).toContain('`calc(${"var(--strokeWidthThin)"} + 0.25px)`');
    expect(out).toContain('"var(--spacingHorizontalXXS)";');
    expect(out).toContain('backgroundColor: "var(--colorNeutralStencil1)"');
    expect(tokens.colorNeutralStencil1).toBe("var(--colorNeutralStencil1)");
    expect(out).not.toMatch(/\bt\.\w/);
  });

  it("leaves the table passed on whole, a computed read and a name Fluent does not have", () => {
    const source = [
      'import { tokens } from "@fluentui/react-components";',
      "export const all = { ...tokens };",
      'export const one = tokens["colorNeutralForeground1"];',
      "export const none = tokens.notAToken;",
    ].join("\n");
    expect(inlineTokens(source, "/x/a.tsx")).toBeNull();
  });

  it("leaves a `tokens` that is not Fluent's", () => {
    const source = 'import { tokens } from "./lexer.js";\nexport const n = tokens.colorNeutralForeground1;';
    expect(inlineTokens(source, "/x/a.ts")).toBeNull();
  });
});
