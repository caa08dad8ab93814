/** A GGUF's own chat template (its `tokenizer.chat_template`, Jinja) rendered with @huggingface/jinja, as transformers renders it. */
import { Template } from "@huggingface/jinja";
import { messageText, type ChatMessage } from "../../core/message.js";

/** Renders chats to prompt text ending where the assistant's reply starts. */
export type RenderChat = (messages: readonly ChatMessage[]) => string;

/** The renderer of `templateText`, given the model's BOS and EOS token strings (templates may write them). */
export function ggufChatTemplate(templateText: string, tokens: { bos: string; eos: string }): RenderChat {
  const template = new Template(templateText);
  return (messages) =>
    template.render({
      messages: messages.map((message) => ({ ...message, content: messageText(message.content) })),
      add_generation_prompt: true,
      bos_token: tokens.bos,
      eos_token: tokens.eos,
    });
}
