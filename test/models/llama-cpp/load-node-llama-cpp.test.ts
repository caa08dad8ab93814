// node-llama-cpp is an optional dependency: without it, a GGUF command is one usage error naming the exact install.
import { describe, expect, it } from "vitest";
import { loadNodeLlamaCpp } from "../../../src/models/llama-cpp/load-node-llama-cpp.js";

describe("loadNodeLlamaCpp", () => {
  it("names the pinned install command when node-llama-cpp is not installed", async () => {
    const missing = Object.assign(new Error("Cannot find package 'node-llama-cpp' imported from /app/dist/x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(loadNodeLlamaCpp(() => Promise.reject(missing))).rejects.toThrow("an optional dependency this install left out: npm install -E node-llama-cpp@3.21.1");
  });

  it("passes on any other failure as it is, a missing package of its own included", async () => {
    await expect(loadNodeLlamaCpp(() => Promise.reject(new Error("libllama.so: cannot open shared object file")))).rejects.toThrow("libllama.so");
    const inner = Object.assign(new Error("Cannot find package 'chalk' imported from node_modules/node-llama-cpp/dist/x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    await expect(loadNodeLlamaCpp(() => Promise.reject(inner))).rejects.toThrow("Cannot find package 'chalk'");
  });

  it("loads the installed module", async () => {
    expect(typeof (await loadNodeLlamaCpp()).getLlama).toBe("function");
  });
});
