#!/usr/bin/env node
// The rllm command: registers the tsx loader so the TypeScript sources run as they are, with no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
