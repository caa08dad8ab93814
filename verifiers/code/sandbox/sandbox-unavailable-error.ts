/** SandboxUnavailableError: no working sandbox on this machine, and the user did not opt out of isolation. */
import { InfraError } from "../../../src/core/errors/infra-error.js";

export class SandboxUnavailableError extends InfraError {
  constructor(readonly reason: string) {
    super(
      `no sandbox for untrusted code: ${reason}. Install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap) ` +
        "or pass --unsafe-no-sandbox to run model-written programs without isolation (never on a machine with secrets)",
    );
    this.name = "SandboxUnavailableError";
  }
}
