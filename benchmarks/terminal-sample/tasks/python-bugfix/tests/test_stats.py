import sys

sys.path.insert(0, "/app")
from stats import mean, spread  # noqa: E402


def test_mean_of_values():
    assert mean([1, 2, 3, 6]) == 3


def test_mean_of_empty_list():
    assert mean([]) == 0.0


def test_spread():
    assert spread([4, 1, 9]) == 8
