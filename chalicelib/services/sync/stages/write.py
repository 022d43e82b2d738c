"""write: per shard, one slot range of a country's pool items (rows new to the epoch); its tokens'
postings go out by index partition for the index stage to merge."""

from __future__ import annotations

import json

from chalicelib.domain.codecs import address_from_doc
from chalicelib.domain.text_search import postings
from chalicelib.services.marks import marks_of
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import index_partitions, partition_of
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import Shard
from chalicelib.services.sync.stages.base import Stage, StageItem, TaskResult
from chalicelib.services.sync.stages.plan import country_plan, planned


class WriteItem(StageItem):
    country: str
    shard: Shard

    def task(self) -> str:
        return f"{self.country}-{self.shard.first_ordinal:012d}"


class Written(TaskResult):
    country: str
    written: int


def plan(run: SyncRun) -> list[WriteItem]:
    return [
        WriteItem(country=country, shard=shard)
        for country in run.job.countries
        for shard in planned(run, country).shards
    ]


def write_shard(run: SyncRun, item: WriteItem) -> Written:
    country, shard = item.country, item.shard
    plan_of = country_plan(run, country)
    addresses = [
        address_from_doc(json.loads(line))
        for line in run.work.read_lines(keys.sorted_part(country, shard.cell), shard.start, shard.end)
    ]
    if len(addresses) != shard.rows:
        raise ValueError(f"shard of {shard.cell} read {len(addresses)} rows, planned {shard.rows}")
    placed = list(enumerate(addresses, start=shard.first_ordinal))
    written = run.pool.put_addresses(plan_of.writing, placed)
    partitions = index_partitions(sum(plan_of.strata))
    by_partition: dict[int, list[str]] = {}
    for token, ordinals in postings(placed, marks_of).items():
        line = f"{token}\t{','.join(map(str, ordinals))}"
        by_partition.setdefault(partition_of(token, partitions), []).append(line)
    for partition, lines in by_partition.items():
        run.work.write_lines(keys.postings(country, partition, shard.first_ordinal), lines)
    return Written(country=country, written=written)


def written(run: SyncRun, country: str) -> list[Written]:
    return run.results(STAGE.name, Written, f"{country}-")


STAGE = Stage("write", WriteItem, Written, plan, write_shard)
