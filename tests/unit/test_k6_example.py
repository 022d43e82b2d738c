"""The k6 example (clients/load/k6.js) is a module node parses (k6 itself is not installed here):
its syntax, and that each VU asks for a partition of its own."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

K6 = Path(__file__).parents[2] / "clients" / "load" / "k6.js"


def test_the_k6_script_parses_and_draws_per_vu_partitions(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node, "make install needs Node"
    module = tmp_path / "k6.mjs"  # an ES module, as k6 reads it
    module.write_text(K6.read_text())
    done = subprocess.run([node, "--check", str(module)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    script = K6.read_text()
    assert "partition=${partition()}" in script
    assert "exec.vu.idInTest - 1" in script
