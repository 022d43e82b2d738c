"""Routes get only what they use: no route module reaches the dependency container or the stores;
the request pipeline (api/endpoint.py) alone builds each handler's dependencies."""

from __future__ import annotations

import inspect
from pathlib import Path

import app as _app  # noqa: F401 - registers every route
from chalicelib.api import endpoint

API = Path(endpoint.__file__).parent


def test_no_route_module_reaches_the_container_or_a_store() -> None:
    for module in sorted(API.glob("*.py")):
        if module.name in {"endpoint.py", "__init__.py"}:
            continue
        text = module.read_text()
        assert "chalicelib import deps" not in text, module.name
        assert ".stores" not in text, module.name
        assert "call.dependencies" not in text, module.name


def test_a_call_carries_input_and_caller_not_dependencies() -> None:
    fields = set(inspect.signature(endpoint.Call).parameters)
    assert fields == {"query", "body", "path", "token", "source_ip", "forwarded_for"}
