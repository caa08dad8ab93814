/**
 * EvalPlus's chat prompt (evalplus/codegen.py's instruction prefix, evalplus/provider/utility.py's
 * make_raw_chat_prompt): the instruction, then the problem's prompt in a plain fence. EvalPlus also pre-fills the
 * assistant turn with "Below is a Python script …```python"; an OpenAI-compatible chat request cannot, so it is not sent.
 */
const instructionPrefix = "Please provide a self-contained Python script that solves the following problem in a markdown code block:";

/** The user message for a HumanEval or MBPP prompt. */
export function evalplusPrompt(problem: string): string {
  return `${instructionPrefix}\n\`\`\`\n${problem.trim()}\n\`\`\`\n`;
}
