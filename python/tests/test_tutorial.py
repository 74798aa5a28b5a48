"""docs/PYTHON.md: every ```python block runs, in order, in one namespace, from the root folder."""
import os
import re

from conftest import SOURCE


def test_tutorial_blocks_run(monkeypatch):
    with open(os.path.join(SOURCE, "docs", "PYTHON.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), flags=re.S)
    assert len(blocks) >= 6
    monkeypatch.chdir(SOURCE)
    namespace = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/PYTHON.md block {i + 1}", "exec"), namespace)
