/** The LiveCodeBench code-generation prompt that rLLM's DeepCoder flow uses (starter code → complete it; else stdin → stdout). */

export const livecodebenchSystemPrompt =
  "You are an expert Python programmer. You will be given a question (problem specification) and will generate a correct " +
  "Python program that matches the specification and passes all tests. Reason first if you need to, then give the final " +
  "solution in one ```python code block; only the last code block is run.";

/** The user message for `question`, with the starter code when the problem has one. */
export function livecodebenchPrompt(question: string, starterCode?: string | null): string {
  const format =
    starterCode && starterCode.trim() !== ""
      ? "### Format: You will use the following starter code to write the solution to the problem and enclose your code within delimiters.\n" +
        "```python\n" +
        `${starterCode.replace(/\s+$/, "")}\n` +
        "```"
      : "### Format: Read the inputs from stdin solve the problem and write the answer to stdout (do not directly test on the sample inputs). " +
        "Enclose your code within delimiters as follows. Ensure that when the python program runs, it reads the inputs, runs the algorithm and writes output to STDOUT.\n" +
        "```python\n# YOUR CODE HERE\n```";
  return `### Question:\n${question}\n\n${format}\n\n### Answer: (use the provided format with backticks)\n`;
}
