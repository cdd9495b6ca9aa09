/**
 * Deploying with the repository's own clasp (a devDependency; npm scripts find it in
 * node_modules/.bin, so no global install): the example project file points clasp at dist/sheets,
 * and clasp, given it, would push exactly the built add-on. Checked offline with clasp's own
 * `show-file-status`; nothing here talks to Google.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DIST } from "../../support/apps-script.js";

const ROOT = resolve(DIST, "../..");
const CLASP = join(ROOT, "node_modules/.bin/clasp");
const temporary: string[] = [];

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the repository's parts clasp reads, with `claspJson` as its .clasp.json (or none). */
function project(claspJson: string | null): string {
  const dir = mkdtempSync(join(tmpdir(), "clasp-project-"));
  temporary.push(dir);
  cpSync(DIST, join(dir, "dist/sheets"), { recursive: true });
  cpSync(
    join(ROOT, "tooling/sheets/check-clasp-project.mjs"),
    join(dir, "tooling/sheets/check-clasp-project.mjs"),
  );
  if (claspJson !== null) writeFileSync(join(dir, ".clasp.json"), claspJson);
  return dir;
}

describe("deploy:sheets with the local clasp", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

  it("clasp is a devDependency, installed in node_modules/.bin, and deploy:sheets builds then pushes with it", () => {
    expect(pkg.devDependencies["@google/clasp"]).toBeDefined();
    expect(existsSync(CLASP)).toBe(true);
    const script: string = pkg.scripts["deploy:sheets"];
    // A small wrapper (it takes --tenant flags for the build): check, build, then the local clasp.
    expect(script).toBe("node tooling/sheets/deploy.mjs");
    const wrapper = readFileSync(join(ROOT, "tooling/sheets/deploy.mjs"), "utf8");
    expect(wrapper).toContain('["npm", "run", "build:sheets"]');
    expect(wrapper).toContain('["clasp", "push", "--force"]');
    // npm puts node_modules/.bin first on PATH: no global clasp, no npx download.
    expect(`${script}\n${wrapper}`).not.toMatch(/npx|\/usr\/|-g\b/);
  });

  it(".clasp.json.example makes clasp push exactly dist/sheets: Code.js, the manifest and the sidebar's files", () => {
    const dir = project(readFileSync(join(ROOT, ".clasp.json.example"), "utf8"));
    const out = execFileSync(CLASP, ["show-file-status", "--json"], {
      cwd: dir,
      env: { ...process.env, HOME: dir },
      encoding: "utf8",
      timeout: 30_000,
    });
    const status = JSON.parse(out.slice(out.indexOf("{")));
    const built = readdirSync(DIST).map((f) => `dist/sheets/${f}`);
    expect([...status.filesToPush].sort()).toEqual(built.sort());
    expect(status.filesToPush).toContain("dist/sheets/appsscript.json");
  }, 40_000);

  it("without a .clasp.json, deploying stops at once and says how to make one", () => {
    const run = spawnSync(process.execPath, ["tooling/sheets/check-clasp-project.mjs"], {
      cwd: project(null),
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Copy \.clasp\.json\.example to \.clasp\.json/);
    const example = spawnSync(process.execPath, ["tooling/sheets/check-clasp-project.mjs"], {
      cwd: project(readFileSync(join(ROOT, ".clasp.json.example"), "utf8")),
      encoding: "utf8",
    });
    expect(example.status).toBe(1);
    expect(example.stderr).toMatch(/no script id yet/);
  });

  it("a real .clasp.json (it names your script) is never committed", () => {
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain(".clasp.json");
  });
});
