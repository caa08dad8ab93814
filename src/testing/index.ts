/** `rllm-ts/test`: fakes for testing your own flows and cookbooks without a model server. */

// A scripted LlmClient that records every request.
export { createRecordingLlmClient, type RecordingLlmClient, type RecordingLlmClientOptions, type RecordingReply } from "./recording-llm-client.js";
