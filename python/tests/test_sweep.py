"""The package's sweep equals `saltus sweep` point by point (bits), threads change nothing,
failed points are rows, and a seeded random sweep of the bouncing ball meets the Zeno formula."""
import csv
import math

import numpy as np

import saltus
from conftest import bits, model_path, run_cli

BALL = model_path("bouncing_ball.toml")
COLLECT = ["zeno_time", "events.count", "final.x", "t_final"]


def test_sweep_equals_cli_sweep(cli, scratch):
    out = scratch / "sweep"
    done = run_cli(cli, "sweep", BALL, "--vary", "e=0.2:0.8:4", "--vary", "h0=1:2:3", "--collect",
                   ",".join(COLLECT), "--set", "t_end=20", "--threads", "2", "--no-plot",
                   "--out", str(out))
    assert done.returncode == 0, done.stderr
    with open(out / "sweep.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    result = saltus.sweep(BALL, {"e": (0.2, 0.8, 4), "h0": "1:2:3"}, COLLECT, t_end=20, threads=2)
    assert len(rows) == len(result) == 12 and result.failed_count == 0
    for i, row in enumerate(rows):
        assert row["status"] == result["status"][i]
        assert row["succeeded"] == ("1" if result.succeeded[i] else "0")
        for c in ["e", "h0"] + COLLECT:
            assert bits(float(row[c])) == bits(result[c][i]), (i, c, row[c], result[c][i])


def test_threads_do_not_change_the_result():
    one = saltus.sweep(BALL, ["e=0.1:0.9:9"], COLLECT, threads=1)
    two = saltus.sweep(BALL, ["e=0.1:0.9:9"], COLLECT, threads=2)
    assert one.values.tobytes() == two.values.tobytes() and one["status"] == two["status"]
    assert np.isnan(one["zeno_time"][-1]) and not np.isnan(one["zeno_time"][0])  # e = 0.9: t_inf > t_end
    # and each point equals a single run with that override
    for i, e in enumerate(one["e"]):
        r = saltus.load(BALL, e=float(e)).run()
        zeno = math.nan if r.zeno_time is None else r.zeno_time  # None: no Zeno before t_end
        assert bits(zeno) == bits(one["zeno_time"][i])
        assert len(r.events) == one["events.count"][i]


def test_failed_point_is_a_row():
    r = saltus.sweep(BALL, {"h0": (-1, 1, 3)}, ["zeno_time"], threads=2)
    assert r["status"][0] == "invalid-input" and not r.succeeded[0]
    assert math.isnan(r["zeno_time"][0]) and r.failed_count == 1
    assert all(r.succeeded[1:]) and r["status"][1:] == ["end-time-reached"] * 2


def test_seeded_random_sweep_meets_the_zeno_formula():
    r = saltus.sweep(BALL, {"e": (0.2, 0.9, 1), "h0": (0.5, 3.0, 1)}, ["zeno_time"],
                     random=16, seed=1234, t_end=60)
    again = saltus.sweep(BALL, {"e": (0.2, 0.9, 1), "h0": (0.5, 3.0, 1)}, ["zeno_time"],
                         random=16, seed=1234, t_end=60)
    assert r.values.tobytes() == again.values.tobytes()
    assert len(r) == 16 and r.failed_count == 0
    e, h0 = r["e"], r["h0"]
    assert np.all((0.2 <= e) & (e <= 0.9) & (0.5 <= h0) & (h0 <= 3.0))
    t_inf = np.sqrt(2 * h0 / 9.81) * (1 + e) / (1 - e)
    # rtol 1e-10 in the model; the prediction from the flight times is good to ~1e-6 relative
    assert np.all(np.abs(r["zeno_time"] - t_inf) < 1e-6 * t_inf)


def test_frames_when_pandas_is_present():
    pd = __import__("pytest").importorskip("pandas")
    r = saltus.sweep(BALL, ["e=0.5:0.6:2"], ["zeno_time"])
    f = r.to_frame()
    assert isinstance(f, pd.DataFrame) and list(f.columns) == ["status", "message", "succeeded",
                                                               "e", "zeno_time"]
    run = saltus.load(BALL).run()
    t = run.trajectory.to_frame()
    assert list(t.columns[:3]) == ["mode", "t", "j"] and len(t) == len(run.trajectory)


def test_sweep_releases_the_gil():
    # While a sweep runs in another thread, this thread keeps running Python code: with the GIL
    # held for the whole C++ call it could not tick at all between the call's start and end.
    import threading
    import time

    span = {}

    def work():
        span["start"] = time.perf_counter()
        # 1200 points (~0.1 s): the middle half of the call spans many 0.5 ms ticks even on a
        # loaded machine (60 points took 6 ms and left 2 ticks there once).
        saltus.sweep(BALL, ["e=0.1:0.9:1200"], ["zeno_time"], threads=1)
        span["end"] = time.perf_counter()

    ticks = []
    t = threading.Thread(target=work)
    t.start()
    while t.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.0005)
    t.join()
    length = span["end"] - span["start"]
    inside = [x for x in ticks if span["start"] + 0.25 * length < x < span["end"] - 0.25 * length]
    assert len(inside) >= 3, (length, len(ticks))
