"""The READMEs' quickstarts, run as a new user runs them: every fenced block preceded by
`<!-- quickstart -->` (shell) or `<!-- quickstart file=NAME -->` (a file the user saves), in order,
as one bash session in a fresh scratch folder, with only what `make run` tells the user to paste:
AGS_BASE_URL, AGS_TOKEN and AGS_CHECKOUT. A README change that breaks a quickstart fails here."""

from __future__ import annotations

import json
import os
import re
import subprocess
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from infra.local.env import PROJECT_DIR
from tests.support.local_stack import Stack

_BLOCK = re.compile(
    r"<!-- quickstart(?: file=(?P<file>\S+))? -->\n+[ \t]*```(?P<lang>\w*)\n(?P<body>.*?)\n[ \t]*```",
    re.DOTALL,
)
_END = "AGS_QUICKSTART_FILE_ENDS"
# The test run's own tools and settings, which a new user's shell would not have.
_NOT_THE_USERS = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "COVERAGE_PROCESS_START", "MAKEFLAGS")


@dataclass(frozen=True)
class Block:
    lang: str
    body: str
    file: str | None = None


def quickstart_blocks(readme: Path) -> list[Block]:
    text = readme.read_text(encoding="utf-8")
    return [Block(m["lang"], textwrap.dedent(m["body"]), m["file"]) for m in _BLOCK.finditer(text)]


def session_script(blocks: list[Block]) -> str:
    """One bash script: files written with a quoted heredoc (nothing expanded), commands as written."""
    parts = ["set -euo pipefail"]
    for block in blocks:
        if block.file is not None:
            parts.append(f"cat > '{block.file}' <<'{_END}'\n{block.body}\n{_END}")
        elif block.lang in {"sh", "bash", "shell"}:
            parts.append(block.body)
    return "\n".join(parts) + "\n"


def users_environment(stack: Stack, token: str) -> dict[str, str]:
    """This shell's environment as a new user's: the test run's virtualenvs and project tools
    off PATH, pytest's and coverage's variables gone, and the line `make run` printed pasted in."""
    path = [
        p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not p.startswith(str(PROJECT_DIR))
    ]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in _NOT_THE_USERS and not k.startswith(("PYTEST_", "COV_CORE_", "PIP_REQUIRE"))
    }
    return {
        **env,
        "PATH": os.pathsep.join(path),
        "AGS_BASE_URL": f"http://127.0.0.1:{stack.port}",
        "AGS_TOKEN": token,
        "AGS_CHECKOUT": str(PROJECT_DIR),
    }


def run_quickstarts(readme: Path, scratch: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The README's quickstart blocks in `scratch` (10 minutes at most); their output's tail on failure."""
    blocks = quickstart_blocks(readme)
    assert blocks, f"{readme} marks no quickstart"
    done = subprocess.run(
        ["bash", "-c", session_script(blocks)],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    shown = f"{readme.name}'s quickstart failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    assert done.returncode == 0, shown
    return done


def desktop_agent_config(readme: Path) -> dict[str, Any]:
    """The README's `mcpServers` entry: its JSON block marked `<!-- quickstart -->`."""
    [block] = [b for b in quickstart_blocks(readme) if b.lang == "json"]
    servers: dict[str, Any] = json.loads(block.body)["mcpServers"]
    [entry] = servers.values()
    return dict(entry)
