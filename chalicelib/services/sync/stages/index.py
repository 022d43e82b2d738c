"""index: per country and index partition, every shard's postings of the partition's tokens merged
(shards in ordinal order, so each token's ordinals come out ascending) and written as the
snapshot's text index (heads and chunks)."""

from __future__ import annotations

from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import index_partitions
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.stages.base import Stage, StageItem, TaskResult
from chalicelib.services.sync.stages.plan import country_plan, planned


class IndexItem(StageItem):
    country: str
    partition: int

    def task(self) -> str:
        return f"{self.country}-{self.partition:04d}"


class Indexed(TaskResult):
    country: str
    partition: int
    indexed: int


def plan(run: SyncRun) -> list[IndexItem]:
    """Every country's index tasks, but a failed one's (its write failed: it is not published)."""
    countries = [c for c in run.job.countries if not _has_failed(run, c)]
    return [item for country in countries for item in items_of(run, country)]


def _has_failed(run: SyncRun, country: str) -> bool:
    """Its outcome recorded already, as failed (the local sync closes this stage after publishing)."""
    outcome = keys.outcome(country)
    return run.work.exists(outcome) and run.work.read_json(outcome)["outcome"]["status"] == "failed"


def items_of(run: SyncRun, country: str) -> list[IndexItem]:
    """The index tasks of a country whose write is planned."""
    if not planned(run, country).shards:
        return []
    count = sum(country_plan(run, country).strata)
    return [IndexItem(country=country, partition=p) for p in range(index_partitions(count))]


def index_partition(run: SyncRun, item: IndexItem) -> Indexed:
    country, partition = item.country, item.partition
    merged: dict[str, list[int]] = {}
    for key in sorted(run.work.keys(keys.postings_prefix(country, partition))):
        for line in run.work.read_lines(key):
            token, ordinals = line.split("\t")
            merged.setdefault(token, []).extend(int(o) for o in ordinals.split(","))
    indexed = run.pool.put_text_index(country_plan(run, country).writing, merged)
    return Indexed(country=country, partition=partition, indexed=indexed)


def indexed(run: SyncRun, country: str) -> list[Indexed]:
    return run.results(STAGE.name, Indexed, f"{country}-")


STAGE = Stage("index", IndexItem, Indexed, plan, index_partition)
