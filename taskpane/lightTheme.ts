/**
 * Fluent's light theme, the pane's theme unless the host is dark. Built, this is `undefined` and
 * the page carries the theme as CSS variables on `:root` instead (tooling/fluent-tokens.ts): the
 * first script holds no theme, and nothing turns one into CSS on load.
 */
import { type Theme, webLightTheme } from "@fluentui/react-components";

export const lightTheme: Theme | undefined = webLightTheme;
