/** An LlmClient decorator that waits for the run's shared RateLimiter before each call and settles its tokens after. */
import type { ChatRequest, ChatResponse, LlmClient } from "../core/llm-client.js";
import type { RateLimiter } from "./rate-limiter.js";

/**
 * Wraps `client` so every call first takes a grant. The token cost is estimated before the call from the
 * prompt's characters (at the highest tokens-per-character ratio replies have shown, 1/4 before the first) plus
 * maxTokens, or the longest completion seen when unset; the reply's usage then replaces the estimate.
 */
export function withRateLimit(client: LlmClient, limiter: RateLimiter): LlmClient {
  let tokensPerCharacter = 0.25;
  let longestCompletion = 0;
  async function chat(request: ChatRequest): Promise<ChatResponse> {
    const characters = promptCharacters(request);
    const estimate = () => Math.ceil(characters * tokensPerCharacter) + (request.maxTokens ?? longestCompletion) * (request.n ?? 1);
    const grant = await limiter.acquire(estimate, request.signal);
    // A failed call keeps its estimate: it may still have used the provider's budget.
    const response = await client.chat(request);
    if (characters > 0) tokensPerCharacter = Math.max(tokensPerCharacter, response.usage.promptTokens / characters);
    longestCompletion = Math.max(longestCompletion, Math.ceil(response.usage.completionTokens / (request.n ?? 1)));
    limiter.settle(grant, response.usage.promptTokens + response.usage.completionTokens);
    return response;
  }
  return { model: client.model, chat };
}

function promptCharacters(request: ChatRequest): number {
  let characters = 0;
  for (const message of request.messages) characters += JSON.stringify(message.content ?? "").length;
  if (request.tools?.length) characters += JSON.stringify(request.tools).length;
  return characters;
}
