from pathlib import Path


def test_countdown():
    assert Path("/app/countdown.txt").read_text().split() == [str(n) for n in range(10, 0, -1)]
