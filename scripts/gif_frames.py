"""What the animation scripts share (animate_run.py in 2-D, animate_bodies.py in 3-D): which
samples become frames, a figure's canvas as a GIF frame, and the GIF written atomically."""
import os

import numpy as np
from PIL import Image

RECENT_FRAMES = 3  # an event is drawn as recent (a red star) for this many frames


def frame_indices(rows, frames):
    """At most `frames` samples, evenly spread over the run's time, first and last included."""
    t = np.array([float(r["t"]) for r in rows])
    if len(t) <= frames:
        return list(range(len(t)))
    wanted = np.linspace(t[0], t[-1], frames)
    return sorted(set(int(np.searchsorted(t, w, side="left").clip(0, len(t) - 1))
                      for w in wanted))


def canvas_frame(fig):
    """The figure's drawn canvas as a palette image."""
    rgba = np.asarray(fig.canvas.buffer_rgba())
    return Image.fromarray(rgba[..., :3]).convert("P", palette=Image.ADAPTIVE)


def write_gif(folder, frames, fps):
    """folder/animation.gif from the frames, written to a temporary file and renamed."""
    path = os.path.join(folder, "animation.gif")
    tmp = path + ".tmp"
    frames[0].save(tmp, format="GIF", save_all=True, append_images=frames[1:],
                   duration=max(10, round(1000 / fps)), loop=0)
    os.replace(tmp, path)
    return path
