/** The tiny model's tokenizer: special tokens, a few multi-character tokens for the answer and rating tags, then printable ASCII. */

/** Control tokens of the chat template; they never appear in decoded completions. */
export const SPECIAL_TOKENS = [
  "<|pad|>",
  "<|system|>",
  "<|user|>",
  "<|assistant|>",
  "<|end|>",
  "<|judge|>",
  "<|A|>",
  "<|B|>",
] as const;

// Multi-character pieces of the two skills' outputs, one token each so completions stay short.
const WORD_TOKENS = ["\\boxed{", "<rating_A>", "</rating_A>", "<rating_B>", "</rating_B>"];

// Printable ASCII and newline; anything else is read as "?".
const CHARACTER_TOKENS = ["\n", ...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index))];

export const VOCABULARY: readonly string[] = [...SPECIAL_TOKENS, ...WORD_TOKENS, ...CHARACTER_TOKENS];

const idOf = new Map(VOCABULARY.map((token, index) => [token, index]));
// Longest pieces first so that greedy matching prefers `</rating_A>` over `<`.
const multiCharacterTokens = VOCABULARY.filter((token) => token.length > 1).sort((a, b) => b.length - a.length);

/** Id of a token string (special tokens included); throws for a string that is not one token. */
export function tokenId(token: string): number {
  const id = idOf.get(token);
  if (id === undefined) throw new Error(`"${token}" is not a token of the tiny vocabulary`);
  return id;
}

export const PAD_ID = tokenId("<|pad|>");
export const END_ID = tokenId("<|end|>");
const UNKNOWN_ID = tokenId("?");
const specialCount = SPECIAL_TOKENS.length;

/** Whether an id is a control token (skipped when decoding completions). */
export function isSpecialToken(id: number): boolean {
  return id < specialCount;
}

/** Encodes text greedily: multi-character tokens (special ones included) first, then single characters. */
export function encodeText(text: string): number[] {
  const ids: number[] = [];
  let position = 0;
  while (position < text.length) {
    const piece = text[position] === "<" || text[position] === "\\" ? matchWord(text, position) : undefined;
    if (piece !== undefined) {
      ids.push(idOf.get(piece)!);
      position += piece.length;
      continue;
    }
    ids.push(idOf.get(text[position]!) ?? UNKNOWN_ID);
    position += 1;
  }
  return ids;
}

function matchWord(text: string, position: number): string | undefined {
  return multiCharacterTokens.find((token) => text.startsWith(token, position));
}

/** Decodes ids to text; control tokens are dropped unless `keepSpecial` is set. */
export function decodeTokens(ids: readonly number[], keepSpecial = false): string {
  return ids
    .filter((id) => keepSpecial || !isSpecialToken(id))
    .map((id) => VOCABULARY[id] ?? "")
    .join("");
}

/** The text of one token id ("" for an id outside the vocabulary). */
export function tokenText(id: number): string {
  return VOCABULARY[id] ?? "";
}
