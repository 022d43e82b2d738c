"""Fakes of the service's collaborators: in-memory, behaving like the real ones, no mocks."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from chalicelib.domain.coverage import CountRule, Coverage, FractionRule
from chalicelib.domain.directories import DirectoryKey, Entry, build_directories
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType, value_key
from chalicelib.domain.published import Layout, PublishedSnapshot, first_placement
from chalicelib.domain.snapshots import Snapshot
from chalicelib.domain.tokens import Token
from chalicelib.errors import TokenNotFound


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, now: datetime | None = None) -> None:
        self._now = now or datetime(2026, 11, 22, 10, 0, 5, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    @classmethod
    def for_a_real_engine(cls) -> FakeClock:
        """Held still at the real time's second. DynamoDB Local's TTL sweeper reads the real clock,
        so the rate counters a fixed past clock stamps would be deleted mid-test."""
        return cls(datetime.now(UTC).replace(microsecond=0))


class FakeTokenStore:
    """The tokens table's verbs over a dict, counting reads so caching can be observed."""

    def __init__(self) -> None:
        self.tokens: dict[str, Token] = {}
        self.reads = 0

    def put_new(self, token: Token) -> None:
        assert token.token_id not in self.tokens
        self.tokens[token.token_id] = token

    def get(self, token_id: str) -> Token | None:
        self.reads += 1
        return self.tokens.get(token_id)

    def list_all(self) -> list[Token]:
        return sorted(self.tokens.values(), key=lambda t: t.created_at)

    def revoke(self, token_id: str, at: datetime) -> Token:
        if token_id not in self.tokens:
            raise TokenNotFound(token_id)
        token = self.tokens[token_id]
        self.tokens[token_id] = replace(token, revoked_at=token.revoked_at or at)
        return self.tokens[token_id]


class BrokenTokenStore(FakeTokenStore):
    """A token store whose reads fail with an error nobody planned for."""

    def get(self, token_id: str) -> Token | None:
        raise RuntimeError("disk on fire: secret-internal-detail")


class FakeRegistryStore:
    """The registry table's read verbs over snapshots held in memory, counting directory reads so
    caching can be observed."""

    def __init__(self) -> None:
        self._locations: dict[str, dict[str, Location]] = {}
        self._directories: dict[str, dict[DirectoryKey, list[Entry]]] = {}
        self.directory_reads = 0

    def add(self, snapshot: Snapshot) -> PublishedSnapshot:
        self._locations[snapshot.id] = snapshot.locations
        self._directories[snapshot.id] = build_directories(snapshot.locations.values())
        coverage = Coverage(snapshot.country, CountRule(0, 0), FractionRule(0, 0), FractionRule(0, 0))
        return PublishedSnapshot(
            snapshot.country,
            snapshot.id,
            "2026-11-22T10:00:00+00:00",
            snapshot.strata,
            Layout(buckets=1, shards=1),
            (),
            coverage,
            first_placement(snapshot.id, 1, snapshot.strata),
            snapshot.id,
        )

    def get_location(self, snapshot_id: str, layout: Layout, location_id: str) -> Location | None:
        return self._locations[snapshot_id].get(location_id)

    def find_location_ids(
        self, snapshot_id: str, layout: Layout, kind: LocationType, value: str
    ) -> list[str]:
        return [
            loc.id
            for loc in self._locations[snapshot_id].values()
            if loc.type is kind and value_key(value) in loc.aliases
        ]

    def get_directory(self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType) -> list[Entry]:
        self.directory_reads += 1
        return self._directories[snapshot_id].get((scope, kind), [])


class FakeSnapshots:
    """Active-snapshot pointers that a test switches by hand."""

    def __init__(self) -> None:
        self.active: dict[str, PublishedSnapshot] = {}

    def get(self, country: str) -> PublishedSnapshot | None:
        return self.active.get(country)


class FakeSyncLauncher:
    """Records the syncs it is asked to start; `busy` makes it report one running."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.started: list[str] = []

    def running(self) -> bool:
        return self.busy

    def start(self, name: str) -> str:
        self.started.append(name)
        self.busy = True
        return name
