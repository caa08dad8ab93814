// A port that cannot be had is the user's mistake, named by its option: Node's own `listen EADDRINUSE` named neither
// the flag nor what to do, and rllm serve exited 1 with it.
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { startHttpServer } from "../../src/http/start-http-server.js";
import { runCli } from "../helpers/run-cli.js";

const handler = async () => {};

describe("startHttpServer on a port in use", () => {
  it("refuses with an InputError naming port for a library caller and --port on the command line", async () => {
    const first = await startHttpServer(handler, { host: "127.0.0.1", port: 0 });
    try {
      const port = Number(new URL(first.origin).port);
      const refused = await startHttpServer(handler, { host: "127.0.0.1", port }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InputError);
      expect((refused as InputError).message).toMatch(new RegExp(`^port ${port}: 127\\.0\\.0\\.1:${port} is already in use`));
      expect((refused as InputError).flagMessage).toMatch(new RegExp(`^--port ${port}: .*choose another --port, or 0 for any free one$`));

      const served = await runCli(["serve", "--model", "tiny", "--port", String(port)]);
      expect(served.code).toBe(2);
      expect(served.stderr.trim()).toMatch(new RegExp(`^rllm: --port ${port}: 127\\.0\\.0\\.1:${port} is already in use`));
    } finally {
      await first.close();
    }
  });
});
