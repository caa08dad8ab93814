/** The tiny model's chat template: chat messages → token ids, deterministically (`<|role|> content <|end|>` per message). */
import { messageText, type ChatMessage } from "../../core/message.js";
import { compactPrompt, type CompactPrompt } from "./prompt-compaction.js";
import { encodeText, tokenId } from "./tokenizer.js";

const roleTokens = {
  system: tokenId("<|system|>"),
  user: tokenId("<|user|>"),
  assistant: tokenId("<|assistant|>"),
  tool: tokenId("<|user|>"),
} as const;
const END = tokenId("<|end|>");

/**
 * Token ids of a compacted prompt's content. A judge prompt starts with the expression, at the same positions as in a
 * solve prompt, so the judge re-derives the answer with the solver's skill: `E <|judge|> <|A|> a <|B|> b`.
 */
export function encodeCompactPrompt(prompt: CompactPrompt): number[] {
  if (prompt.kind === "solve") return encodeText(prompt.expression);
  return [
    ...encodeText(prompt.expression),
    tokenId("<|judge|>"),
    tokenId("<|A|>"),
    ...encodeText(prompt.solutionA),
    tokenId("<|B|>"),
    ...encodeText(prompt.solutionB),
  ];
}

/**
 * Prompt ids for `messages`, ending with `<|assistant|>` so the model answers next. When the last message is a
 * user message the model recognises (an arith question or a judge prompt), only that message is kept: the model
 * was trained on single-turn prompts, and a system prompt would not fit its context.
 */
export function applyChatTemplate(messages: readonly Pick<ChatMessage, "role" | "content">[]): number[] {
  const last = messages.at(-1);
  const compact = last?.role === "user" ? compactPrompt(messageText(last.content)) : undefined;
  if (compact) return [roleTokens.user, ...encodeCompactPrompt(compact), END, roleTokens.assistant];
  const ids: number[] = [];
  for (const message of messages) {
    ids.push(roleTokens[message.role], ...encodeText(messageText(message.content)), END);
  }
  ids.push(roleTokens.assistant);
  return ids;
}
