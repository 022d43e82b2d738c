"""Starting the local stack as `make run` does, from another process, and reading what it prints:
what the stack's integration tests and `make load` share."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from infra.local.env import PROJECT_DIR

START_TIMEOUT = 120.0


class StackStartError(RuntimeError):
    """The stack stopped, or kept silent, before printing what was waited for."""


def launch(overrides: dict[str, str]) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """`python -m infra.local run` with these variables over this process's environment (and
    without a DynamoDB endpoint of its own: the stack starts its engine); returns it and its
    environment, for the CLI calls made against it."""
    env = {**os.environ, **overrides}
    env.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "infra.local", "run"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives `make run`
    )
    return process, env


def read_until(process: subprocess.Popen[str], marker: str, timeout: float = START_TIMEOUT) -> list[str]:
    """The lines printed up to and including the first that starts with `marker`."""
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            raise StackStartError("make run stopped early:\n" + "".join(lines))
        lines.append(line.rstrip("\n"))
        if line.startswith(marker):
            return lines
    raise StackStartError(f"make run did not print {marker!r} in {timeout}s:\n" + "\n".join(lines))


def printed_after(lines: list[str], heading: str) -> str:
    """The line after the one starting with `heading` (where `make run` prints its tokens)."""
    return lines[lines.index(next(line for line in lines if line.startswith(heading))) + 1]


def drain(process: subprocess.Popen[str]) -> list[str]:
    """Keep reading the stack's output in the background (lines gathered in the list returned):
    a full pipe would block the server's request log, and with it the server."""
    assert process.stdout is not None
    stdout = process.stdout
    lines: list[str] = []

    def read() -> None:
        for line in stdout:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, name="stack-output", daemon=True).start()
    return lines


def create_token(env: dict[str, str], scope: str, rate: int, label: str) -> str:
    """What `make token` runs, against the stack started with `env`; returns the bearer token."""
    argv = [sys.executable, "-m", "infra.local", "cli", "tokens", "create"]
    argv += ["--scope", scope, "--rate", str(rate), "--expires", "1h", "--label", label]
    done = subprocess.run(argv, env=env, cwd=PROJECT_DIR, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]
