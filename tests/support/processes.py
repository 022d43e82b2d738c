"""Running the tools testers run (generators, node, npm, newman) as subprocesses, asserting success."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def run_ok(
    argv: list[str], cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`argv` run to its end (10 minutes at most), which must succeed: its output's tail otherwise."""
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{argv[0]}: {done.stdout[-4000:]}{done.stderr[-4000:]}"
    return done
