/** The terminal cookbook's options that need no sandbox to check. */
import { describe, expect, it } from "vitest";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";

describe("createTerminalCookbook", () => {
  it("refuses --set image without the docker backend, which alone runs images", () => {
    expect(() => createTerminalCookbook({ image: "rllm-bookworm:minbase" })).toThrow(/needs the docker backend: add --set backend=docker/);
    expect(createTerminalCookbook({ image: "rllm-bookworm:minbase", backend: "docker" }).description).toContain("docker sandbox");
  });
});
