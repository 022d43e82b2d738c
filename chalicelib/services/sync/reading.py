"""Reading one source group: every row validated, enriched and numbered in read order, the rows
dropped on the way counted. What the map stage does per group, and the in-process oracle per sync."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from chalicelib.domain.withdrawals import NOTHING_WITHDRAWN, Withdrawn
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.dedupe import coordinate_precision_meters
from chalicelib.services.sync.enrich import OSM_ORIGIN, SourceFacts, publish
from chalicelib.services.sync.normalize import Dropped, DropReason, normalize
from chalicelib.services.sync.report import SourceTally
from chalicelib.services.sync.survival import Row
from chalicelib.sources.manifest import SourceEntry, SourceGroup, group_variants
from chalicelib.sources.reader import RemoteOpener, read_group


def source_order(entries: list[SourceEntry], config: PoolConfig) -> list[SourceGroup]:
    """A source that supersedes others is read first, so its publication of an address is the one kept."""
    groups = group_variants(entries, config.primary_languages())
    return sorted(groups, key=lambda g: not config.source(g.family).supersedes)


def read_rows(
    group: SourceGroup,
    rank: int,
    root: Path,
    config: PoolConfig,
    source: SourceFacts,
    tally: SourceTally,
    open_remote: RemoteOpener | None = None,
    withdrawn: Withdrawn = NOTHING_WITHDRAWN,
) -> Iterator[Row]:
    """Validated, enriched rows of one source group in read order; rows dropped on the way are
    counted in `tally`, a withdrawn address among them (`withdrawn`: matched by what identifies
    it, whatever id or spelling this source gives it)."""
    for raw in read_group(group, root, open_remote):
        tally.read += 1
        # A damaged row keeps its own reason (normalize's); any other is held to the licence policy.
        if not raw.defect and not config.licences.accepts(raw.license or group.primary.license):
            tally.dropped[DropReason.LICENCE_NOT_ACCEPTED.value] += 1
            continue
        candidate = normalize(raw, config.countries.get(raw.country), source.config)
        if isinstance(candidate, Dropped):
            tally.dropped[candidate.reason.value] += 1
            continue
        address = publish(candidate, source)
        if withdrawn.holds(address):
            tally.dropped[DropReason.WITHDRAWN.value] += 1
            continue
        yield Row(
            seq=(rank, tally.read),
            family=group.family,
            source_country=group.country,
            address=address,
            removed=tuple(r.value for r in candidate.removed),
            osm_object=raw.record_id if source.origin == OSM_ORIGIN else None,
            precision_meters=coordinate_precision_meters(raw.lon, raw.lat),
        )
