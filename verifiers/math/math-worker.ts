/** Worker-thread entry of the math grading pool: grades each chunk of jobs it is sent, replying once per job. */
import { parentPort, workerData } from "node:worker_threads";
import { gradeMathUnderPolicy } from "./grade-math-under-policy.js";
import type { MathJobResult, MathWorkerData, ResolvedMathJob } from "./math-worker-pool.js";
import { warmUpMathGrading } from "./warm-up-math-grading.js";

const port = parentPort!;
const { warmUpPolicy } = (workerData as { data: MathWorkerData }).data;

port.on("message", (message: { jobs: { id: number; job: ResolvedMathJob }[] }) => {
  // One reply per job, as soon as it is graded: the pool times each job separately.
  for (const { id, job } of message.jobs) port.postMessage(gradeJob(id, job));
});

// gradeMathUnderPolicy turns any exception on an answer into a scored 0 (`unparseable`); only the thread's death
// reaches the pool, which tells the answer's fault from its own with a control check (math-worker-pool.ts).
function gradeJob(id: number, job: ResolvedMathJob): MathJobResult {
  return { id, verdict: gradeMathUnderPolicy(job.response, job.groundTruth, job.policy, job.choices) };
}

// Warm the common paths so that a first check is not charged for compilation.
warmUpMathGrading(warmUpPolicy);
// Tells the pool this thread is loaded and warm, so time limits start counting only now.
port.postMessage({ ready: true });
