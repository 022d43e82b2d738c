"""The sync use case: read every source of the enabled countries, validate, enrich, deduplicate,
then for each country write a complete snapshot, publish it with one conditional pointer write, and
remove superseded snapshots. A failure before the pointer write changes nothing that is served."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from chalicelib.clock import Clock
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.directories import build_directories
from chalicelib.domain.snapshots import (
    SNAPSHOT_FORMAT,
    PublishedSnapshot,
    Snapshot,
    build_snapshot,
)
from chalicelib.domain.text_search import postings
from chalicelib.errors import PublishConflict, StorageUnavailable
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.admission import Admission, Row, Tallies
from chalicelib.services.sync.coverage import region_counts
from chalicelib.services.sync.dedupe import FirstClaims, coordinate_precision_meters, same_text_losers
from chalicelib.services.sync.enrich import OSM_ORIGIN, SourceContext, publish
from chalicelib.services.sync.normalize import Dropped, normalize
from chalicelib.services.sync.publication import (
    CatalogWriter,
    LayoutPolicy,
    PoolWriter,
    incomplete_counts,
    publish_snapshot,
    published_snapshot,
    record_writing,
    sweep,
)
from chalicelib.services.sync.report import (
    CountryOutcome,
    SilentProgress,
    SourceTally,
    SyncProgress,
    SyncReport,
)
from chalicelib.sources.manifest import SourceEntry, SourceGroup, group_variants, load_manifest
from chalicelib.sources.reader import read_country_boundaries, read_group
from chalicelib.storage.source_store import LocalSourceFiles

PROGRESS_EVERY = 1000
# A snapshot still being written after this long belongs to a sync that died: safe to remove.
STALE_WRITE = timedelta(hours=6)


@dataclass(frozen=True)
class SyncTarget:
    manifest: Path
    root: Path  # where the manifest's relative file paths point
    countries: frozenset[str] | None = None  # None: every enabled country

    def fingerprint(self, config_text: str, stamp: Callable[[str], str] | None = None) -> str:
        """Changes whenever the inputs can: the manifest, each file's stamp (size and time here;
        the stored object's ETag in S3), the pool configuration, the snapshot format. Equal
        fingerprints mean a sync would publish nothing new."""
        digest = hashlib.sha256(f"{SNAPSHOT_FORMAT}|{sorted(self.countries or [])}|{config_text}".encode())
        digest.update(self.manifest.read_bytes())
        for entry in load_manifest(self.manifest):
            for name in entry.files:
                digest.update(f"{name}|{(stamp or LocalSourceFiles(self.root).stamp)(name)}".encode())
        return digest.hexdigest()[:32]


@dataclass(frozen=True)
class PoolSync:
    """The one way to run a sync: the scheduled job, the CLI, the benches and the tests call it."""

    config: PoolConfig
    pool: PoolWriter
    catalog: CatalogWriter
    clock: Clock
    layout_for: LayoutPolicy

    def run(
        self, target: SyncTarget, *, progress: SyncProgress | None = None, if_changed: bool = False
    ) -> SyncReport | None:
        """The sync's report; None when `if_changed` and the last successful sync read exactly these
        inputs, so re-running would change nothing."""
        if if_changed and self.is_current(target):
            return None
        return self._run(target, progress or SilentProgress())

    def is_current(self, target: SyncTarget) -> bool:
        latest = self.catalog.latest_sync_report()
        if latest is None:
            return False
        return latest.get("fingerprint") == target.fingerprint(self.config.text) and latest.get("ok") is True

    def _run(self, target: SyncTarget, progress: SyncProgress) -> SyncReport:
        config = self.config
        report = SyncReport(
            started_at=self.clock.now().isoformat(),
            configuration_errors=list(config.issues),
            fingerprint=target.fingerprint(config.text),
        )
        countries = sorted(target.countries & set(config.enabled) if target.countries else config.enabled)
        report.planned = countries
        self.catalog.save_sync_report(report.as_dict())  # running: /data-health shows who waits
        collected = collect(target, config, set(countries), report, progress)
        for country in countries:
            report.building = country
            self.catalog.save_sync_report(report.as_dict())
            report.countries[country] = _sync_country(
                country,
                collected.get(country, []),
                config,
                pool=self.pool,
                catalog=self.catalog,
                clock=self.clock,
                layout_for=self.layout_for,
                progress=progress,
            )
        report.building = None
        report.finished_at = self.clock.now().isoformat()
        self.catalog.save_sync_report(report.as_dict())
        return report


Collected = dict[str, list[PublishedAddress]]


def collect(
    target: SyncTarget, config: PoolConfig, countries: set[str], report: SyncReport, progress: SyncProgress
) -> Collected:
    entries = [e for e in load_manifest(target.manifest) if e.country in countries]
    boundaries = read_country_boundaries(entries, target.root)
    objects = FirstClaims()
    tallies = Tallies()
    admission = Admission(
        config.supersedes(), tallies, lambda row: objects.is_repeat(row.address.country, row.osm_object or "")
    )
    for rank, group in enumerate(source_order(entries, config)):
        context = SourceContext(group.family, group.primary, config.source(group.family), boundaries)
        tally = tallies.tally(group.family, group.country)
        progress.source_started(group.family, group.primary.records)
        for row in read_rows(group, rank, target.root, config, context, tally, progress):
            admission.offer(row)
        progress.source_finished(group.family, tally)
    survivors = admission.drop_same_texts(same_text_losers(admission.text_claims()))
    report.sources.update(tallies.sources)
    collected: Collected = defaultdict(list)
    for kept in survivors:
        collected[kept.address.country].append(kept.address)
    return collected


def source_order(entries: list[SourceEntry], config: PoolConfig) -> list[SourceGroup]:
    """A source that supersedes others is read first, so its publication of an address is the one kept."""
    groups = group_variants(entries, config.primary_languages())
    return sorted(groups, key=lambda g: not config.source(g.family).supersedes)


def read_rows(
    group: SourceGroup,
    rank: int,
    root: Path,
    config: PoolConfig,
    context: SourceContext,
    tally: SourceTally,
    progress: SyncProgress,
) -> Iterator[Row]:
    """Validated, enriched rows of one source group in read order; rows dropped on the way are
    counted in `tally`."""
    for raw in read_group(group, root):
        tally.read += 1
        if tally.read % PROGRESS_EVERY == 0:
            progress.rows_read(PROGRESS_EVERY)
        candidate = normalize(raw, config.countries.get(raw.country), context.config)
        if isinstance(candidate, Dropped):
            tally.dropped[candidate.reason.value] += 1
            continue
        yield Row(
            seq=(rank, tally.read),
            family=group.family,
            source_country=group.country,
            address=publish(candidate, context),
            removed=tuple(r.value for r in candidate.removed),
            osm_object=raw.record_id if context.origin == OSM_ORIGIN else None,
            precision_meters=coordinate_precision_meters(raw.lon, raw.lat),
        )
    progress.rows_read(tally.read % PROGRESS_EVERY)


def _sync_country(
    country: str,
    addresses: list[PublishedAddress],
    config: PoolConfig,
    *,
    pool: PoolWriter,
    catalog: CatalogWriter,
    clock: Clock,
    layout_for: LayoutPolicy,
    progress: SyncProgress,
) -> CountryOutcome:
    if not addresses:
        return CountryOutcome(country, "empty")
    snapshot = build_snapshot(country, addresses)
    incomplete = dict(incomplete_counts(addresses).most_common())
    outcome = CountryOutcome.published(snapshot.id, snapshot, country, incomplete, len(snapshot.locations))
    try:
        active = catalog.active_snapshot(country)
        published = published_snapshot(
            country,
            snapshot.id,
            snapshot.strata,
            sources=(a.provenance.source_id for a in addresses),
            per_region_code=region_counts(addresses),
            locations=len(snapshot.locations),
            config=config,
            published_at=clock.now().isoformat(),
            layout_for=layout_for,
        )
        if not (active and active.snapshot_id == snapshot.id):
            outcome.items_written = _write(snapshot, published, pool, catalog, progress)
            progress.country_stage(country, "publishing")
        outcome.status = publish_snapshot(catalog, published, active, clock)
        outcome.items_deleted = sweep(country, snapshot.id, pool, catalog, clock, progress)
    except (StorageUnavailable, PublishConflict) as exc:
        outcome.status, outcome.error = "failed", f"{type(exc).__name__}: {exc}"
    return outcome


def _write(
    snapshot: Snapshot,
    published: PublishedSnapshot,
    pool: PoolWriter,
    catalog: CatalogWriter,
    progress: SyncProgress,
) -> int:
    country, layout = snapshot.country, published.layout
    record_writing(catalog, published)
    progress.country_stage(country, f"writing {snapshot.count} addresses")
    written = pool.put_addresses(snapshot.id, layout, snapshot.addresses)
    progress.country_stage(country, "writing the text index")
    written += pool.put_text_index(snapshot.id, layout, postings(enumerate(snapshot.addresses)))
    progress.country_stage(country, f"writing {len(snapshot.locations)} locations")
    locations = list(snapshot.locations.values())
    written += catalog.put_locations(snapshot.id, layout, locations)
    progress.country_stage(country, "writing location directories")
    written += catalog.put_directories(snapshot.id, layout, build_directories(locations))
    return written
