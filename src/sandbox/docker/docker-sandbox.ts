/**
 * The docker provider: one container per episode, from the task's image or its Dockerfile, built once per run. It
 * runs environments only: programs for a code grader run on the local provider or on sandbox services.
 */
import { InputError } from "../../core/errors/input-error.js";
import type { Sandbox } from "../../core/sandbox.js";
import type { ImageBuilds } from "./task-image.js";

/** The docker sandbox of one run. */
export function createDockerSandbox(): Sandbox {
  const builds: ImageBuilds = new Map();
  return {
    setting: { provider: "docker" },
    record: () => ({ provider: "docker" }),
    async openEnvironment(spec) {
      return (await import("./docker-environment.js")).createDockerEnvironment(spec, { builds });
    },
    async openPrograms() {
      throw new InputError("--sandbox docker runs terminal tasks' environments, not a code grader's programs: grade them with --sandbox local or on sandbox services (--sandbox URL[,URL…])");
    },
  };
}
