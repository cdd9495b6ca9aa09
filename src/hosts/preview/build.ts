import type { UserConfig } from "vite";

/** Build settings of the preview target (see vite.config.ts). */
export function previewBuild(): UserConfig {
  return {};
}
