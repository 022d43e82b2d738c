from __future__ import annotations

import json

import pytest
from chalice.test import Client

from chalicelib import deps
from tests.support.factories import bearer, issue_token
from tests.support.fakes import FakeClock


def test_one_json_line_per_request_with_token_id_and_no_secret(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, scope="read")
    capsys.readouterr()
    response = client.http.get("/api/v1/generate?country=US", headers=bearer(issued))
    out = capsys.readouterr().out
    entries = [json.loads(line) for line in out.splitlines()]
    assert [e["event"] for e in entries] == ["request"]
    entry = entries[0]
    assert entry["route"] == "/api/v1/generate"
    assert entry["status"] == 403
    assert entry["tokenId"] == issued.token.token_id
    assert entry["requestId"] == response.headers["X-Request-Id"]
    assert isinstance(entry["latencyMs"], float)
    assert issued.bearer not in out
    assert issued.bearer.split("_", 2)[2] not in out


def test_levels_use_the_names_lambdas_json_log_filter_knows(capsys: pytest.CaptureFixture[str]) -> None:
    """Lambda's JSON log format filters by the "level" key, knowing TRACE, DEBUG, INFO, WARN, ERROR
    and FATAL; any other name counts as INFO, so a warning would pass an ERROR-only filter."""
    import logging

    from chalicelib.logs import configure, log_event

    before = logging.getLevelName(logging.getLogger("ags").level)
    configure("DEBUG")
    try:
        for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR, logging.CRITICAL):
            log_event("probe", level=level)
    finally:
        configure(before if before != "NOTSET" else "INFO")
    levels = [json.loads(line)["level"] for line in capsys.readouterr().out.splitlines()]
    assert levels == ["DEBUG", "INFO", "WARN", "ERROR", "FATAL"]
