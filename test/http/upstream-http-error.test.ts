import { describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/errors/infra-error.js";
import { ModelError } from "../../src/core/errors/model-error.js";
import { HttpError } from "../../src/http/http-error.js";
import { upstreamHttpError } from "../../src/http/upstream-http-error.js";

// What the OpenAI SDK's APIError carries: the status and the body's `error` object.
const sdkError = (status: number, message: string, param: string | null = null) =>
  Object.assign(new Error(`${status} ${message}`), { status, error: { message, type: "invalid_request_error", param } });

describe("upstreamHttpError", () => {
  it("relays an upstream 400 with its message, type and param", () => {
    const error = upstreamHttpError(new ModelError("request rejected with HTTP 400", { cause: sdkError(400, "prompt too long", "messages") }));
    expect(error.toBody()).toEqual({ error: { message: "upstream: prompt too long", type: "invalid_request_error", param: "messages", code: 400 } });
  });

  it("relays a 404 reported as an InfraError status", () => {
    const error = upstreamHttpError(new InfraError("HTTP 404: The model `x` does not exist", 404));
    expect(error.status).toBe(404);
    expect(error.type).toBe("not_found_error");
    expect(error.message).toMatch(/does not exist/);
  });

  it("answers an unreachable or failing upstream with a 502 server_error", () => {
    expect(upstreamHttpError(new InfraError("connection failed")).toBody().error).toMatchObject({ code: 502, type: "server_error" });
    expect(upstreamHttpError(new InfraError("HTTP 503: busy", 503)).status).toBe(502);
  });

  it("passes an HttpError raised before the upstream call through unchanged", () => {
    const refused = new HttpError(400, 'field "n": too many', "invalid_request_error", "n");
    expect(upstreamHttpError(refused)).toBe(refused);
  });
});
