"""The torch worker behind `rllm serve --tinker --base-model <gguf model>`: one JSON request per stdin line, one JSON
answer per stdout line ({"id", "result"} or {"id", "error", "category"}); logs go to stderr. The local Tinker server
(src/tinker-server/torch-worker-process.ts) starts it with a Python that has torch, transformers, peft and gguf."""

import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main() -> None:
    # stdout carries the answers only: library prints go to stderr.
    answers = sys.stdout
    sys.stdout = sys.stderr
    learners = None
    for line in sys.stdin:
        request = json.loads(line)
        try:
            arguments = request.get("arguments", {})
            operation = request["operation"]
            if operation == "load":
                from gguf_lora_learners import GgufLoraLearners

                learners = GgufLoraLearners(arguments["directory"], arguments["file"], arguments["threads"])
                if arguments.get("tokenizer_directory"):
                    learners.save_tokenizer(arguments["tokenizer_directory"])
                result = learners.describe()
            else:
                result = run(learners, operation, arguments)
            answer = {"id": request["id"], "result": result}
        except Exception as error:  # noqa: BLE001 - every failure is answered, never a dead worker
            from tinker_losses import UserError

            category = "user" if isinstance(error, UserError) else "server"
            if category == "server":
                traceback.print_exc()
            answer = {"id": request["id"], "error": str(error) or type(error).__name__, "category": category}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


def run(learners, operation: str, arguments: dict):
    if learners is None:
        raise RuntimeError(f"{operation} before load")
    if operation == "create":
        return learners.create(arguments["model_id"], arguments["rank"], arguments["seed"], arguments["train_attn"], arguments["train_mlp"])
    if operation == "forward_backward":
        return learners.forward_backward(arguments["model_id"], arguments["loss_fn"], arguments["config"], arguments["rows"], arguments["forward_only"])
    if operation == "optim_step":
        return learners.optim_step(arguments["model_id"], arguments["adam"])
    if operation == "save_state":
        return learners.save_state(arguments["model_id"], arguments["path"])
    if operation == "load_state":
        return learners.load_state(arguments["model_id"], arguments["path"], arguments["optimizer"])
    if operation == "export_adapter":
        return learners.export_adapter(arguments["model_id"], arguments["path"])
    if operation == "unload":
        return learners.unload(arguments["model_id"])
    raise RuntimeError(f"unknown operation {operation}")


if __name__ == "__main__":
    main()
