/** Chat and text completions on a served model: request → sampled choices → OpenAI-shaped response bodies or stream chunks. */
import { randomUUID } from "node:crypto";
import { HttpError } from "../../http/http-error.js";
import type { SampledChoice, ServedModel, TokenAlternative } from "./served-model.js";
import type { ChatCompletionRequest, CompletionRequest } from "./server-schemas.js";

/** Writes one server-sent event; the stream handlers call it per chunk. */
export type SendEvent = (data: unknown) => void;

type Common = Pick<ChatCompletionRequest, "model" | "n" | "temperature" | "top_p" | "max_tokens" | "max_completion_tokens" | "stop" | "seed">;

function checkModel(model: ServedModel, requested: string | undefined): void {
  if (requested !== undefined && requested !== model.name) {
    throw new HttpError(404, `The model \`${requested}\` does not exist. This server serves \`${model.name}\`.`, "invalid_request_error", "model");
  }
}

async function sample(model: ServedModel, promptIds: number[], request: Common, logprobs: { wanted: boolean; top: number }, onText?: (choice: number, text: string) => void): Promise<SampledChoice[]> {
  checkModel(model, request.model);
  for (const id of promptIds) {
    if (id >= model.vocabularySize) throw new HttpError(400, `Token id ${id} is outside the vocabulary (size ${model.vocabularySize})`, "invalid_request_error", "prompt");
  }
  if (promptIds.length >= model.contextLength) {
    throw new HttpError(
      400,
      `This model's maximum context length is ${model.contextLength} tokens. However, your prompt is ${promptIds.length} tokens.`,
      "invalid_request_error",
      "messages",
    );
  }
  const stop = request.stop == null ? [] : typeof request.stop === "string" ? [request.stop] : request.stop;
  return model.generate(
    promptIds,
    {
      n: request.n,
      temperature: request.temperature,
      topP: request.top_p,
      maxTokens: Math.min(request.max_completion_tokens ?? request.max_tokens ?? model.contextLength, model.contextLength - promptIds.length),
      stop: stop.filter((text) => text.length > 0),
      seed: request.seed ?? undefined,
      logprobs: logprobs.wanted,
      topLogprobs: logprobs.top,
    },
    onText,
  );
}

function usage(promptIds: number[], choices: SampledChoice[]) {
  const completion = choices.reduce((total, choice) => total + choice.tokenIds.length, 0);
  return { prompt_tokens: promptIds.length, completion_tokens: completion, total_tokens: promptIds.length + completion };
}

function alternative(model: ServedModel, entry: TokenAlternative) {
  const token = model.tokenText(entry.id);
  return { token, logprob: entry.logprob, bytes: [...Buffer.from(token)] };
}

function chatLogprobs(model: ServedModel, choice: SampledChoice) {
  // Asked for logprobs, a model pushes one with every token id, so the two arrays have the same length.
  return {
    content: choice.tokenIds.map((id, index) => ({
      ...alternative(model, { id, logprob: choice.logprobs[index]! }),
      top_logprobs: (choice.topLogprobs[index] ?? []).map((entry) => alternative(model, entry)),
    })),
  };
}

