/** Which image a docker sandbox runs, decided without a daemon: the task's image, its built Dockerfile, the default. */
import { describe, expect, it } from "vitest";
import { SandboxSpecSchema } from "../../../src/core/sandbox-environment.js";
import { defaultTaskImage, taskImage, taskImageTag } from "../../../src/sandbox/docker/task-image.js";

// A docker binary that must never run: these cases decide without calling it.
const noDocker = "/nonexistent/docker";

describe("taskImage", () => {
  it("runs the task's prebuilt image even when it also has a Dockerfile", async () => {
    expect(await taskImage(noDocker, SandboxSpecSchema.parse({ image: "alexgshaw/task:20250101", buildContext: "/tasks/a/environment" }), new Map())).toBe("alexgshaw/task:20250101");
  });

  it("falls back to rLLM's default image when the task has neither image nor Dockerfile", async () => {
    expect(await taskImage(noDocker, SandboxSpecSchema.parse({}), new Map())).toBe(defaultTaskImage);
  });

  it("reports a failed build as no sandbox, naming the build context", async () => {
    await expect(taskImage(noDocker, SandboxSpecSchema.parse({ buildContext: "/tasks/broken/environment" }), new Map())).rejects.toThrow(/docker build of \/tasks\/broken\/environment failed/);
  });
});

describe("taskImageTag", () => {
  it("names a build context's image by its path, the same for the same folder and different for another", () => {
    expect(taskImageTag("/tasks/a/environment")).toBe(taskImageTag("/tasks/a/../a/environment"));
    expect(taskImageTag("/tasks/a/environment")).not.toBe(taskImageTag("/tasks/b/environment"));
    expect(taskImageTag("/tasks/a/environment")).toMatch(/^rllm-task-[0-9a-f]{12}$/);
  });
});
