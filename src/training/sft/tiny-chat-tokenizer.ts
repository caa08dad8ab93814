/** The embedded tiny model's ChatTokenizer: the prompt its server renders, and a reply closed by `<|end|>` as it samples them. */
import { applyChatTemplate } from "../../models/tiny/chat-template.js";
import { encodeText, END_ID } from "../../models/tiny/tokenizer.js";
import type { ChatTokenizer } from "./tokenize-sft-row.js";

/** The tiny model's chat template and tokenizer (its template puts nothing between the turn opener and the reply). */
export const tinyChatTokenizer: ChatTokenizer = {
  promptTokenIds: (messages) => applyChatTemplate(messages),
  completionTokenIds: (_prompt, reply) => [...encodeText(reply), END_ID],
};
