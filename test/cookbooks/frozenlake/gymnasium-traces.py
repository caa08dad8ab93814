"""Gymnasium's own FrozenLake-v1 traces for the parity test: JSON cases on stdin, JSON traces on stdout.

A case is {map | mapName ("4x4", "8x8") | generate: {size, p, seed}, isSlippery, seed, actions}. Each trace holds the map, every uniform draw
the environment took (the reset's first, then one per step: numpy's PCG64 stream of gymnasium.make's env), and per
step the observation, reward, terminated, truncated and the move actually taken (null on an absorbing G or H).
"""
import json
import sys

import gymnasium
import numpy as np
from gymnasium.envs.toy_text.frozen_lake import MAPS, generate_random_map
from gymnasium.utils import seeding


class RecordingGenerator:
    """Stands in for env.np_random: hands out the real generator's draws and keeps them."""

    def __init__(self, generator, draws):
        self.generator = generator
        self.draws = draws

    def random(self, *args, **kwargs):
        value = self.generator.random(*args, **kwargs)
        self.draws.append(float(value))
        return value


def trace(case):
    generate = case.get("generate")
    if "map" in case:
        desc = case["map"]
    elif "mapName" in case:
        desc = MAPS[case["mapName"]]
    else:
        desc = generate_random_map(generate["size"], generate["p"], generate["seed"])
    env = gymnasium.make("FrozenLake-v1", desc=desc, is_slippery=case["isSlippery"])
    # reset draws the start cell from a fresh seeding.np_random(seed); the same generator's first draw is that draw.
    draws = [float(seeding.np_random(case["seed"])[0].random())]
    observation, _ = env.reset(seed=case["seed"])
    lake = env.unwrapped
    lake.np_random = RecordingGenerator(lake.np_random, draws)
    steps = []
    for action in case["actions"]:
        state = int(lake.s)
        transitions = lake.P[state][action]
        next_observation, reward, terminated, truncated, _ = env.step(action)
        index = int(np.argmax(np.cumsum([t[0] for t in transitions]) > draws[-1]))
        assert transitions[index][1] == next_observation, "the recorded draw does not explain gymnasium's step"
        tile = desc[state // len(desc[0])][state % len(desc[0])]
        if tile in "GH":
            move = None
        elif case["isSlippery"]:
            move = [(action - 1) % 4, action, (action + 1) % 4][index]
        else:
            move = action
        steps.append({"observation": int(next_observation), "reward": float(reward), "terminated": bool(terminated), "truncated": bool(truncated), "move": move})
    return {"map": list(desc), "start": int(observation), "draws": draws, "steps": steps}


print(json.dumps({"gymnasium": gymnasium.__version__, "traces": [trace(case) for case in json.load(sys.stdin)]}))
