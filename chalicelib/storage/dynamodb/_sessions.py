"""botocore sessions that share one data loader and start from one copy of botocore's handlers,
so a process parses botocore's data files once and registers its ~120 built-in handlers once.

Each botocore session has a loader of its own, and creating a client through it parses
endpoints.json and DynamoDB's service model again (~0.1 s of JSON per client); and each registers
botocore's built-in handlers one by one, resolving aliases (~10 ms). PynamoDB makes a session per
table model and thread, and the wire one per wiring: without this, the first request of a Lambda
parsed the data files three times, and every test's fresh wiring paid both again.

The handlers come from a template emitter copied per session (botocore copies a session's emitter
the same way for each client). The template follows `botocore.handlers.BUILTIN_HANDLERS`: a
handler added there later (moto's, a test's recorder) is in every session created afterwards, as
with botocore's own sessions."""

from __future__ import annotations

import copy
import threading

import botocore.handlers
import botocore.hooks
import botocore.loaders
import botocore.session
import pynamodb.connection.base

_lock = threading.Lock()
_loader: botocore.loaders.Loader | None = None
_template: tuple[list[object], botocore.hooks.HierarchicalEmitter] | None = None


def new_session() -> botocore.session.Session:
    """A fresh session (its own credentials, events and clients) reading through the shared loader."""
    global _loader
    session = botocore.session.Session(event_hooks=_handlers(), include_builtin_handlers=False)
    with _lock:
        if _loader is None:
            _loader = botocore.loaders.create_loader(session.get_config_variable("data_path"))
    session.register_component("data_loader", _loader)
    return session


def _handlers() -> botocore.hooks.HierarchicalEmitter:
    """A copy of an emitter holding botocore's built-in handlers as they are now."""
    global _template
    current = list(botocore.handlers.BUILTIN_HANDLERS)
    with _lock:
        if _template is None or not _same(_template[0], current):
            registered = botocore.session.Session()._original_handler  # registers them, as botocore does
            _template = (current, registered)
        return copy.copy(_template[1])


def _same(before: list[object], now: list[object]) -> bool:
    return len(before) == len(now) and all(a is b for a, b in zip(before, now, strict=True))


# PynamoDB calls this module-level name for each connection's session (pynamodb/connection/base.py).
pynamodb.connection.base.get_session = new_session  # type: ignore[attr-defined]
