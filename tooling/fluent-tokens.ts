/**
 * Fluent's design tokens written out when the pane is built. Every entry of Fluent's `tokens` is
 * the name of a CSS variable (`tokens.colorNeutralStencil1` is "var(--colorNeutralStencil1)"); the
 * theme sets the variables. A read such as `tokens.strokeWidthThin` becomes that string, so a
 * module that only reads tokens no longer needs Fluent's token table (about 3.4 KB gzipped) at run
 * time: the table leaves the first script, and stays only in the chunks that still use it whole.
 *
 * Fluent's own compiled styles leave reads behind that nothing uses (`tokens.spacingHorizontalXXS;`
 * in Badge's, `` `calc(${tokens.strokeWidthThin} + 0.25px)` `` in Button's): the bundler must keep a
 * property read, so the table came along with the first Badge or Button. Written out, they are
 * constants it drops.
 *
 * Only reads by a known name, through the `tokens` imported from Fluent, are replaced: the object
 * passed on whole (`{...tokens}`) or read by a computed name stays as it is. Builds only.
 *
 * The pane's light theme is written out too, as CSS: each page gets Fluent's `webLightTheme` as
 * one `:root` rule of CSS variables in a <style> element (Fluent's own createCSSRuleFromTheme, the
 * static theming it documents for top-level elements), and taskpane/lightTheme.ts becomes
 * `undefined`, so the light pane's FluentProvider sets no variables of its own and the page's
 * apply, to portals too. The first script then carries neither Fluent's palettes and the code that
 * derives the theme from them (about 6.7 KB gzipped) nor the theme's values, and nothing on the
 * main thread turns 459 values into CSS before the first paint. The dark theme, loaded only when
 * the host is dark, is a theme object as before: its FluentProvider's class overrides `:root`.
 */
import { type Plugin, parseSync } from "vite";

// biome-ignore lint/suspicious/noExplicitAny: ESTree nodes from oxc, walked generically
type Node = any;

/** The packages whose `tokens` export is Fluent's token table. */
const TOKEN_SOURCES = new Set(["@fluentui/react-components", "@fluentui/react-theme", "@fluentui/tokens"]);

/** What the plugin reads from Fluent: the token table, the light theme and Fluent's theme-to-CSS rule. */
interface Fluent {
  tokens: typeof import("@fluentui/react-theme").tokens;
  webLightTheme: typeof import("@fluentui/react-theme").webLightTheme;
  createCSSRuleFromTheme: typeof import("@fluentui/react-provider").createCSSRuleFromTheme;
}
let fluent: Fluent | null = null;

/**
 * Loads the parts of Fluent the plugin reads its tokens and light theme from: the packages
 * `@fluentui/react-components` re-exports them from (react-theme, react-provider), the same objects.
 * Not the whole of it: with React and every component that is about 2.8 CPU-s, these 0.4, at the
 * start of every pane build. On first use, not when this module loads: every `vite` and `vitest`
 * start loads the configuration that imports this module (the server's build and the tests never
 * use it). The plugin loads them as a build starts.
 */
export async function loadFluent(): Promise<void> {
  if (fluent) return;
  const [{ tokens, webLightTheme }, { createCSSRuleFromTheme }] = await Promise.all([
    import("@fluentui/react-theme"),
    import("@fluentui/react-provider"),
  ]);
  fluent = { tokens, webLightTheme, createCSSRuleFromTheme };
}

function loaded(): Fluent {
  if (!fluent) throw new Error("Fluent is not loaded yet: await loadFluent() first.");
  return fluent;
}

function walk(node: Node, visit: (n: Node) => void): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, visit);
    return;
  }
  if (typeof node.type === "string") visit(node);
  for (const key of Object.keys(node)) {
    if (key !== "parent") walk(node[key], visit);
  }
}

/** `code` with its reads of Fluent's tokens written out; null when it has none. */
export function inlineTokens(code: string, file: string): string | null {
  if (!code.includes("tokens")) return null;
  const program = parseSync(file, code).program;
  const locals = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== "ImportDeclaration" || !TOKEN_SOURCES.has(statement.source.value)) continue;
    for (const s of statement.specifiers ?? []) {
      if (s.type === "ImportSpecifier" && (s.imported.name ?? s.imported.value) === "tokens") {
        locals.add(s.local.name);
      }
    }
  }
  if (locals.size === 0) return null;
  const TABLE = loaded().tokens as Readonly<Record<string, string>>;
  const reads: { start: number; end: number; value: string }[] = [];
  walk(program, (n) => {
    if (
      n.type === "MemberExpression" &&
      !n.computed &&
      n.object.type === "Identifier" &&
      locals.has(n.object.name) &&
      n.property.type === "Identifier" &&
      Object.hasOwn(TABLE, n.property.name)
    ) {
      reads.push({ start: n.start, end: n.end, value: TABLE[n.property.name]! });
    }
  });
  if (reads.length === 0) return null;
  let out = code;
  for (const read of reads.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, read.start) + JSON.stringify(read.value) + out.slice(read.end);
  }
  return out;
}

/** The module that names the pane's light theme, and what it becomes in a build: no theme object. */
const LIGHT_THEME_MODULE = /[\\/]taskpane[\\/]lightTheme\.ts$/;
export const lightThemeModule = (): string => "export const lightTheme = undefined;\n";
/** The light theme's variables, as the <style> element each built page carries in its <head>. */
export const lightThemeStyle = (): string =>
  `<style data-theme="light">${loaded().createCSSRuleFromTheme(":root", loaded().webLightTheme)}</style>`;

/** The Vite plugin: every module of the build, Fluent's own included. */
export function fluentTokens(): Plugin {
  return {
    name: "reporting-platform:fluent-tokens",
    apply: "build",
    async buildStart() {
      await loadFluent();
    },
    transform(code, id) {
      if (LIGHT_THEME_MODULE.test(id.replace(/\?.*$/, ""))) return { code: lightThemeModule(), map: null };
      if (!/\.[cm]?[jt]sx?$/.test(id.replace(/\?.*$/, ""))) return null;
      const out = inlineTokens(code, id.replace(/\?.*$/, ""));
      return out == null ? null : { code: out, map: null };
    },
    // The pages the pane mounts in (into #root): the task pane, the sidebar, the preview.
    transformIndexHtml(html) {
      if (!html.includes('<div id="root">')) return html;
      if (!html.includes("</head>")) throw new Error("a page of the pane has no </head> for the light theme");
      return html.replace("</head>", () => `${lightThemeStyle()}\n  </head>`);
    },
  };
}
