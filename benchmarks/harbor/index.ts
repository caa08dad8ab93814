/** Terminal tasks (Harbor task.toml, Terminal-Bench v1 task.yaml) as a Benchmark, and the TerminalTask each loader puts in `Task.metadata`. */
export { createTerminalBenchmark } from "./terminal-benchmark.js";
export { loadTerminalTasks } from "./load-terminal-tasks.js";
export { TerminalTaskSchema, terminalTaskOf, type TerminalTask } from "./terminal-task.js";
