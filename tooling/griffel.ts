/**
 * Build-time styles for the pane's own components, by Griffel's own Vite plugin
 * (@griffel/vite-plugin, with @griffel/tag-processor): every `makeStyles({...})` in taskpane/ is
 * resolved to its CSS when the pane is built and becomes `__styles(classes, cssRules)`, the form
 * Fluent's own components ship in. The browser then runs no style compiler: Griffel's resolver,
 * stylis and rtl-css-js stay out of the pane's first script.
 *
 * The plugin evaluates each style object with Babel, following the pane's modules it imports, which
 * are TypeScript: hence the TypeScript preset (without it, the first `import { type X }` fails to
 * parse). Builds only: tests and the dev server run `makeStyles` as written.
 */
import griffel from "@griffel/vite-plugin";
import type { Plugin } from "vite";

/** The Vite plugin: resolves makeStyles in the pane's modules (taskpane/*.ts, *.tsx). */
export function griffelBuildTimeStyles(): Plugin {
  const plugin = griffel({
    include: [/[\\/]taskpane[\\/][^\\/]+\.tsx?$/],
    babelOptions: {
      presets: [["@babel/preset-typescript", { isTSX: true, allExtensions: true }]],
    },
  });
  return { ...plugin, apply: "build" };
}
