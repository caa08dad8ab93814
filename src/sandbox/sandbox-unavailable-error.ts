/** SandboxUnavailableError: no working sandbox on this machine, and the user did not opt out of isolation. */
import { InfraError } from "../core/errors/infra-error.js";

/** What to do when bubblewrap is missing or broken. */
export const installBubblewrap =
  "Install bubblewrap (Debian/Ubuntu: apt-get install -y bubblewrap) or pass --unsafe-no-sandbox to run model-written programs without isolation (never on a machine with secrets)";

export class SandboxUnavailableError extends InfraError {
  constructor(
    readonly reason: string,
    /** The fix to suggest; the default is for a missing or broken bubblewrap. */
    readonly remedy: string = installBubblewrap,
  ) {
    super(`no sandbox for untrusted code: ${reason}. ${remedy}`);
    this.name = "SandboxUnavailableError";
  }
}
