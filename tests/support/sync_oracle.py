"""The whole sync's survivors computed in one pass, in memory: the oracle the pipeline's tests
hold its cells, rounds and shards against (the same rules, none of the partitioning)."""

from __future__ import annotations

from collections import defaultdict

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.dedupe import FirstClaims, same_text_losers
from chalicelib.services.sync.enrich import SourceFacts
from chalicelib.services.sync.reading import read_rows, source_order
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.survival import Survival, Tallies
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import load_manifest
from chalicelib.sources.reader import read_country_boundaries

Collected = dict[str, list[PublishedAddress]]


def collect(target: SyncTarget, config: PoolConfig, countries: set[str], report: SyncReport) -> Collected:
    """Every country's surviving addresses; the sources' tallies go into `report`."""
    entries = [e for e in load_manifest(target.manifest) if e.country in countries]
    boundaries = read_country_boundaries(entries, target.root)
    objects = FirstClaims()
    tallies = Tallies()
    survival = Survival(
        config.supersedes(), tallies, lambda row: objects.is_repeat(row.address.country, row.osm_object or "")
    )
    for rank, group in enumerate(source_order(entries, config)):
        source = SourceFacts(group.family, group.primary, config.source(group.family), boundaries)
        tally = tallies.tally(group.family, group.country)
        for row in read_rows(group, rank, target.root, config, source, tally):
            survival.offer(row)
    survivors = survival.drop_same_texts(same_text_losers(survival.text_claims()))
    report.sources.update(tallies.sources)
    collected: Collected = defaultdict(list)
    for kept in survivors:
        collected[kept.address.country].append(kept.address)
    return collected
