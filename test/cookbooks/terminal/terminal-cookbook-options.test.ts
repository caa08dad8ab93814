/** The terminal cookbook's options that need no sandbox to check. */
import { describe, expect, it } from "vitest";
import { createTerminalCookbook } from "../../../cookbooks/terminal/index.js";
import type { LlmClient } from "../../../src/core/llm-client.js";

const noClient = (): LlmClient => {
  throw new Error("no client in this test");
};

describe("createTerminalCookbook", () => {
  it("refuses --set image while planning a run whose sandbox is not docker, which alone runs images", () => {
    const configure = (provider: "local" | "docker") => createTerminalCookbook().configure!({ image: "rllm-bookworm:minbase" }, { sandbox: { provider }, createClient: noClient });
    expect(() => configure("local")).toThrow(/--set image=rllm-bookworm:minbase needs the docker sandbox: add --sandbox docker/);
    expect(configure("docker").description).toContain("in the run's sandbox");
  });
});
