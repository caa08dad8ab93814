/**
 * The local provider: everything runs on this machine under bubblewrap, seccomp and cgroups. Episodes get a
 * bubblewrap environment over the host's read-only system; programs run in fork-server slots with the interpreter the
 * run resolved once (resolve-python.ts), which its record names with its packages.
 */
import type { Sandbox, SandboxRecord } from "../../core/sandbox.js";
import type { SandboxSetting } from "../../core/sandbox-setting.js";
import { findExecutable } from "../find-executable.js";
import type { ResolvedPython, ResolvePythonOptions } from "./resolve-python.js";

/** The local sandbox for `setting`; `python` options say where the interpreter is looked for (tests). */
export function createLocalSandbox(setting: Extract<SandboxSetting, { provider: "local" }>, python: Omit<ResolvePythonOptions, "python"> = {}): Sandbox {
  let resolved: Promise<ResolvedPython> | undefined;
  let resolvedRecord: ResolvedPython["record"] | undefined;
  // Resolved on first need and once: a run that grades no program never starts an interpreter.
  const resolveOnce = (): Promise<ResolvedPython> => {
    // Imported on first need, as the two kinds of sandbox are: a command that opens this provider loads only what it runs.
    resolved ??= import("./resolve-python.js").then(({ resolvePython }) => resolvePython({ ...python, python: setting.python })).then((answer) => {
      resolvedRecord = answer.record;
      return answer;
    });
    return resolved;
  };
  return {
    setting,
    record(): SandboxRecord {
      const isolation =
        findExecutable("bwrap") !== undefined
          ? "bubblewrap, seccomp and cgroups"
          : setting.unsafeNoSandbox
            ? "none: rlimits and seccomp only (--unsafe-no-sandbox, no bubblewrap on this machine)"
            : "unavailable: no bubblewrap on this machine";
      return {
        provider: "local",
        isolation,
        ...(resolvedRecord ? { python: resolvedRecord } : {}),
      };
    },
    async openEnvironment(spec) {
      return (await import("./bwrap-environment.js")).createBwrapEnvironment(spec);
    },
    async openPrograms(options = {}) {
      const [{ installation }, { openLocalPrograms }] = await Promise.all([resolveOnce(), import("./local-programs.js")]);
      return openLocalPrograms({ python: installation, unsafeNoSandbox: setting.unsafeNoSandbox, concurrency: options.concurrency, limits: options.limits });
    },
  };
}
