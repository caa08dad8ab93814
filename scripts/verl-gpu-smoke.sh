#!/usr/bin/env bash
# A 2-step GRPO run with verl + vLLM on a small local model through `rllm train --backend verl`, on one GPU machine.
# Not run in CI (it needs a GPU, vLLM and minutes of downloads). Documented in docs/verl.md.
#
# Needs: an NVIDIA GPU; a Python with verl==0.9.1, ray==2.60.0 and a vLLM that verl 0.9.1 supports (set PYTHON, default
# python3); Node 20 and this repository built (npm ci); a small Hugging Face model on disk (MODEL=/path, default
# Qwen/Qwen2.5-0.5B-Instruct, which vLLM fetches from the hub if the machine can).
#
#   MODEL=/models/Qwen2.5-0.5B-Instruct scripts/verl-gpu-smoke.sh
#
# It starts a private Ray head (dashboard on 127.0.0.1), runs `rllm train arith --backend verl` for 2 steps, launches
# the bridge trainer with `rllm verl launch --train-config`, follows its log, and stops the head at the end. Exit 0
# when the run finished and wrote two train records with a finite loss.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
model="${MODEL:-Qwen/Qwen2.5-0.5B-Instruct}"
work="$(mktemp -d /tmp/rllm-verl-smoke-XXXX)"
bin="$(dirname "$(command -v "$python")")"
rllm=(node "$root/bin/rllm.js")
port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
gcs_port="$(port)" dashboard_port="$(port)" bridge_port="$(port)"

"$python" -c 'import verl, ray, vllm; assert verl.__version__ == "0.9.1", verl.__version__' ||
  { echo "verl-gpu-smoke: $python needs verl 0.9.1, ray and vllm" >&2; exit 2; }

cleanup() {
  # ray stop ends every Ray head on the machine: run this on a GPU machine of your own.
  PATH="$bin:$PATH" ray stop --force >/dev/null 2>&1 || true
}
trap cleanup EXIT
PATH="$bin:$PATH" PYTHONPATH="$root/integrations/verl${PYTHONPATH:+:$PYTHONPATH}" RAY_USAGE_STATS_ENABLED=0 \
  ray start --head --node-ip-address 127.0.0.1 --port "$gcs_port" --dashboard-host 127.0.0.1 \
  --dashboard-port "$dashboard_port" --include-dashboard true --temp-dir "$work/ray" --disable-usage-stats
export RAY_ADDRESS="http://127.0.0.1:$dashboard_port"

cat >"$work/train.json" <<JSON
{ "steps": 2, "tasksPerStep": 4, "groupSize": 4, "sampling": { "temperature": 1, "topP": 1, "maxTokens": 64 },
  "loss": { "kind": "ppo", "clipLow": 0.2, "clipHigh": 0.28 }, "lossAggregation": "token-mean",
  "optimizer": { "learningRate": 1e-6, "gradClipNorm": 1 }, "advantages": { "estimator": "grpo" },
  "validation": { "every": 100, "tasks": 4, "attempts": 1 }, "checkpointEvery": 100, "concurrency": 16 }
JSON

RLLM_VERL_BRIDGE_PORT="$bridge_port" "${rllm[@]}" train arith --backend verl --config "$work/train.json" --out "$work/run" &
train_pid=$!
job="$("${rllm[@]}" verl launch --bridge-url "http://127.0.0.1:$bridge_port" --model "$model" --train-config "$work/train.json" \
  --set trainer.n_gpus_per_node=1 --set data.train_batch_size=16 --set data.max_prompt_length=512 \
  --set data.max_response_length=256 --set actor_rollout_ref.actor.ppo_mini_batch_size=16 \
  --set actor_rollout_ref.rollout.gpu_memory_utilization=0.4 --set actor_rollout_ref.model.enable_gradient_checkpointing=True)"
echo "verl-gpu-smoke: job $job on $RAY_ADDRESS; its log: rllm verl logs $job --follow"
"${rllm[@]}" verl logs "$job" --follow --poll 10 &
wait "$train_pid"
records="$(grep -c '"kind":"train"' "$work/run/metrics.jsonl" || true)"
[ "$records" = 2 ] || { echo "verl-gpu-smoke: expected 2 train records in $work/run/metrics.jsonl, found $records" >&2; exit 1; }
echo "verl-gpu-smoke: ok: 2 GRPO steps on verl; run folder $work/run"
