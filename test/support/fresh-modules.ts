/**
 * Set up before every test file of a project whose files share a worker process (vite.config.ts,
 * tooling/test-tiers.ts `testProjects`): the file starts from fresh modules of this repository, as
 * it would in a process of its own. A module's state (a cache, a `once`, a store) left by the file
 * before is dropped; only what Node itself loaded (node_modules: playwright-core, Vite, jsdom's
 * libraries) is kept, which is what sharing the process saves.
 */
import { vi } from "vitest";

vi.resetModules();
