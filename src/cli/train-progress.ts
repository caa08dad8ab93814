/**
 * rllm train's progress on stderr: a line per step and per validation (each step's ending in an ETA from TrainEta),
 * a validation's episodes and judge verdicts as they land, and, on a terminal, the current phase redrawn in place.
 */
import type { TrainingOptions } from "../training/loop/run-training.js";
import type { TrainRecord } from "../training/loop/train-records.js";
import type { TrainConfig } from "../training/train-config.js";
import { TrainEta } from "./train-eta.js";

/**
 * Progress callbacks for runTraining. On a terminal the phase line is redrawn in place; elsewhere (CI logs, files)
 * phases are left out and each record is one plain line, so no carriage returns or escape codes reach the log.
 */
export function trainProgress(
  stream: Pick<NodeJS.WriteStream, "write" | "isTTY">,
  config: TrainConfig,
  now: () => number = Date.now,
): Pick<TrainingOptions, "onPhase" | "onRecord" | "onValidationProgress"> {
  const isValidationStep = (step: number) => step % config.validation.every === 0 || step === config.steps;
  const eta = new TrainEta(now(), config.steps, isValidationStep);
  const line = (record: TrainRecord) => {
    if (record.kind === "train") eta.stepDone(now());
    else eta.validationDone(record.seconds);
    const left = eta.secondsLeft(record.step, record.kind === "train" && isValidationStep(record.step));
    return `${formatRecord(record, config)}${left !== undefined && left > 0 ? ` · eta ${formatDuration(left)}` : ""}`;
  };
  const progressLine = (step: number, done: number, total: number, unit: string) => `validation after ${step} steps: ${done}/${total} ${unit}`;
  if (!stream.isTTY) {
    // A validation can take a minute: a plain line at each quarter of its episodes, then of its judge verdicts.
    let lastQuarter = 0;
    return {
      onRecord: (record) => stream.write(`${line(record)}\n`),
      onValidationProgress: (step, done, total, unit = "episodes") => {
        const quarter = Math.floor((4 * done) / total);
        if (done === 1) lastQuarter = 0;
        if (quarter > lastQuarter && done < total) {
          lastQuarter = quarter;
          stream.write(`${progressLine(step, done, total, unit)}\n`);
        }
      },
    };
  }
  return {
    onPhase: (phase) => stream.write(`\r\x1b[K${phase}`),
    onRecord: (record) => stream.write(`\r\x1b[K${line(record)}\n`),
    onValidationProgress: (step, done, total, unit = "episodes") => stream.write(`\r\x1b[K${progressLine(step, done, total, unit)}`),
  };
}

// 75 s → "1m15s", 3700 s → "1h01m".
function formatDuration(totalSeconds: number): string {
  const seconds = Math.round(totalSeconds);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")}m`;
}

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

/** One progress line per record. */
function formatRecord(record: TrainRecord, config: TrainConfig): string {
  if (record.kind === "validation") {
    const parts = [`validation @${record.step}: pass@1 ${percent(record.passAt1.mean)} ± ${percent(record.passAt1.stderr)} (n=${record.passAt1.n})`];
    if (record.passAt1Gain) {
      const gain = record.passAt1Gain;
      parts.push(`gain ${gain.mean >= 0 ? "+" : ""}${(100 * gain.mean).toFixed(1)} ± ${(100 * gain.stderr).toFixed(1)} points (paired over ${gain.tasks} tasks)`);
    }
    if (record.judgeAccuracy) parts.push(`judge pairwise ${percent(record.judgeAccuracy.mean)} ± ${percent(record.judgeAccuracy.stderr)} (n=${record.judgeAccuracy.n} verdicts)`);
    const startPairs = record.judgeOnStartPairs;
    if (startPairs?.gain) {
      const { accuracy, gain } = startPairs;
      parts.push(`judge on step-0 pairs ${percent(accuracy.mean)} (${gain.mean >= 0 ? "+" : ""}${(100 * gain.mean).toFixed(1)} ± ${(100 * gain.stderr).toFixed(1)} points, paired over ${gain.tasks} pairs)`);
    }
    if (record.rerankAt1) parts.push(`rerank@1 ${percent(record.rerankAt1.mean)} ± ${percent(record.rerankAt1.stderr)}`);
    return `${parts.join(" · ")} [${record.seconds.toFixed(0)}s]`;
  }
  const dropped = record.transform.droppedSmallGroups + record.transform.droppedUniformGroups;
  const parts = [
    `step ${record.step}/${config.steps}`,
    `reward ${record.reward.toFixed(3)}`,
    `acc ${percent(record.accuracy)}`,
    ...(record.judgeAccuracy !== null ? [`judge ${percent(record.judgeAccuracy)}`] : []),
    `groups ${record.transform.keptGroups} kept/${dropped} dropped`,
    `tokens ${record.trainedTokens}`,
    ...(config.async.maxStaleness > 0 && record.staleness ? [`staleness ${record.staleness.mean.toFixed(2)}${record.staleness.droppedGroups > 0 ? ` (${record.staleness.droppedGroups} stale dropped)` : ""}`] : []),
    ...(record.update ? [`loss ${record.update.loss!.toFixed(4)}`, `mismatch ${record.update.logprobMismatchMean!.toExponential(1)}`, ...(record.update.klToReference === undefined ? [] : [`kl ${record.update.klToReference.toExponential(1)}`])] : ["no update"]),
    `${record.stepSeconds.toFixed(1)}s`,
  ];
  return parts.join(" · ");
}
