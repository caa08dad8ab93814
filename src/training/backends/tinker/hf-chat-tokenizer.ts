/** SFT's ChatTokenizer for a Hugging Face model: its chat template and tokenizer, through the Tinker client's HF chat renderer. */
import { InputError } from "../../../core/errors/input-error.js";
import type { ChatTokenizer } from "../../sft/tokenize-sft-row.js";
import type { HfChatRenderer } from "../../../llm/tinker/hf-chat-renderer.js";

/**
 * Prompt ids: the prompt rendered with the generation prompt, as the sampler sees it. Completion ids: the conversation
 * rendered with the reply, minus the prompt rendering, tokenized, up to and including its last end-of-turn token.
 *
 * Taking the difference of two renderings, instead of tokenizing the reply and appending an end token, keeps whatever
 * the template itself puts around an assistant turn (Qwen3 opens the latest one with an empty `<think>\n\n</think>\n\n`
 * block), so it is right for any template. What follows the end token (ChatML's "\n" between turns) is dropped: the
 * sampler stops at that token, so the model never produces what comes after it.
 */
export function hfChatTokenizer(renderer: HfChatRenderer): ChatTokenizer {
  const stops = new Set(renderer.stopTokenIds);
  return {
    promptTokenIds: (messages) => renderer.render(messages),
    completionTokenIds: (prompt, reply) => {
      const promptText = renderer.renderText(prompt);
      const fullText = renderer.renderText([...prompt, { role: "assistant", content: reply }], undefined, { addGenerationPrompt: false });
      if (!fullText.startsWith(promptText)) {
        throw new InputError(`tokenizer ${renderer.id}: its chat template does not render an assistant turn after its generation prompt; use --tokenize-method sampled`);
      }
      const ids = renderer.encode(fullText.slice(promptText.length));
      let end = ids.length - 1;
      while (end >= 0 && !stops.has(ids[end]!)) end -= 1;
      return end >= 0 ? ids.slice(0, end + 1) : ids;
    },
  };
}
