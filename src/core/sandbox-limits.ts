/** Resource limits of one sandbox and of each process in it, with the defaults the code verifier uses. */
import { z } from "zod";

export const SandboxLimitsSchema = z
  .object({
    /** Memory of the whole sandbox (cgroup), and the address space of each process in it (RLIMIT_AS), bytes; 4 GiB as EvalPlus and rLLM's firejail path use. */
    memoryBytes: z.number().int().positive().default(4 * 1024 ** 3),
    /** Processes and threads of the program (pids cgroup of the sandbox, or RLIMIT_NPROC without one). */
    processes: z.number().int().positive().default(32),
    /** Largest file the program may write (RLIMIT_FSIZE), bytes. */
    fileBytes: z.number().int().positive().default(16 * 1024 ** 2),
    /** Size of the private writable /tmp, bytes. */
    scratchBytes: z.number().int().positive().default(64 * 1024 ** 2),
    /** Open file descriptors (RLIMIT_NOFILE). */
    openFiles: z.number().int().positive().default(128),
    /** stdout (and the result channel) beyond this many bytes ends the run as an output-limit failure. */
    outputBytes: z.number().int().positive().default(16 * 1024 ** 2),
    /** stderr kept for the report; the rest is drained and dropped. */
    stderrBytes: z.number().int().positive().default(8 * 1024),
  })
  .strict();
export type SandboxLimits = z.infer<typeof SandboxLimitsSchema>;

