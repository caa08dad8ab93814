/** Where a sampled sequence ends under asample's stop conditions. */

/**
 * The index of the first token that is a stop token or completes a stop string (matched on the decoded text, control
 * tokens kept); -1 when none does.
 */
export function stopIndex(tokens: readonly number[], stopTokenIds: readonly number[], stopStrings: readonly string[], tokenText: (id: number) => string): number {
  let text = "";
  for (let index = 0; index < tokens.length; index++) {
    if (stopTokenIds.includes(tokens[index]!)) return index;
    text += tokenText(tokens[index]!);
    if (stopStrings.some((stop) => text.includes(stop))) return index;
  }
  return -1;
}
