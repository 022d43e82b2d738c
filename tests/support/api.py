"""A synced pool on moto, and a small client for the API over it, shared by the functional tests
that need real published data."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from chalice.test import Client
from moto import mock_aws

from app import app
from chalicelib import deps
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.storage.dynamodb.tables import create_missing_tables
from tests.support.factories import bearer, issue_token, make_settings
from tests.support.fakes import FakeClock
from tests.support.sync import Cut, sync, write_manifest, write_sample


@contextmanager
def synced_pool(
    directory: Path, sources: list[str] | Mapping[str, Cut], **settings: object
) -> Iterator[deps.Dependencies]:
    """Moto tables holding these real sources (whole, or cut as a sample), synced once (for a
    module-scoped fixture)."""
    with pytest.MonkeyPatch.context() as env, mock_aws():
        for name in ("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"):
            env.delenv(name, raising=False)
        env.setenv("AWS_ACCESS_KEY_ID", "testing")
        env.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        env.setenv("AWS_DEFAULT_REGION", "us-east-1")
        wired = deps.build(make_settings(**settings), FakeClock())
        create_missing_tables(wired.stores)
        manifest = (
            write_manifest(directory, sources)
            if isinstance(sources, list)
            else write_sample(directory, sources)
        )
        sync(wired, manifest)
        yield wired


@contextmanager
def api_over(pool: deps.Dependencies, scope: str = "generate") -> Iterator[Api]:
    deps.use(pool)
    with Client(app) as client:
        issued = issue_token(pool.stores.tokens, pool.clock, scope=scope, rate_per_minute=100_000)
        yield Api(client, bearer(issued))


class Api:
    def __init__(self, client: Client, auth: dict[str, str]) -> None:
        self.client, self.auth = client, auth

    def get(self, path: str, status: int = 200, /, **params: object) -> Any:
        """GET with these query parameters, expecting `status` (positional: `status=` would be a
        query parameter)."""
        if params:
            path += "?" + urlencode({k: v for k, v in params.items() if v is not None})
        response = self.client.http.get(path, headers=self.auth)
        assert response.status_code == status, response.body
        return json.loads(response.body)

    def batch(self, body: dict[str, Any], status: int = 200) -> Any:
        return self.post("/api/v1/generate/batch", body, status)

    def post(self, path: str, body: dict[str, Any], status: int = 200) -> Any:
        headers = {**self.auth, "Content-Type": "application/json"}
        response = self.client.http.post(path, headers=headers, body=json.dumps(body).encode())
        assert response.status_code == status, response.body
        return json.loads(response.body)


# The MCP endpoint's tools, in the order it lists them (api/mcp_tools.py).
MCP_TOOLS = [
    "generate_address",
    "generate_batch",
    "get_address",
    "search_locations",
    "translate_address",
    "list_countries",
]


def served_addresses(wired: deps.Dependencies, country: str) -> list[PublishedAddress]:
    """Every address the country's active snapshot serves, read from the pool: what a filter's
    test compares the API's answers with."""
    active = wired.stores.registry.active_snapshot(country)
    assert active is not None
    return list(
        wired.stores.pool.get_many_by_ordinal(active.placement, range(active.placement.slots)).values()
    )
