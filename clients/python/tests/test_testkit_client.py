"""The client against a stand-in service on a loopback port."""

from __future__ import annotations

import pytest
from ags_testkit import ApiError, Client, SnapshotChanged, Unreachable
from testkit_fakes import FakeService, record, serving


def test_the_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGS_TOKEN", "ags_secret")
    with serving(FakeService([record(1)])) as service:
        Client(service.url).generate("AD", seed="s")
    ((_, target, headers),) = service.seen
    assert headers["Authorization"] == "Bearer ags_secret"
    assert target == "/api/v1/generate?country=AD&seed=s"


def test_429_and_503_are_retried_after_the_wait_the_service_asks() -> None:
    waits: list[float] = []
    failures = [(429, {"Retry-After": "7"}), (503, {"Retry-After": "5"})]
    with serving(FakeService([record(1)], failures)) as service:
        got = Client(service.url, "t", sleep=waits.append).generate("AD", seed="s")
    assert got["address"]["id"] == "ad-fixture0001"
    assert waits == [7.0, 5.0]
    assert len(service.seen) == 3


def test_retries_end_and_the_error_is_raised_with_its_code() -> None:
    failures = [(429, {"Retry-After": "1"})] * 3
    with serving(FakeService([record(1)], failures)) as service, pytest.raises(ApiError) as raised:
        Client(service.url, "t", retries=2, sleep=lambda _: None).generate("AD")
    assert (raised.value.status, raised.value.code, raised.value.request_id) == (429, "RATE_LIMITED", "r")


def test_a_client_error_is_not_retried() -> None:
    with serving(FakeService([record(1)])) as service, pytest.raises(ApiError) as raised:
        Client(service.url, "t", sleep=lambda _: pytest.fail("waited")).address("xx-unknown")
    assert raised.value.code == "ADDRESS_NOT_FOUND"
    assert len(service.seen) == 1


def test_a_service_that_does_not_answer_is_unreachable() -> None:
    with serving(FakeService([])) as service:
        url = service.url
    with pytest.raises(Unreachable):
        Client(url, "t", timeout=2).generate("AD")


def test_export_walks_the_pages_up_to_the_count() -> None:
    with serving(FakeService([record(i) for i in range(25)])) as service:
        got = list(Client(service.url, "t").export("AD", 23, seed="s", page_size=10))
    assert [r["address"]["id"] for r in got] == [f"ad-fixture{i:04d}" for i in range(23)]
    assert [target.split("page=")[1].split("&")[0] for _, target, _ in service.seen] == ["1", "2", "3"]


def test_only_http_urls_are_accepted() -> None:
    with pytest.raises(ValueError, match="http"):
        Client("file:///etc/passwd", "t")


def test_an_export_stops_when_a_sync_changes_the_snapshot_between_pages() -> None:
    service = FakeService([record(i) for i in range(25)], snapshots=["snap-1", "snap-2"])
    with serving(service), pytest.raises(SnapshotChanged, match="snap-2"):
        list(Client(service.url, "t").export("AD", 25, seed="s", page_size=10))
