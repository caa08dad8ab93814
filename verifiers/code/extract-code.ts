/** Takes the program out of a model reply: the last fenced code block, or the whole text when it has no fence. */

const fencedBlock = /```[^\n`]*\n([\s\S]*?)```/g;

/** The last fenced block of `response` (any language tag), undefined when the reply has fences but none is closed. */
export function extractLastCodeBlock(response: string): string | undefined {
  const blocks = [...response.matchAll(fencedBlock)];
  return blocks.length === 0 ? undefined : blocks[blocks.length - 1]![1]!;
}

/** The program in `response`: the last fenced block when there is one, else the response itself (a bare program). */
export function extractProgram(response: string): string {
  return extractLastCodeBlock(response) ?? (response.includes("```") ? "" : response);
}
