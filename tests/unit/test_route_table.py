"""The app registers its API routes from a table, importing no route module: the table must name
exactly the operations and views the modules register, and importing the app must leave every
route module for its first request."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import import_module

from app import app
from chalicelib.api import endpoint
from chalicelib.api.route_table import ROUTES, operations


def test_the_table_names_every_registered_view_and_each_operation_s_body() -> None:
    registered = {(op.method, op.path): op for op in operations()}
    assert {(r.method, r.path) for r in ROUTES} == set(endpoint.VIEWS)
    assert len(ROUTES) == len(endpoint.VIEWS)  # no route twice
    for route in ROUTES:
        assert callable(getattr(import_module(f"chalicelib.api.{route.module}"), route.view)), route
        operation = registered.get((route.method, route.path))
        if operation is not None:  # the OpenAPI documents are views without an operation
            assert route.json_body == (operation.body is not None), route


def test_the_app_routes_each_table_entry_under_its_handler_s_name() -> None:
    for route in ROUTES:
        entry = app.routes[route.path][route.method]
        assert (entry.view_name, entry.content_types) == (route.view, route.content_types)


def test_importing_the_app_imports_no_route_module() -> None:
    modules = sorted({f"chalicelib.api.{r.module}" for r in ROUTES} | {"chalicelib.api.endpoint", "pydantic"})
    probe = f"import sys, app; print([m for m in {modules!r} if m in sys.modules])"
    imported = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert imported.stdout.strip() == "[]"


def test_a_process_s_first_request_runs_with_the_collector_paused_and_later_ones_do_not() -> None:
    probe = """
import gc, json, app
from chalice.test import Client
runs = []
gc.callbacks.append(lambda phase, info: runs.append(info["generation"]) if phase == "start" else None)
with Client(app.app) as client:
    first = client.http.get("/api/v1/health").status_code
    during_first = len(runs)
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    for _ in range(20):
        client.http.get("/api/v1/health")
        [object() for _ in range(1000)] and [[] for _ in range(1000)]
print(json.dumps([first, during_first, frozen > 0, enabled, len(runs) > during_first]))
"""
    answered = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    last_line = answered.stdout.splitlines()[-1]  # after the access log
    status, collections_during_first, froze, enabled_after, collected_later = json.loads(last_line)
    assert status == 200
    assert collections_during_first == 0  # it imports the wiring: thousands of objects, no collection
    assert froze  # what it built is frozen
    assert enabled_after  # and the collector runs again
    assert collected_later
