/**
 * A ChatRenderer from a Hugging Face model's own files: `tokenizer.json` through @huggingface/tokenizers and the
 * `chat_template` of `tokenizer_config.json` through @huggingface/jinja. The files come from a directory (--tokenizer),
 * a model pulled into $RLLM_HOME/models (the local Tinker server's torch worker writes them beside the GGUF), the
 * local Hugging Face cache, or the hub (HF_ENDPOINT selects a mirror).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import { messageText, type ChatMessage, type ToolDefinition } from "../../core/message.js";
import { rllmHome } from "../../core/rllm-home.js";
import { modelDirectory, pulledModels } from "../../models/catalog/model-store.js";
import type { ChatRenderer } from "./chat-renderer.js";

const TokenizerConfigSchema = z
  .object({
    chat_template: z.union([z.string(), z.array(z.object({ name: z.string(), template: z.string() }))]).optional(),
    eos_token: z.union([z.string(), z.object({ content: z.string() })]).nullish(),
    bos_token: z.union([z.string(), z.object({ content: z.string() })]).nullish(),
  })
  .passthrough();

// Tokens that end an assistant turn in the common chat formats (ChatML, Llama 3, Gemma), kept when the vocabulary has them.
const TURN_END_TOKENS = ["<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "<end_of_turn>"];

/** A ChatRenderer that also shows the rendered prompt text (for checks against a reference rendering). */
export interface HfChatRenderer extends ChatRenderer {
  /** The template's text for `messages`; with the assistant's turn opener appended unless `addGenerationPrompt` is false. */
  renderText(messages: readonly ChatMessage[], tools?: readonly ToolDefinition[], options?: { addGenerationPrompt?: boolean }): string;
  /** Ids of `text`, special-token strings included, without added BOS/EOS. */
  encode(text: string): number[];
}

/** The renderer for parsed tokenizer files. */
export function createHfChatRenderer(id: string, tokenizerJson: unknown, tokenizerConfig: unknown): HfChatRenderer {
  const config = TokenizerConfigSchema.parse(tokenizerConfig);
  const templateText = typeof config.chat_template === "string" ? config.chat_template : config.chat_template?.find((entry) => entry.name === "default")?.template;
  if (!templateText) throw new Error(`tokenizer ${id}: tokenizer_config.json has no chat_template`);
  const template = new Template(templateText);
  const tokenizer = new Tokenizer(tokenizerJson as object, tokenizerConfig as object);
  const tokenText = (token: typeof config.eos_token) => (token == null ? undefined : typeof token === "string" ? token : token.content);
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false }).ids;
  const idOf = (text: string) => {
    const ids = encode(text);
    return ids.length === 1 ? ids[0]! : undefined;
  };
  const eos = tokenText(config.eos_token);
  const stopTokenIds = [...new Set([...(eos ? [eos] : []), ...TURN_END_TOKENS].map(idOf).filter((value): value is number => value !== undefined))];
  const renderText: HfChatRenderer["renderText"] = (messages, tools, options) =>
    template.render({
      messages: messages.map((message) => ({ ...message, content: messageText(message.content) })),
      ...(tools && tools.length > 0 ? { tools } : {}),
      add_generation_prompt: options?.addGenerationPrompt ?? true,
      bos_token: tokenText(config.bos_token) ?? "",
      eos_token: eos ?? "",
    });
  return {
    id,
    stopTokenIds,
    renderText,
    encode,
    render: (messages, tools) => encode(renderText(messages, tools)),
    decode: (ids) => tokenizer.decode([...ids], { skip_special_tokens: true }),
  };
}

/** Loads the renderer of `tokenizerId` from `directory`, else the model store, else the Hugging Face cache, else the hub. */
export async function loadHfChatRenderer(tokenizerId: string, directory?: string): Promise<HfChatRenderer> {
  const files = directory ? readDirectory(directory) : (readModelStore(tokenizerId) ?? readHubCache(tokenizerId) ?? (await fetchFromHub(tokenizerId)));
  return createHfChatRenderer(tokenizerId, files.tokenizer, files.config);
}

function readDirectory(directory: string): { tokenizer: unknown; config: unknown } {
  if (!existsSync(directory)) throw new InputError(`--tokenizer ${directory}: no such directory`);
  const read = (name: string) => {
    const file = path.join(directory, name);
    if (!existsSync(file)) throw new InputError(`--tokenizer ${directory}: no ${name} there (it needs tokenizer.json and tokenizer_config.json)`);
    return JSON.parse(readFileSync(file, "utf8")) as unknown;
  };
  return { tokenizer: read("tokenizer.json"), config: read("tokenizer_config.json") };
}

// A pulled model whose tokenizer files were written beside its GGUF: `tokenizerId` is the Hugging Face id it was made
// from (get_info's tokenizer_id), or its own name (a local Tinker server's base model, sampled without a training model).
function readModelStore(tokenizerId: string): { tokenizer: unknown; config: unknown } | undefined {
  const home = rllmHome();
  const model = pulledModels(home).find((manifest) => manifest.huggingFaceId === tokenizerId || manifest.name === tokenizerId);
  const directory = model && path.join(modelDirectory(home, model.name), "tokenizer");
  return directory && existsSync(path.join(directory, "tokenizer.json")) ? readDirectory(directory) : undefined;
}

// The hub cache layout: $HF_HOME/hub/models--<org>--<name>/snapshots/<revision>/<file>.
function readHubCache(tokenizerId: string): { tokenizer: unknown; config: unknown } | undefined {
  const home = process.env.HF_HOME ?? path.join(os.homedir(), ".cache", "huggingface");
  const snapshots = path.join(process.env.HF_HUB_CACHE ?? path.join(home, "hub"), `models--${tokenizerId.replace(/\//g, "--")}`, "snapshots");
  if (!existsSync(snapshots)) return undefined;
  for (const revision of readdirSync(snapshots)) {
    const directory = path.join(snapshots, revision);
    if (existsSync(path.join(directory, "tokenizer.json")) && existsSync(path.join(directory, "tokenizer_config.json"))) return readDirectory(directory);
  }
  return undefined;
}

async function fetchFromHub(tokenizerId: string): Promise<{ tokenizer: unknown; config: unknown }> {
  const endpoint = (process.env.HF_ENDPOINT ?? "https://huggingface.co").replace(/\/+$/, "");
  const get = async (name: string) => {
    const url = `${endpoint}/${tokenizerId}/resolve/main/${name}`;
    const response = await fetch(url, process.env.HF_TOKEN ? { headers: { Authorization: `Bearer ${process.env.HF_TOKEN}` } } : {});
    if (!response.ok) throw new Error(`tokenizer ${tokenizerId}: ${url} answered HTTP ${response.status}; pass --tokenizer DIR with tokenizer.json and tokenizer_config.json`);
    return (await response.json()) as unknown;
  };
  return { tokenizer: await get("tokenizer.json"), config: await get("tokenizer_config.json") };
}
