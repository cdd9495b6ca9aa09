/** The dark theme, loaded only when the host is dark (the first screen carries one theme). */
export { webDarkTheme as darkTheme } from "@fluentui/react-components";
