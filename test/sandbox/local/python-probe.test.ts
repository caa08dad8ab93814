// The interpreter the local sandbox runs programs with: asked where it lives without blocking (python-probe.ts), the
// answer validated (find-python.ts), chosen in order --python, $RLLM_PYTHON, the pinned environment, python3 on PATH,
// and named with its packages (resolve-python.ts).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findPython } from "../../../src/sandbox/local/find-python.js";
import { probePython } from "../../../src/sandbox/local/python-probe.js";
import { installedVersions, resolvePython } from "../../../src/sandbox/local/resolve-python.js";
import { SandboxUnavailableError } from "../../../src/sandbox/sandbox-unavailable-error.js";
import { rmSync } from "node:fs";

const folder = mkdtempSync(path.join(os.tmpdir(), "rllm-probe-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A stand-in interpreter answering the probe with `answer`, and site-packages holding `packages` (name → version). */
function fakePython(name: string, packages: Record<string, string> = {}): string {
  const site = path.join(folder, `${name}-site`);
  mkdirSync(site, { recursive: true });
  for (const [pkg, version] of Object.entries(packages)) mkdirSync(path.join(site, `${pkg}-${version}.dist-info`));
  const executable = path.join(folder, name);
  writeFileSync(executable, `#!/bin/sh\necho '${JSON.stringify([executable, "/usr", "3.12.9", [site]])}'\n`);
  chmodSync(executable, 0o755);
  return executable;
}

const lock = path.join(folder, "sandbox.txt");
writeFileSync(lock, "# pins\nnumpy==2.5.5\nsortedcontainers==2.4.0\n");

describe("the Python probe", () => {
  it("gives the installation of a real interpreter", async () => {
    const installation = findPython("python3", await probePython("python3"));
    expect(installation.version).toMatch(/^3\.\d+\.\d+/);
    expect(path.isAbsolute(installation.executable)).toBe(true);
  });

  it("is validated like any answer: a wrong one or a missing interpreter is refused, naming the command", async () => {
    expect(() => findPython("python3", { status: 0, stdout: '["/usr/bin/python3", 3]', stderr: "" })).toThrow(/"python3" is not a Python 3 interpreter/);
    const missing = await probePython("/nonexistent/python3");
    expect(() => findPython("/nonexistent/python3", missing)).toThrow(SandboxUnavailableError);
    expect(() => findPython("/nonexistent/python3", missing)).toThrow(/cannot run the Python interpreter "\/nonexistent\/python3"/);
  });
});

describe("resolvePython", () => {
  const cache = path.join(folder, "envs");
  const environment = { HOME: folder, RLLM_PYTHON_ENVS: cache, PATH: process.env.PATH };

  it("takes --python first, then $RLLM_PYTHON, and records why with the pinned packages' versions", async () => {
    const given = fakePython("given-python", { numpy: "2.5.5" });
    const fromVariable = fakePython("variable-python", { sortedcontainers: "2.4.0" });
    const byFlag = await resolvePython({ python: given, environment: { ...environment, RLLM_PYTHON: fromVariable }, lockFile: lock });
    expect(byFlag.record).toMatchObject({ executable: given, version: "3.12.9", source: "--python", packages: { numpy: "2.5.5", sortedcontainers: null } });
    const byVariable = await resolvePython({ environment: { ...environment, RLLM_PYTHON: fromVariable }, lockFile: lock });
    expect(byVariable.record).toMatchObject({ executable: fromVariable, source: "$RLLM_PYTHON", packages: { numpy: null, sortedcontainers: "2.4.0" } });
  });

  it("falls back to python3 on PATH only when the pinned environment is not built, and says so", async () => {
    const resolved = await resolvePython({ environment, lockFile: lock });
    expect(resolved.record.source).toBe("python3 on PATH: the pinned sandbox environment is not built (scripts/python-env.sh sandbox)");
  });

  it("takes the built environment of this very lock, and no other", async () => {
    const built = path.join(cache, "sandbox-abc");
    mkdirSync(path.join(built, "bin"), { recursive: true });
    writeFileSync(path.join(built, "bin", "python"), `#!/bin/sh\nexec ${fakePython("pinned-python", { numpy: "2.5.5", sortedcontainers: "2.4.0" })} "$@"\n`);
    chmodSync(path.join(built, "bin", "python"), 0o755);
    writeFileSync(path.join(built, "lock.txt"), "numpy==1.0.0\n");
    writeFileSync(path.join(built, ".complete"), "");
    expect((await resolvePython({ environment, lockFile: lock })).record.source).toMatch(/^python3 on PATH/);
    writeFileSync(path.join(built, "lock.txt"), "# pins\nnumpy==2.5.5\nsortedcontainers==2.4.0\n");
    const pinned = await resolvePython({ environment, lockFile: lock });
    expect(pinned.record).toMatchObject({ source: "the pinned sandbox environment (sandbox.txt)", packages: { numpy: "2.5.5", sortedcontainers: "2.4.0" } });
  });

  it("reads a package's version from its dist-info or egg-info folder, names compared as pip does", () => {
    const site = path.join(folder, "site-names");
    mkdirSync(path.join(site, "Sorted_Containers-2.4.0.dist-info"), { recursive: true });
    mkdirSync(path.join(site, "numpy-1.24.2.egg-info"), { recursive: true });
    expect(installedVersions([site, "/nonexistent"], ["sorted-containers", "numpy", "scipy"])).toEqual({ "sorted-containers": "2.4.0", numpy: "1.24.2", scipy: null });
  });
});
