#!/usr/bin/python3
"""CTest: scripts/make_figures.py --quick writes every figure of docs/figures, each a real plot.

Usage: figures_test.py SALTUS_BINARY PROJECT_ROOT WORK_DIR
Fails when a figure is missing, is not a PNG, is nearly blank (fewer than 2 % of its pixels
differ from the background) or shows almost nothing (fewer than 4 colours), or when the script
fails (it checks its own runs, e.g. that Example 4 has exactly 40 impacts).
"""
import os
import shutil
import subprocess
import sys

from PIL import Image


def main():
    saltus, root, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    out = os.path.join(work, "figures")
    script = os.path.join(root, "scripts", "make_figures.py")
    done = subprocess.run(["/usr/bin/python3", script, "--quick", "--saltus", saltus, "--out", out,
                           "--work", os.path.join(work, "runs")],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(done.stdout)
    if done.returncode != 0:
        sys.exit(f"make_figures.py exited with {done.returncode}")
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(root, "scripts"))
    import make_figures  # noqa: E402  (the list of figures it promises)

    problems = []
    for name in make_figures.FIGURES:
        path = os.path.join(out, name)
        if not os.path.isfile(path):
            problems.append(f"{name}: not written")
            continue
        with Image.open(path) as im:
            if im.format != "PNG":
                problems.append(f"{name}: not a PNG ({im.format})")
                continue
            rgb = im.convert("RGB")
            w, h = rgb.size
            counts = rgb.getcolors(maxcolors=w * h)  # [(count, colour)]
        drawn = 1.0 - max(counts)[0] / (w * h)  # pixels not of the background colour
        colours = len(counts)
        print(f"{name}: {w}x{h}, {100 * drawn:.1f} % drawn, {colours} colours")
        if w < 200 or h < 150:
            problems.append(f"{name}: only {w}x{h} pixels")
        if drawn < 0.02 or colours < 4:
            problems.append(f"{name}: nearly blank ({100 * drawn:.2f} % drawn, {colours} colours)")
    extra = sorted(set(os.listdir(out)) - set(make_figures.FIGURES))
    if extra:
        problems.append(f"files not in FIGURES: {extra}")
    if problems:
        sys.exit("\n".join(problems))
    print(f"all {len(make_figures.FIGURES)} figures written")


if __name__ == "__main__":
    main()
