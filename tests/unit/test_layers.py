"""Routes get only what they use: the request pipeline (api/endpoint.py) alone builds each
handler's dependencies. That no route module imports the container or a store is an
import-linter contract (pyproject.toml, `make lint`), which reads the import graph."""

from __future__ import annotations

import inspect

from chalicelib.api import endpoint


def test_a_call_carries_input_and_caller_not_dependencies() -> None:
    fields = set(inspect.signature(endpoint.Call).parameters)
    assert fields == {"query", "body", "path", "token", "source_ip", "forwarded_for"}
