"""A figure written as PNG atomically (a temporary file renamed into place), for the plotting
scripts that `saltus` calls: an interrupted plot never leaves a half-written image."""
import os

import matplotlib.pyplot as plt


def save_png(fig, path, dpi=110):
    """Writes `fig` to `path` (.png) through path's .tmp.png, closes it and says so."""
    tmp = path[:-len(".png")] + ".tmp.png"
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    os.replace(tmp, path)
    print("wrote", path)
