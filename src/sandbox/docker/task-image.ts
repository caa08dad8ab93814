/** The image a docker sandbox runs: the task's prebuilt image, else its Dockerfile built once per run, else the default. */
import { createHash } from "node:crypto";
import path from "node:path";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import type { SandboxSpec } from "../../core/sandbox-environment.js";
import { runDocker } from "./run-docker.js";

/** The image of a task with neither `[environment].docker_image` nor a Dockerfile (rLLM's docker sandbox default). */
export const defaultTaskImage = "python:3.11-slim";

/**
 * Image builds by build context, kept by the run's docker sandbox: concurrent episodes of a task share one build, a
 * later run rebuilds (from docker's cache).
 */
export type ImageBuilds = Map<string, Promise<string>>;

/** The image name for `spec`, building `spec.buildContext` (once per `builds`) when the spec names no image. */
export function taskImage(docker: string, spec: SandboxSpec, builds: ImageBuilds): Promise<string> {
  if (spec.image) return Promise.resolve(spec.image);
  if (!spec.buildContext) return Promise.resolve(defaultTaskImage);
  const context = path.resolve(spec.buildContext);
  let build = builds.get(context);
  if (!build) {
    build = buildImage(docker, context, spec.buildTimeoutMs);
    builds.set(context, build);
  }
  return build;
}

/** `rllm-task-<hash of the context's path>`: stable, so rebuilding a task replaces its image instead of adding one. */
export function taskImageTag(context: string): string {
  return `rllm-task-${createHash("sha256").update(path.resolve(context)).digest("hex").slice(0, 12)}`;
}

async function buildImage(docker: string, context: string, timeoutMs: number): Promise<string> {
  const tag = taskImageTag(context);
  const built = await runDocker(docker, ["build", "-q", "-t", tag, context], timeoutMs);
  if (built.status !== 0) throw new SandboxUnavailableError(`docker build of ${context} failed: ${(built.stderr || built.stdout).trim().slice(-2000)}`, "Fix the task's Dockerfile, or give the task a prebuilt [environment].docker_image");
  return tag;
}
