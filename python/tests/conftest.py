"""Shared fixtures: the built `saltus` command, the source tree and a scratch folder.

CTest (python/CMakeLists.txt) sets SALTUS_CLI, SALTUS_SOURCE_DIR, SALTUS_TEST_OUT and PYTHONPATH.
"""
import math
import os
import struct
import subprocess

import pytest

SOURCE = os.environ.get("SALTUS_SOURCE_DIR",
                        os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))


def model_path(name):
    return os.path.join(SOURCE, "models", name)


def data_path(name):
    return os.path.join(SOURCE, "tests", "model", "data", name)


def bits(x):
    """The 64 bits of a double (NaN and -0.0 compare exactly, unlike ==)."""
    return struct.unpack("<q", struct.pack("<d", x))[0]


def cell(text):
    """A CSV number as saltus writes it (%.17g round-trips; empty = absent = NaN)."""
    return math.nan if text == "" else float(text)


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("SALTUS_CLI")
    if not path:
        pytest.fail("SALTUS_CLI (the built saltus command) is not set; run through ctest")
    return path


@pytest.fixture
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("saltus")


def run_cli(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True, timeout=600)
