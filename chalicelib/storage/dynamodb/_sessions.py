"""botocore sessions that share one data loader, so a process parses botocore's data files once.

Each botocore session has a loader of its own, and creating a client through it parses
endpoints.json and DynamoDB's service model again (~0.1 s of JSON per client). PynamoDB makes a
session per table model, and the wire one more: without this, the first request of a Lambda
parsed them three times and every test's fresh wiring five."""

from __future__ import annotations

import threading

import botocore.loaders
import botocore.session
import pynamodb.connection.base

_lock = threading.Lock()
_loader: botocore.loaders.Loader | None = None


def new_session() -> botocore.session.Session:
    """A fresh session (its own credentials, events and clients) reading through the shared loader."""
    global _loader
    session = botocore.session.Session()
    with _lock:
        if _loader is None:
            _loader = botocore.loaders.create_loader(session.get_config_variable("data_path"))
    session.register_component("data_loader", _loader)
    return session


# PynamoDB calls this module-level name for each connection's session (pynamodb/connection/base.py).
pynamodb.connection.base.get_session = new_session  # type: ignore[attr-defined]
