#!/usr/bin/python3
"""Animates a run of a model with a [drawing] section (called by `saltus animate DIR`).

Reads DIR/drawing.json (shapes, view, events with the positions of the point shapes) and
DIR/drawing.csv (every shape's world coordinates at every sample), both written by `saltus run`,
and writes DIR/animation.gif (Pillow), atomically (temporary file + rename).

Each frame draws segments (polylines), polygons, circles and points; a point shape whose name is
an event's guard name, or its part after ':' ("impact:tip" -> "tip"), is marked at that event:
a red star while the event is recent (the last 3 frames), a small grey cross after that. The
title gives the time, the jump count j and the mode.
Usage: animate_run.py DIR [--frames N] [--fps F]
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.patches import Circle, Polygon  # noqa: E402
from gif_frames import RECENT_FRAMES, canvas_frame, frame_indices, write_gif  # noqa: E402



def read_drawing(out):
    with open(os.path.join(out, "drawing.json")) as f:
        drawing = json.load(f)
    with open(os.path.join(out, "drawing.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"animate_run.py: {out}/drawing.csv has no samples")
    return drawing, rows


def shape_columns(shape):
    cols = []
    for i in range(shape["points"]):
        cols.append((f"{shape['name']}.x{i}", f"{shape['name']}.y{i}"))
    return cols


def view_box(drawing, rows):
    if drawing.get("view"):
        return drawing["view"]
    xs, ys = [], []
    for shape in drawing["shapes"]:
        r = [float(row[f"{shape['name']}.r"]) for row in rows] if shape["kind"] == "circle" else None
        for cx, cy in shape_columns(shape):
            x = np.array([float(row[cx]) for row in rows])
            y = np.array([float(row[cy]) for row in rows])
            pad = np.array(r) if r is not None else 0.0
            xs += [np.nanmin(x - pad), np.nanmax(x + pad)]
            ys += [np.nanmin(y - pad), np.nanmax(y + pad)]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    margin = 0.05 * max(x1 - x0, y1 - y0, 1e-9)
    return [x0 - margin, x1 + margin, y0 - margin, y1 + margin]


def marked_point(guard, point_names):
    tail = guard.split(":")[-1]
    if guard in point_names:
        return guard
    return tail if tail in point_names else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--frames", type=int, default=200)
    ap.add_argument("--fps", type=int, default=25)
    args = ap.parse_args()
    drawing, rows = read_drawing(args.dir)
    shapes = drawing["shapes"]
    view = view_box(drawing, rows)
    indices = frame_indices(rows, max(2, args.frames))
    point_names = {s["name"] for s in shapes if s["kind"] == "point"}
    events = [e for e in drawing["events"] if marked_point(e["guard"], point_names)]

    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=80)
    ax.set_xlim(view[0], view[1])
    ax.set_ylim(view[2], view[3])
    ax.set_aspect("equal", adjustable="box")
    ax.grid(alpha=0.3)
    artists = []
    for k, shape in enumerate(shapes):
        color = shape["color"] or f"C{k % 10}"
        kind = shape["kind"]
        if kind == "segment":
            (a,) = ax.plot([], [], color=color, lw=shape["width"], solid_capstyle="round")
        elif kind == "polygon":
            a = Polygon(np.zeros((shape["points"], 2)), closed=True, fill=shape["fill"],
                        facecolor=color, edgecolor=color, lw=shape["width"], alpha=0.9)
            ax.add_patch(a)
        elif kind == "circle":
            a = Circle((0, 0), 1, fill=shape["fill"], facecolor=color, edgecolor=color,
                       lw=shape["width"])
            ax.add_patch(a)
        else:  # point
            (a,) = ax.plot([], [], "o", color=color, ms=2 + shape["width"])
        artists.append(a)
    (old_marks,) = ax.plot([], [], "x", color="0.45", ms=5, label="earlier events")
    (new_marks,) = ax.plot([], [], "*", color="red", ms=14, label="event")
    if events:  # below the axes, where it covers no body
        fig.legend(handles=[new_marks, old_marks], loc="lower center", ncol=2, fontsize=8,
                   frameon=False)
        fig.subplots_adjust(bottom=0.14)
    title = ax.text(0.5, 1.02, "", transform=ax.transAxes, ha="center", va="bottom")
    unit = drawing.get("time_unit", "")
    # Blitting: the static parts (axes, grid, legend) are drawn once; each frame restores them
    # and draws only the moving artists (several times faster than redrawing the figure).
    moving = artists + [old_marks, new_marks, title]
    for a in moving:
        a.set_animated(True)
    fig.canvas.draw()
    background = fig.canvas.copy_from_bbox(fig.bbox)

    frames = []
    frame_times = [float(rows[i]["t"]) for i in indices]
    for n, i in enumerate(indices):
        row = rows[i]
        for shape, a in zip(shapes, artists):
            pts = np.array([[float(row[cx]), float(row[cy])] for cx, cy in shape_columns(shape)])
            kind = shape["kind"]
            if kind == "segment" or kind == "point":
                a.set_data(pts[:, 0], pts[:, 1])
            elif kind == "polygon":
                a.set_xy(pts)
            else:
                a.center = (pts[0, 0], pts[0, 1])
                a.set_radius(float(row[f"{shape['name']}.r"]))
        t = frame_times[n]
        recent_from = frame_times[max(0, n - RECENT_FRAMES)] if n >= RECENT_FRAMES else -math.inf
        old = [e for e in events if e["t"] <= recent_from]
        new = [e for e in events if recent_from < e["t"] <= t]
        for marks, chosen in ((old_marks, old), (new_marks, new)):
            pos = [e["points"][marked_point(e["guard"], point_names)] for e in chosen]
            marks.set_data([p[0] for p in pos], [p[1] for p in pos])
        title.set_text(f"{drawing.get('model', '')}   t = {t:.3f} {unit}   j = {row['j']}   "
                       f"mode {row['mode']}")
        fig.canvas.restore_region(background)
        for a in moving:
            ax.draw_artist(a)
        frames.append(canvas_frame(fig))
    plt.close(fig)

    path = write_gif(args.dir, frames, args.fps)
    print(f"wrote {path} ({len(frames)} frames, {len(events)} events marked)")


if __name__ == "__main__":
    main()
