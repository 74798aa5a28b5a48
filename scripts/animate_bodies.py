#!/usr/bin/python3
"""Animates a run of a model with [[bodies]] in 3-D (called by `saltus animate DIR` when the run
has bodies.json and no drawing.json).

Reads DIR/bodies.json (each body's contact shapes in body axes, the contacts' planes, and every
event of a contact with the world position of its contact point) and DIR/bodies.csv (every
body's centre and rotation at every sample), both written by `saltus run`, and writes
DIR/animation.gif (Pillow), atomically (temporary file + rename).

A fixed camera (elevation 20 degrees, azimuth -60) looks at a box holding every sample's
contact points. Each body is drawn from its contacts: the convex hull of its points when they
span a solid (a box from its corners), a disk or torus as its rim (48-gon), an ellipsoid as its
three principal ellipses, a sphere as a circle of its radius about its centre in the camera's view plane, lone points as dots; its
centre is a black dot and its body axes short red, green and blue lines. Each plane is a grey
square under the motion. A contact's events are marked at their contact points: a red star
while recent (the last 3 frames), a grey cross after that. The title gives the time, the jump
count j and the mode.
Usage: animate_bodies.py DIR [--frames N] [--fps F]
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
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402
from gif_frames import RECENT_FRAMES, canvas_frame, frame_indices, write_gif  # noqa: E402

ELEVATION, AZIMUTH = 20.0, -60.0


def read(out):
    with open(os.path.join(out, "bodies.json")) as f:
        bodies = json.load(f)
    with open(os.path.join(out, "bodies.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"animate_bodies.py: {out}/bodies.csv has no samples")
    return bodies, rows


def frame(row, name):
    c = np.array([float(row[f"{name}.{k}"]) for k in "xyz"])
    R = np.array([[float(row[f"{name}.r{i}{j}"]) for j in (1, 2, 3)] for i in (1, 2, 3)])
    return c, R


def rim_points(shape, c, R, count=48):
    """The rim of a disk (or a torus' centre line) in the world."""
    a = R @ np.array(shape["axis"], dtype=float)
    a /= np.linalg.norm(a)
    u = np.cross(a, [1.0, 0.0, 0.0] if abs(a[0]) < 0.9 else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(a, u)
    centre = c + R @ np.array(shape["point"], dtype=float)
    s = np.linspace(0, 2 * math.pi, count, endpoint=False)
    return centre + shape["rim"] * (np.outer(np.cos(s), u) + np.outer(np.sin(s), v))


def ellipse_points(shape, c, R, count=48):
    """An ellipsoid's three principal ellipses (its sections by the planes of two of its axes)
    in the world."""
    centre = c + R @ np.array(shape["point"], dtype=float)
    a = np.array(shape["semi_axes"], dtype=float)
    s = np.linspace(0, 2 * math.pi, count, endpoint=False)
    out = []
    for i, j in ((0, 1), (1, 2), (2, 0)):
        local = np.zeros((count, 3))
        local[:, i] = a[i] * np.cos(s)
        local[:, j] = a[j] * np.sin(s)
        out.append(centre + local @ R.T)
    return out


def hull_faces(points):
    """The triangles of the convex hull of body points spanning a solid, else None."""
    if len(points) < 4 or np.linalg.matrix_rank(points[1:] - points[0], tol=1e-12) < 3:
        return None
    from scipy.spatial import ConvexHull
    return ConvexHull(points).simplices


def body_drawing(body, c, R):
    """Polygons (lists of world points) and dots of one body at (c, R)."""
    polygons, dots, circles = [], [], []
    points = [s for s in body["shapes"] if s["kind"] in ("point", "sphere")]
    local = np.array([s["point"] for s in points], dtype=float).reshape(-1, 3)
    faces = hull_faces(local)
    world = (c + local @ R.T) if len(local) else local
    if faces is not None:
        polygons += [world[f] for f in faces]
    for s, w in zip(points, world):
        if s["kind"] == "sphere":
            circles.append((w, s["radius"]))
        elif faces is None:
            dots.append(w)
    for s in body["shapes"]:
        if s["kind"] in ("disk", "torus"):
            polygons.append(rim_points(s, c, R))
        elif s["kind"] == "ellipsoid":
            polygons += ellipse_points(s, c, R)
    return polygons, dots, circles


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--fps", type=int, default=25)
    args = parser.parse_args()
    if args.frames < 1 or args.fps < 1:
        sys.exit("animate_bodies.py: --frames and --fps must be >= 1")
    data, rows = read(args.dir)
    indices = frame_indices(rows, args.frames)
    names = [b["name"] for b in data["bodies"]]

    # The box: every body's centre and drawn points over the frames, made cubic.
    seen = []
    for i in indices:
        for b in data["bodies"]:
            c, R = frame(rows[i], b["name"])
            polygons, dots, circles = body_drawing(b, c, R)
            seen.append(c)
            seen += [p for poly in polygons for p in poly] + dots
            seen += [w + r * e for w, r in circles for e in (np.eye(3), -np.eye(3)) for e in e]
    seen = np.array(seen)
    low, high = seen.min(axis=0), seen.max(axis=0)
    half = 0.55 * max((high - low).max(), 1e-9)
    middle = 0.5 * (low + high)

    fig = plt.figure(figsize=(6.4, 6.0), dpi=90)
    ax = fig.add_subplot(projection="3d")
    ax.view_init(elev=ELEVATION, azim=AZIMUTH)
    unit = data.get("time_unit", "s")
    events = data["events"]
    frames = []
    frame_times = [float(rows[i]["t"]) for i in indices]
    for n, i in enumerate(indices):
        row = rows[i]
        ax.cla()
        for k in range(3):
            getattr(ax, "set_" + "xyz"[k] + "lim")(middle[k] - half, middle[k] + half)
        ax.set_box_aspect((1, 1, 1))
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_zlabel("z")
        for nx, ny, nz, d in data["planes"]:
            normal = np.array([nx, ny, nz], dtype=float)
            unit_n = normal / np.linalg.norm(normal)
            on = middle - (unit_n @ middle - d / np.linalg.norm(normal)) * unit_n
            u = np.cross(unit_n, [1.0, 0.0, 0.0] if abs(unit_n[0]) < 0.9 else [0.0, 1.0, 0.0])
            u /= np.linalg.norm(u)
            v = np.cross(unit_n, u)
            square = [on + half * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            ax.add_collection3d(Poly3DCollection([square], facecolor="0.85", edgecolor="0.6",
                                                 alpha=0.5))
        for k, b in enumerate(data["bodies"]):
            c, R = frame(row, b["name"])
            polygons, dots, circles = body_drawing(b, c, R)
            colour = f"C{k}"
            if polygons:
                ax.add_collection3d(Poly3DCollection(polygons, facecolor=colour, edgecolor="k",
                                                     linewidths=0.5, alpha=0.55))
            for w in dots:
                ax.plot([w[0]], [w[1]], [w[2]], "o", color=colour, markersize=4)
            for w, r in circles:
                s = np.linspace(0, 2 * math.pi, 48)
                # A circle of the sphere's radius in the camera's view plane.
                el, az = math.radians(ELEVATION), math.radians(AZIMUTH)
                view = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az),
                                 math.sin(el)])
                e1 = np.cross(view, [0.0, 0.0, 1.0])
                e1 /= np.linalg.norm(e1)
                e2 = np.cross(view, e1)
                ring = w + r * (np.outer(np.cos(s), e1) + np.outer(np.sin(s), e2))
                ax.plot(ring[:, 0], ring[:, 1], ring[:, 2], color=colour)
            ax.plot([c[0]], [c[1]], [c[2]], "o", color="black", markersize=3)
            arm = 0.25 * half
            for axis, axis_colour in zip(R.T, ("red", "green", "blue")):
                end = c + arm * axis
                ax.plot([c[0], end[0]], [c[1], end[1]], [c[2], end[2]], color=axis_colour,
                        linewidth=1)
        t = frame_times[n]
        recent_from = frame_times[max(0, n - RECENT_FRAMES)] if n >= RECENT_FRAMES else -math.inf
        for chosen, marker, colour, size in (
                ([e for e in events if e["t"] <= recent_from], "x", "0.4", 5),
                ([e for e in events if recent_from < e["t"] <= t], "*", "red", 12)):
            if chosen:
                at = np.array([e["at"] for e in chosen])
                ax.plot(at[:, 0], at[:, 1], at[:, 2], marker, color=colour, markersize=size,
                        linestyle="none")
        ax.set_title(f"{data.get('model', '')}   t = {t:.3f} {unit}   j = {row['j']}\n"
                     f"mode {row['mode']}", fontsize=9)
        fig.canvas.draw()
        frames.append(canvas_frame(fig))
    plt.close(fig)

    path = write_gif(args.dir, frames, args.fps)
    print(f"wrote {path} ({len(frames)} frames, {len(names)} bodies, {len(events)} events marked)")


if __name__ == "__main__":
    main()
