"""The bench's math set as an inspect-ai task: rows from $PEERS_MATH_ROWS, one generate() call, the answer matched."""
import os

from inspect_ai import Task, task
from inspect_ai.dataset import FieldSpec, json_dataset
from inspect_ai.scorer import includes
from inspect_ai.solver import generate


@task
def bench_math():
    dataset = json_dataset(os.environ["PEERS_MATH_ROWS"], FieldSpec(input="question", target="ground_truth", id="id"))
    return Task(dataset=dataset, solver=generate(), scorer=includes())
