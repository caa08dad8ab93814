/** EndpointConfigurationError: the endpoint refuses us for good (401/403/404), so the run stops instead of retrying. */
import { InfraError } from "./infra-error.js";

/** 401/403/404: every later request will fail the same way, so the run should stop. */
export class EndpointConfigurationError extends InfraError {
  constructor(message: string, status: number) {
    super(message, status);
    this.name = "EndpointConfigurationError";
  }
}
