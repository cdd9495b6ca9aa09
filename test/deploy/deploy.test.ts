/**
 * The container recipe and the Kubernetes example, read as text (no Docker engine or cluster here):
 * a multi-stage Dockerfile whose final stage runs as a non-root user with production dependencies
 * only and no shell, a .dockerignore that keeps local state out, and manifests whose probes and
 * grace periods agree with the server's.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_SHUTDOWN_GRACE_MS } from "../../src/addin-server/lifecycle.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

/** js-yaml, already installed (through cosmiconfig): parsing only, no schema of our own. */
const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

interface Stage {
  from: string;
  name: string;
  lines: string[];
}

/** The Dockerfile's stages: instructions joined across `\` continuations, comments dropped. */
function stages(text: string): Stage[] {
  const instructions = text
    .replace(/\\\r?\n/g, " ")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  const out: Stage[] = [];
  for (const line of instructions) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?$/i.exec(line);
    if (from) out.push({ from: from[1]!, name: from[2] ?? "", lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

describe("the Dockerfile", () => {
  const all = stages(read("Dockerfile"));
  const final = all.at(-1)!;
  const named = (name: string) => all.find((s) => s.name === name)!;
  const copiedFrom = final.lines
    .map((l) => /^COPY\s+--from=(\S+)\s+(\S+)/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);

  it("builds with the development dependencies in a stage of its own", () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const build = named("build");
    expect(build.lines).toContain("RUN npm ci --no-audit --no-fund");
    expect(build.lines.some((l) => /^RUN npm run build\b/.test(l))).toBe(true);
  });

  it("runs on node:20-slim with production dependencies and dist/ only", () => {
    expect(final.from).toBe("node:20-slim");
    // Its node_modules come from a stage that installed without the development dependencies.
    const modules = copiedFrom.find((m) => m[2] === "/app/node_modules");
    expect(modules).toBeDefined();
    expect(named(modules![1]!).lines.some((l) => /npm ci\b.*--omit=dev/.test(l))).toBe(true);
    // The build stage gives only dist/.
    for (const m of copiedFrom.filter((m) => m[1] === "build")) expect(m[2]).toMatch(/^\/app\/dist\//);
    expect(final.lines.some((l) => /^RUN\b/.test(l))).toBe(false);
    expect(final.lines.some((l) => /^COPY\s+\.\s/.test(l))).toBe(false);
  });

  it("runs as a non-root user, from an exec-form ENTRYPOINT, on an exposed port", () => {
    const users = final.lines.filter((l) => /^USER\s/.test(l));
    expect(users.at(-1)).toBe("USER node");
    const entry = final.lines.filter((l) => /^ENTRYPOINT\s/.test(l));
    expect(entry).toEqual(['ENTRYPOINT ["node", "dist/server/main.js"]']);
    expect(final.lines).toContain("EXPOSE 8080");
  });

  it("names the environment the server reads", () => {
    const env = final.lines.filter((l) => /^ENV\s/.test(l)).join(" ");
    for (const name of [
      "PORT=8080",
      "TENANT_ORIGINS=",
      "DATA_ORIGINS=",
      "ADDIN_BASE_URL=",
      "SHUTDOWN_GRACE_MS=",
      "LOG_FORMAT=",
    ]) {
      expect(env).toContain(name);
    }
  });
});

describe(".dockerignore", () => {
  it("keeps installed and built files, history and certificates out of the build context", () => {
    const entries = read(".dockerignore")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const name of ["node_modules", "dist", ".git", ".certs"]) expect(entries).toContain(name);
  });
});

describe("the Kubernetes example (deploy/kubernetes)", () => {
  // biome-ignore lint/suspicious/noExplicitAny: parsed YAML, whose shape the assertions check
  type Doc = Record<string, any>;
  const docs = ["deployment.yaml", "service.yaml", "hpa.yaml"].map(
    (file) => yaml.load(read(`deploy/kubernetes/${file}`)) as Doc,
  );
  const [deployment, service, hpa] = docs as [Doc, Doc, Doc];
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env = Object.fromEntries(container.env.map((e: Doc) => [e.name, e.value]));

  it("probes readiness at /readyz and liveness at /healthz on the container's port", () => {
    expect(deployment.kind).toBe("Deployment");
    expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port: "http" });
    expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "http" });
    expect(container.ports).toContainEqual({ name: "http", containerPort: Number(env.PORT) });
  });

  it("gives the pod longer to stop than the preStop pause and the server's grace together", () => {
    const grace = Number(env.SHUTDOWN_GRACE_MS ?? DEFAULT_SHUTDOWN_GRACE_MS);
    const command = container.lifecycle?.preStop?.exec?.command as string[] | undefined;
    const pause = command?.[0] === "sleep" ? Number(command[1]) * 1000 : 0;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(pause + grace);
  });

  it("runs as a non-root user and sets the server's environment", () => {
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container.args).toEqual(["--host", "0.0.0.0"]);
    for (const name of [
      "PORT",
      "TENANT_ORIGINS",
      "DATA_ORIGINS",
      "ADDIN_BASE_URL",
      "SHUTDOWN_GRACE_MS",
      "LOG_FORMAT",
    ]) {
      expect(env[name], name).toBeTruthy();
    }
    expect(env.ADDIN_BASE_URL).toMatch(/^https:\/\//);
  });

  it("puts a Service and an autoscaler in front of the same pods", () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(service.kind).toBe("Service");
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0].targetPort).toBe("http");
    expect(hpa.kind).toBe("HorizontalPodAutoscaler");
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: "Deployment", name: deployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });
});