/** POST /v1/chat/completions; streams through `send` when the request asks for it, else returns the body. */
export async function chatCompletion(model: ServedModel, request: ChatCompletionRequest, send?: SendEvent): Promise<unknown> {
  const promptIds = model.applyChatTemplate(request.messages);
  const wantsLogprobs = request.logprobs === true;
  const topLogprobs = wantsLogprobs ? (request.top_logprobs ?? 0) : 0;
  if (!wantsLogprobs && (request.top_logprobs ?? 0) > 0) throw new HttpError(400, "top_logprobs requires logprobs: true", "invalid_request_error", "top_logprobs");
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const header = { id, object: "chat.completion.chunk", created, model: model.name };
  const emitted = new Map<number, number>();
  const onText = send
    ? (index: number, text: string) => {
        const done = emitted.get(index) ?? 0;
        if (done === 0) send({ ...header, choices: [{ index, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }] });
        emitted.set(index, Math.max(done, text.length, 1));
        if (text.length > done) send({ ...header, choices: [{ index, delta: { content: text.slice(done) }, finish_reason: null, logprobs: null }] });
      }
    : undefined;
  const choices = await sample(model, promptIds, request, { wanted: wantsLogprobs, top: topLogprobs }, onText);
  if (send) {
    choices.forEach((choice, index) => {
      send({
        ...header,
        choices: [{ index, delta: {}, finish_reason: choice.finishReason, logprobs: wantsLogprobs ? chatLogprobs(model, choice) : null, ...(request.return_token_ids ? { token_ids: choice.tokenIds } : {}) }],
        ...(request.return_token_ids && index === 0 ? { prompt_token_ids: promptIds } : {}),
      });
    });
    if (request.stream_options?.include_usage) send({ ...header, choices: [], usage: usage(promptIds, choices) });
    return undefined;
  }
  return {
    id,
    object: "chat.completion",
    created,
    model: model.name,
    choices: choices.map((choice, index) => ({
      index,
      message: { role: "assistant", content: choice.text },
      finish_reason: choice.finishReason,
      logprobs: wantsLogprobs ? chatLogprobs(model, choice) : null,
      ...(request.return_token_ids ? { token_ids: choice.tokenIds } : {}),
    })),
    usage: usage(promptIds, choices),
    ...(request.return_token_ids ? { prompt_token_ids: promptIds } : {}),
  };
}

/** POST /v1/completions: a text or token-id prompt, continued as is (no chat template). */
export async function textCompletion(model: ServedModel, request: CompletionRequest, send?: SendEvent): Promise<unknown> {
  const prompt = Array.isArray(request.prompt) && request.prompt.length === 1 && typeof request.prompt[0] !== "number" ? request.prompt[0] : request.prompt;
  const promptIds = typeof prompt === "string" ? model.encodeText(prompt) : (prompt as number[]);
  if (promptIds.length === 0) throw new HttpError(400, "The prompt is empty", "invalid_request_error", "prompt");
  const wantsLogprobs = request.logprobs != null;
  const id = `cmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const header = { id, object: "text_completion", created, model: model.name };
  const emitted = new Map<number, number>();
  const onText = send
    ? (index: number, text: string) => {
        const done = emitted.get(index) ?? 0;
        if (text.length > done) send({ ...header, choices: [{ index, text: text.slice(done), finish_reason: null, logprobs: null }] });
        emitted.set(index, Math.max(done, text.length));
      }
    : undefined;
  const choices = await sample(model, promptIds, request, { wanted: wantsLogprobs, top: wantsLogprobs ? request.logprobs! : 0 }, onText);
  const tokenText = (id: number) => model.tokenText(id);
  const legacyLogprobs = (choice: SampledChoice) =>
    wantsLogprobs
      ? {
          tokens: choice.tokenIds.map(tokenText),
          token_logprobs: choice.logprobs,
          top_logprobs: choice.topLogprobs.map((entries) => Object.fromEntries(entries.map((entry) => [tokenText(entry.id), entry.logprob]))),
          text_offset: choice.tokenIds.map((_, index) => choice.tokenIds.slice(0, index).map(tokenText).join("").length),
        }
      : null;
  const finalChoice = (choice: SampledChoice, index: number, text: string) => ({
    index,
    text,
    finish_reason: choice.finishReason,
    logprobs: legacyLogprobs(choice),
    ...(request.return_token_ids ? { token_ids: choice.tokenIds, prompt_token_ids: promptIds } : {}),
  });
  if (send) {
    for (const [index, choice] of choices.entries()) send({ ...header, choices: [finalChoice(choice, index, "")] });
    if (request.stream_options?.include_usage) send({ ...header, choices: [], usage: usage(promptIds, choices) });
    return undefined;
  }
  return { id, object: "text_completion", created, model: model.name, choices: choices.map((choice, index) => finalChoice(choice, index, choice.text)), usage: usage(promptIds, choices) };
}
