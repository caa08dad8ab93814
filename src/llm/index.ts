/** `rllm-ts/llm`: the OpenAI-compatible LlmClient and the Step that records one chat call (the contract itself is in `rllm-ts/core`). */
export { createOpenAiClient, type OpenAiClientOptions } from "./openai-client.js";
export { stepFromChat, type StepSource } from "./step-from-chat.js";
