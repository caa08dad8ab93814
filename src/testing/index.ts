/** `rllm-ts/test`: fakes for testing your own flows and cookbooks without a model server. */

// A scripted LlmClient that records every request.
export { createRecordingLlmClient, type RecordingLlmClient, type RecordingLlmClientOptions, type RecordingReply } from "./recording-llm-client.js";
// A run's sandbox and pools, and the contexts a flow and an evaluator take, for calling a cookbook directly.
export { openTestRun, type TestRun } from "./open-test-run.js";
