"""The sync as a sharded build: stages of independent, idempotent tasks that pass files through a
work store, so no worker holds more than one cell whatever a country's size, and a task killed
mid-way is simply run again. The same stages run in local worker processes (`local_executor`) and
as a Step Functions execution with Lambda workers (`state_machine`).

    bounds   per OSM extract: the administrative boundaries enrichment places rows in
    map      per source group: read, validate, enrich; rows by street cell, OSM objects by object cell
    objects  per object cell: later copies of an OSM object (first claim in read order wins)
    dedupe   per street cell: the first dedupe round; survivors and their text claims by text cell,
             a sample of their order keys; its close cuts large order cells into parts (splitters)
    texts    per text cell: the second round, survivors whose full text an earlier place serves
    route    per street cell: survivors by (country, stratum, region) order cell and part
    sort     per part of an order cell: sorted (external merge sort), digested, locations indexed
    plan     per country: prefix sums place the parts; snapshot id, catalog, shards of the write
    write    per shard: one ordinal range of pool items, and its tokens' ordinals by index partition
    index    per country and index partition: every shard's postings of its tokens merged, written
             as the snapshot's text index (heads and chunks)
    publish  per country: verify the items written, then the conditional pointer write, then sweep

Each stage's items are a JSON list at `items/<stage>.json`, written by the step that closes the
stage before it (`close`); each task records its result at `done/<stage>/<task>.json`."""

from __future__ import annotations

import json
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from chalicelib.clock import Clock
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.directories import build_directories
from chalicelib.domain.snapshots import (
    CellDigest,
    CellKey,
    Location,
    LocationIndex,
    PublishedSnapshot,
    cell_of,
    content_id,
    merge_locations,
    order_key,
    shift_locations,
)
from chalicelib.domain.text_search import postings
from chalicelib.errors import PublishConflict, StorageUnavailable
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.admission import Admission, Row, Tallies, leave
from chalicelib.services.sync.dedupe import MergeReason, TextClaim, same_text_losers, street_key
from chalicelib.services.sync.enrich import SourceContext
from chalicelib.services.sync.plan import (
    Shard,
    SortedCell,
    cell_of_key,
    cell_starts,
    cells_for,
    is_sampled,
    order_cell_name,
    part_of,
    shards_of,
    splitters,
)
from chalicelib.services.sync.publication import (
    CatalogWriter,
    LayoutPolicy,
    PoolWriter,
    publish_snapshot,
    published_snapshot,
    record_writing,
    sweep,
)
from chalicelib.services.sync.report import CountryOutcome, SilentProgress, SyncReport
from chalicelib.services.sync.run import SyncTarget, read_rows, source_order
from chalicelib.services.sync.task_files import (
    CellStats,
    Partitioned,
    boundary_of,
    cell_digests,
    row_line,
    row_of,
    sorted_addresses,
    tallies_doc,
    tallies_of,
    tupled,
)
from chalicelib.sources.boundaries import Boundary
from chalicelib.sources.manifest import SourceEntry, load_manifest
from chalicelib.sources.reader import read_country_boundaries
from chalicelib.storage.source_store import SourceFiles, source_files
from chalicelib.storage.sync_work import (
    WorkStore,
    dump_address,
    dump_location,
    load_address,
    load_location,
)

STAGES = ("bounds", "map", "objects", "dedupe", "texts", "route", "sort", "plan", "write", "index", "publish")
ROWS_PER_CELL = 200_000  # street cells: what one dedupe task holds in memory
CLAIMS_PER_CELL = 2_000_000  # object and text cells: small records
SORT_CHUNK = 100_000  # rows a sort task holds before it spills a sorted run to disk
PART_ROWS = 500_000  # rows one sort task takes, about: a few minutes, well inside Lambda's 15
SAMPLE_EVERY = 1_000  # one kept row in this many gives its order key to the splitters
SHARD_ROWS = 20_000  # addresses one write task writes
INDEX_ROWS = 200_000  # addresses whose tokens one index task merges (some 15 postings each)
MAP_BUFFER = 100_000  # lines a map task holds before it writes them out
# Rows a Lambda task takes in: mapping runs at about 230 µs a row (make bench-sync-scale), so 2 M
# rows take some 8 of Lambda's 15 minutes. A source group, extract or country above it is marked
# for a container task (state_machine.Container), which has no time limit.
LAMBDA_ROWS = 2_000_000


@dataclass(frozen=True)
class SyncJob:
    """What every task of one sync reads first (`job.json`)."""

    manifest: str
    root: str
    countries: list[str]
    fingerprint: str
    started_at: str
    street_cells: int
    object_cells: int
    text_cells: int
    sort_chunk: int = SORT_CHUNK
    shard_rows: int = SHARD_ROWS
    part_rows: int = PART_ROWS
    sample_every: int = SAMPLE_EVERY


@dataclass
class ShardedSync:
    """The steps, bound to a work store and the deployment's tables. Every method but `start` is
    one task or one stage's close, safe to run again."""

    work: WorkStore
    config: PoolConfig
    pool: PoolWriter
    catalog: CatalogWriter
    clock: Clock
    layout_for: LayoutPolicy
    _job: SyncJob | None = field(default=None, repr=False)
    _boundaries: dict[str, list[Boundary]] | None = field(default=None, repr=False)
    _manifest: list[SourceEntry] | None = field(default=None, repr=False)
    _splitters: dict[tuple[str, CellKey], list[Any]] | None = field(default=None, repr=False)

    # -- start --------------------------------------------------------------------------------

    def start(
        self,
        target: SyncTarget,
        *,
        per_cell: int = ROWS_PER_CELL,
        claims_per_cell: int = CLAIMS_PER_CELL,
        sources: str | None = None,
        **sizes: int,
    ) -> SyncJob:
        """A fresh job: its cells sized from the manifest's record counts, and the running report
        that /data-health shows. `sources`: where the tasks find the files when not at
        `target.root` (the source store's `s3://bucket/prefix/` in AWS; the fingerprint then
        takes each object's ETag)."""
        self.work.clear()
        config = self.config
        countries = sorted(target.countries & set(config.enabled) if target.countries else config.enabled)
        entries = [e for e in load_manifest(target.manifest) if e.country in countries]
        rows = sum(e.records for e in entries)
        stored = source_files(sources, self._cache) if sources else None
        job = SyncJob(
            manifest=str(target.manifest) if stored is None else target.manifest.name,
            root=sources or str(target.root),
            countries=countries,
            fingerprint=target.fingerprint(config.text, stored.stamp if stored else None),
            started_at=self.clock.now().isoformat(),
            street_cells=cells_for(rows, per_cell),
            object_cells=cells_for(rows, claims_per_cell),
            text_cells=cells_for(rows, claims_per_cell),
            **sizes,
        )
        self.work.write_json("job.json", asdict(job))
        self._job, self._manifest, self._boundaries, self._splitters = job, None, None, None
        extracts = [i for i, e in enumerate(entries) if e.format.startswith("osm")]
        items = [{"entry": i, "runner": runner_for(entries[i].records)} for i in extracts]
        self.work.write_json("items/bounds.json", items)
        self.catalog.save_sync_report(self._report(planned=countries).as_dict())
        return job

    def is_current(self, target: SyncTarget, sources: str | None = None) -> bool:
        """The last sync succeeded on exactly these inputs: a new run would publish nothing new."""
        stored = source_files(sources, self._cache) if sources else None
        fingerprint = target.fingerprint(self.config.text, stored.stamp if stored else None)
        latest = self.catalog.latest_sync_report()
        return latest is not None and latest.get("fingerprint") == fingerprint and latest.get("ok") is True

    @property
    def job(self) -> SyncJob:
        if self._job is None:
            self._job = SyncJob(**self.work.read_json("job.json"))
        return self._job

    def items(self, stage: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.work.read_json(f"items/{stage}.json")
        return items

    def run_task(self, stage: str, item: dict[str, Any]) -> dict[str, Any]:
        """One task; its result is recorded, so a rerun of the stage can skip it."""
        result = _TASKS[stage](self, item)
        self.work.write_json(_done_key(stage, item), result)
        return result

    def is_done(self, stage: str, item: dict[str, Any]) -> bool:
        return self.work.exists(_done_key(stage, item))

    def close(self, stage: str) -> None:
        """After the stage's last task: write the next stage's items (or the report)."""
        _CLOSERS[stage](self)

    # -- bounds -------------------------------------------------------------------------------

    def read_bounds(self, item: dict[str, Any]) -> dict[str, Any]:
        entry = self._entries()[int(item["entry"])]
        root = self._sources().local(list(entry.files))
        found = read_country_boundaries([entry], root).get(entry.country, [])
        self.work.write_json(f"bounds/{int(item['entry']):05d}.json", [asdict(b) for b in found])
        return {"country": entry.country, "boundaries": len(found)}

    # -- map ----------------------------------------------------------------------------------

    def map_source(self, item: dict[str, Any]) -> dict[str, Any]:
        job, rank = self.job, int(item["rank"])
        group = source_order(self._entries(), self.config)[rank]
        root = self._sources().local([name for entry in group.entries for name in entry.files])
        context = SourceContext(group.family, group.primary, self.config.source(group.family), self._bounds())
        tallies = Tallies()
        tally = tallies.tally(group.family, group.country)
        out = Partitioned(self.work, rank, MAP_BUFFER)
        for row in read_rows(group, rank, root, self.config, context, tally, SilentProgress()):
            cell = cell_of_key("|".join(street_key(row.address)), job.street_cells)
            out.add("rows", cell, row_line(row))
            if row.osm_object is not None:
                key = f"{row.address.country}|{row.osm_object}"
                out.add("objects", cell_of_key(key, job.object_cells), json.dumps([key, list(row.seq), cell]))
        out.flush()
        return tallies_doc(tallies)

    # -- objects ------------------------------------------------------------------------------

    def claim_objects(self, item: dict[str, Any]) -> dict[str, Any]:
        """Every claim of an OSM object after the first in read order loses."""
        cell = int(item["cell"])
        first: dict[str, tuple[tuple[int, int], int]] = {}
        losers: dict[int, list[list[int]]] = {}
        for key in self.work.keys(f"objects/{cell:05d}/"):
            for line in self.work.read_lines(key):
                name, raw_seq, street_cell = json.loads(line)
                seq = (raw_seq[0], raw_seq[1])
                held = first.get(name)
                if held is None or seq < held[0]:
                    first[name] = (seq, street_cell)
                    if held is not None:
                        losers.setdefault(held[1], []).append(list(held[0]))
                else:
                    losers.setdefault(street_cell, []).append(list(seq))
        for street_cell, seqs in losers.items():
            self.work.write_json(f"repeats/{street_cell:05d}/{cell:05d}.json", seqs)
        return {"repeats": sum(len(s) for s in losers.values())}

    # -- dedupe -------------------------------------------------------------------------------

    def dedupe_cell(self, item: dict[str, Any]) -> dict[str, Any]:
        job, cell = self.job, int(item["cell"])
        rows = [
            row_of(line) for key in self.work.keys(f"rows/{cell:05d}/") for line in self.work.read_lines(key)
        ]
        rows.sort(key=lambda r: r.seq)
        repeats = {
            (s[0], s[1]) for key in self.work.keys(f"repeats/{cell:05d}/") for s in self.work.read_json(key)
        }
        tallies = Tallies()
        admission = Admission(self.config.supersedes(), tallies, lambda row: row.seq in repeats)
        for row in rows:
            admission.offer(row)
        survivors = admission.survivors()
        self.work.write_lines(
            f"kept/{cell:05d}.jsonl",
            (
                row_line(Row(k.seq, k.family, "", k.address, admission.removed_of(k.address)))
                for k in survivors
            ),
        )
        claims: dict[int, list[str]] = {}
        for claim in admission.text_claims():
            line = json.dumps([claim.text, list(claim.seq), claim.address_id, cell], ensure_ascii=False)
            claims.setdefault(cell_of_key(claim.text, job.text_cells), []).append(line)
        for text_cell, lines in claims.items():
            self.work.write_lines(f"texts/{text_cell:05d}/{cell:05d}.jsonl", lines)
        self.work.write_json(f"samples/{cell:05d}.json", self._samples(k.address for k in survivors))
        return tallies_doc(tallies)

    def _samples(self, kept: Iterator[PublishedAddress]) -> list[list[Any]]:
        """Per order cell: how many rows this street cell keeps there, and a sample of their keys."""
        job = self.job
        counts: Counter[tuple[str, CellKey]] = Counter()
        keys: dict[tuple[str, CellKey], list[Any]] = {}
        for address in kept:
            if address.country not in job.countries:
                continue
            place = (address.country, cell_of(address))
            counts[place] += 1
            if is_sampled(address.id, job.sample_every):
                keys.setdefault(place, []).append(order_key(address))
        return [[country, list(key), n, keys.get((country, key), [])] for (country, key), n in counts.items()]

    # -- texts --------------------------------------------------------------------------------

    def claim_texts(self, item: dict[str, Any]) -> dict[str, Any]:
        cell = int(item["cell"])
        claims, home = [], {}
        for key in self.work.keys(f"texts/{cell:05d}/"):
            for line in self.work.read_lines(key):
                text, raw_seq, address_id, street_cell = json.loads(line)
                seq = (raw_seq[0], raw_seq[1])
                claims.append(TextClaim(text, seq, address_id))
                home[seq] = street_cell
        losers: dict[int, list[list[int]]] = {}
        for seq in same_text_losers(claims):
            losers.setdefault(home[seq], []).append(list(seq))
        for street_cell, seqs in losers.items():
            self.work.write_json(f"same-text/{street_cell:05d}/{cell:05d}.json", sorted(seqs))
        return {"losers": sum(len(s) for s in losers.values())}

    # -- route --------------------------------------------------------------------------------

    def route_cell(self, item: dict[str, Any]) -> dict[str, Any]:
        job, cell, cuts = self.job, int(item["cell"]), self._cuts()
        losers = {
            (s[0], s[1]) for key in self.work.keys(f"same-text/{cell:05d}/") for s in self.work.read_json(key)
        }
        tallies = Tallies()
        routed: dict[tuple[str, CellKey, int], list[str]] = {}
        for line in self.work.read_lines(f"kept/{cell:05d}.jsonl"):
            row = row_of(line)
            if row.seq in losers:
                leave(tallies, row.family, row.removed, MergeReason.SAME_TEXT)
            elif row.address.country in job.countries:
                country, key = row.address.country, cell_of(row.address)
                split = cuts.get((country, key))
                part = part_of(split, order_key(row.address)) if split else 0
                line = json.dumps(dump_address(row.address), ensure_ascii=False)
                routed.setdefault((country, key, part), []).append(line)
        for (country, key, part), lines in routed.items():
            self.work.write_lines(f"order/{country}/{order_cell_name(key, part)}/{cell:05d}.jsonl", lines)
        return {
            **tallies_doc(tallies),
            "cells": sorted([country, list(key), part] for country, key, part in routed),
        }

    def _cuts(self) -> dict[tuple[str, CellKey], list[Any]]:
        if self._splitters is None:
            self._splitters = {
                (country, (key[0], key[1])): [tupled(cut) for cut in cuts]
                for country, key, cuts in self.work.read_json("splitters.json")
            }
        return self._splitters

    # -- sort ---------------------------------------------------------------------------------

    def sort_cell(self, item: dict[str, Any]) -> dict[str, Any]:
        """Sort one part of an order cell (external merge sort: memory holds `sort_chunk` rows),
        then index it as if it started at ordinal 0."""
        country, key, part = item["country"], (int(item["key"][0]), str(item["key"][1])), int(item["part"])
        name = order_cell_name(key, part)
        inputs = self.work.keys(f"order/{country}/{name}/")
        digest, index = CellDigest(), LocationIndex()
        stats = CellStats()

        def lines() -> Iterator[str]:
            for address in sorted_addresses(self.work, inputs, self.job.sort_chunk):
                digest.add(address)
                index.add(address)
                stats.add(address)
                yield json.dumps(dump_address(address), ensure_ascii=False)

        offsets = self.work.write_lines(f"sorted/{country}/{name}.jsonl", lines(), every=self.job.shard_rows)
        self.work.write_lines(
            f"locations/{country}/{name}.jsonl",
            (json.dumps(dump_location(loc), ensure_ascii=False) for loc in index.locations.values()),
        )
        return {
            "country": country,
            "key": list(key),
            "part": part,
            "name": name,
            "digest": digest.hexdigest(),
            "offsets": offsets,
            **stats.as_doc(),
        }

    # -- plan ---------------------------------------------------------------------------------

    def plan_country(self, item: dict[str, Any]) -> dict[str, Any]:
        """Place the cells (prefix sums), merge their locations, and write the catalog; the pool's
        items are left to the write shards."""
        country = item["country"]
        cells = sorted(self._sorted_cells(country), key=lambda c: (c["key"][0], c["key"][1], c["part"]))
        if not cells:
            return {"country": country, "empty": True, "shards": []}
        starts = cell_starts([c["count"] for c in cells])
        locations: dict[str, Location] = {}
        for cell, start in zip(cells, starts, strict=True):
            part = [load_location(json.loads(line)) for line in self.work.read_lines(cell["locations"])]
            merge_locations(locations, shift_locations(part, start))
        snapshot_id = content_id(country, cell_digests(cells))
        strata = [0, 0, 0, 0]
        for cell in cells:
            strata[cell["key"][0]] += cell["count"]
        per_region: Counter[str] = Counter()
        sources: set[str] = set()
        for cell in cells:
            per_region.update(cell["regions"])
            sources.update(cell["sources"])
        plan = {
            "country": country,
            "snapshotId": snapshot_id,
            "strata": strata,
            "sources": sorted(sources),
            "regions": dict(per_region),
            "locations": len(locations),
            "publishedAt": self.clock.now().isoformat(),
            "incomplete": dict(sum((Counter(c["incomplete"]) for c in cells), Counter()).most_common()),
        }
        published = self._published(plan)
        active = self.catalog.active_snapshot(country)
        shards: list[Shard] = []
        written = 0
        if not (active and active.snapshot_id == snapshot_id):
            record_writing(self.catalog, published)
            values = list(locations.values())
            written = self.catalog.put_locations(snapshot_id, published.layout, values)
            written += self.catalog.put_directories(snapshot_id, published.layout, build_directories(values))
            sorted_cells = [
                SortedCell((c["key"][0], c["key"][1]), c["name"], c["count"], tuple(c["offsets"]), c["part"])
                for c in cells
            ]
            shards = shards_of(sorted_cells, self.job.shard_rows)
        self.work.write_json(f"plan/{country}.json", plan)
        return {"country": country, "catalogItems": written, "shards": [asdict(s) for s in shards]}

    # -- write --------------------------------------------------------------------------------

    def write_shard(self, item: dict[str, Any]) -> dict[str, Any]:
        country, shard = item["country"], Shard(**item["shard"])
        plan = self.work.read_json(f"plan/{country}.json")
        published = self._published(plan)
        addresses = [
            load_address(json.loads(line))
            for line in self.work.read_lines(f"sorted/{country}/{shard.cell}.jsonl", shard.start, shard.end)
        ]
        if len(addresses) != shard.rows:
            raise ValueError(f"shard of {shard.cell} read {len(addresses)} rows, planned {shard.rows}")
        written = self.pool.put_addresses(
            plan["snapshotId"], published.layout, addresses, shard.first_ordinal
        )
        partitions = index_partitions(published.count)
        by_partition: dict[int, list[str]] = {}
        for token, ordinals in postings(enumerate(addresses, start=shard.first_ordinal)).items():
            line = f"{token}\t{','.join(map(str, ordinals))}"
            by_partition.setdefault(_partition_of(token, partitions), []).append(line)
        for partition, lines in by_partition.items():
            self.work.write_lines(
                f"{_postings_prefix(country, partition)}{shard.first_ordinal:012d}.txt", lines
            )
        return {"country": country, "written": written}

    # -- index --------------------------------------------------------------------------------

    def index_partition(self, item: dict[str, Any]) -> dict[str, Any]:
        """Merge every shard's postings of this partition's tokens (shards in ordinal order, so
        each token's ordinals come out ascending) and write them as the text index."""
        country, partition = item["country"], int(item["partition"])
        plan = self.work.read_json(f"plan/{country}.json")
        merged: dict[str, list[int]] = {}
        for key in sorted(self.work.keys(_postings_prefix(country, partition))):
            for line in self.work.read_lines(key):
                token, ordinals = line.split("\t")
                merged.setdefault(token, []).extend(int(o) for o in ordinals.split(","))
        indexed = self.pool.put_text_index(plan["snapshotId"], self._published(plan).layout, merged)
        return {"country": country, "partition": partition, "indexed": indexed}

    def index_items(self, country: str) -> list[dict[str, Any]]:
        """The index tasks of a country whose write is planned."""
        planned = self.work.read_json(_done_key("plan", {"country": country}))
        if not planned["shards"]:
            return []
        count = sum(self.work.read_json(f"plan/{country}.json")["strata"])
        return [{"country": country, "partition": p} for p in range(index_partitions(count))]

    # -- publish ------------------------------------------------------------------------------

    def publish_country(self, item: dict[str, Any]) -> dict[str, Any]:
        country = item["country"]
        planned = self.work.read_json(_done_key("plan", {"country": country}))
        if planned.get("empty"):
            return asdict(CountryOutcome(country, "empty"))
        plan = self.work.read_json(f"plan/{country}.json")
        published = self._published(plan)
        outcome = CountryOutcome.published(
            published.snapshot_id, published, country, plan["incomplete"], plan["locations"]
        )
        written = [self.work.read_json(k)["written"] for k in self.work.keys(f"done/write/{country}-")]
        indexed = [self.work.read_json(k)["indexed"] for k in self.work.keys(f"done/index/{country}-")]
        outcome.items_written = sum(written) + sum(indexed) + planned["catalogItems"]
        try:
            if sum(written) != 2 * published.count * bool(planned["shards"]):
                raise PublishConflict(
                    f"{country}: {sum(written)} pool items written, {2 * published.count} planned"
                )
            if len(indexed) != len(self.index_items(country)):
                raise PublishConflict(f"{country}: {len(indexed)} index partitions written")
            active = self.catalog.active_snapshot(country)
            outcome.status = publish_snapshot(self.catalog, published, active, self.clock)
            outcome.items_deleted = sweep(
                country, published.snapshot_id, self.pool, self.catalog, self.clock, SilentProgress()
            )
        except (StorageUnavailable, PublishConflict) as exc:
            outcome.status, outcome.error = "failed", f"{type(exc).__name__}: {exc}"
        return asdict(outcome)

    # -- closing the stages -------------------------------------------------------------------

    def _close_bounds(self) -> None:
        groups = source_order(self._entries(), self.config)
        items = [
            {"rank": rank, "runner": runner_for(sum(e.records for e in group.entries))}
            for rank, group in enumerate(groups)
        ]
        self.work.write_json("items/map.json", items)

    def _close_map(self) -> None:
        self.work.write_json("items/objects.json", [{"cell": c} for c in range(self.job.object_cells)])

    def _close_objects(self) -> None:
        self.work.write_json("items/dedupe.json", [{"cell": c} for c in range(self.job.street_cells)])

    def _close_dedupe(self) -> None:
        """Cut every order cell too large for one sort task at quantiles of its sampled keys."""
        job = self.job
        counts: Counter[tuple[str, CellKey]] = Counter()
        samples: dict[tuple[str, CellKey], list[Any]] = {}
        for cell in range(job.street_cells):
            for country, key, count, keys in self.work.read_json(f"samples/{cell:05d}.json"):
                place = (country, (key[0], key[1]))
                counts[place] += count
                samples.setdefault(place, []).extend(tupled(k) for k in keys)
        cuts = [
            [country, list(key), found]
            for (country, key), count in sorted(counts.items())
            if (found := splitters(samples[(country, key)], count, job.part_rows))
        ]
        self.work.write_json("splitters.json", cuts)
        self._splitters = None
        self.work.write_json("items/texts.json", [{"cell": c} for c in range(job.text_cells)])

    def _close_texts(self) -> None:
        self.work.write_json("items/route.json", [{"cell": c} for c in range(self.job.street_cells)])

    def _close_route(self) -> None:
        cells = sorted({(c, k[0], k[1], part) for d in self._results("route") for c, k, part in d["cells"]})
        items = [{"country": c, "key": [s, r], "part": part} for c, s, r, part in cells]
        self.work.write_json("items/sort.json", items)

    def _close_sort(self) -> None:
        rows: Counter[str] = Counter()
        for done in self._results("sort"):
            rows[done["country"]] += done["count"]
        items = [{"country": c, "runner": runner_for(rows[c])} for c in self.job.countries]
        self.work.write_json("items/plan.json", items)

    def _close_plan(self) -> None:
        shards = [
            {"country": country, "shard": shard}
            for country in self.job.countries
            for shard in self.work.read_json(_done_key("plan", {"country": country}))["shards"]
        ]
        self.work.write_json("items/write.json", shards)

    def _close_write(self) -> None:
        items = [item for country in self.job.countries for item in self.index_items(country)]
        self.work.write_json("items/index.json", items)

    def _close_index(self) -> None:
        self.work.write_json("items/publish.json", [{"country": c} for c in self.job.countries])

    def _close_publish(self) -> None:
        report = self.report()
        report.finished_at = self.clock.now().isoformat()
        self.catalog.save_sync_report(report.as_dict())
        self.work.write_json("finished.json", {"finishedAt": report.finished_at})

    # -- helpers ------------------------------------------------------------------------------

    def save_running_report(self, building: str | None) -> None:
        """What /data-health shows while the sync runs: the country being written now."""
        report = self.report()
        report.building = building
        self.catalog.save_sync_report(report.as_dict())

    def report(self) -> SyncReport:
        """The report as the stages so far tell it (the last one's once the sync has finished)."""
        report = self._report(planned=self.job.countries)
        for outcome in self._results("publish"):
            report.countries[outcome["country"]] = CountryOutcome(**outcome)
        if self.work.exists("finished.json"):
            report.finished_at = self.work.read_json("finished.json")["finishedAt"]
        return report

    def _report(self, planned: list[str]) -> SyncReport:
        report = SyncReport(
            started_at=self._job.started_at if self._job else self.clock.now().isoformat(),
            configuration_errors=list(self.config.issues),
            fingerprint=self._job.fingerprint if self._job else "",
            planned=planned,
        )
        tallies = Tallies()
        for stage in ("map", "dedupe", "route"):
            for doc in self._results(stage):
                tallies.add(tallies_of(doc))
        report.sources.update(tallies.sources)
        return report

    def _results(self, stage: str) -> list[dict[str, Any]]:
        return [self.work.read_json(k) for k in self.work.keys(f"done/{stage}/")]

    def _sorted_cells(self, country: str) -> list[dict[str, Any]]:
        found = (self.work.read_json(k) for k in self.work.keys(f"done/sort/{country}-"))
        return [{**d, "locations": f"locations/{country}/{d['name']}.jsonl"} for d in found]

    def _published(self, plan: dict[str, Any]) -> PublishedSnapshot:
        strata = plan["strata"]
        return published_snapshot(
            plan["country"],
            plan["snapshotId"],
            (strata[0], strata[1], strata[2], strata[3]),
            sources=plan["sources"],
            per_region_code=plan["regions"],
            locations=plan["locations"],
            config=self.config,
            published_at=plan["publishedAt"],
            layout_for=self.layout_for,
        )

    def _bounds(self) -> dict[str, list[Boundary]]:
        """Every extract's boundaries per country, in manifest order (as the in-process sync has them)."""
        if self._boundaries is None:
            found: dict[str, list[Boundary]] = {}
            for item in self.items("bounds"):
                entry = self._entries()[int(item["entry"])]
                doc = self.work.read_json(f"bounds/{int(item['entry']):05d}.json")
                found.setdefault(entry.country, []).extend(boundary_of(b) for b in doc)
            self._boundaries = found
        return self._boundaries

    def _entries(self) -> list[SourceEntry]:
        """The manifest's entries of the job's countries, in manifest order (read once per process)."""
        if self._manifest is None:
            job = self.job
            manifest = self._sources().local([job.manifest]) / job.manifest  # an absolute path stays one
            self._manifest = [e for e in load_manifest(manifest) if e.country in job.countries]
        return self._manifest

    def _sources(self) -> SourceFiles:
        return source_files(self.job.root, self._cache)

    @property
    def _cache(self) -> Path:
        return Path(tempfile.gettempdir()) / "ags-sources"  # Lambda's /tmp


_TASKS: dict[str, Callable[[ShardedSync, dict[str, Any]], dict[str, Any]]] = {
    "bounds": ShardedSync.read_bounds,
    "map": ShardedSync.map_source,
    "objects": ShardedSync.claim_objects,
    "dedupe": ShardedSync.dedupe_cell,
    "texts": ShardedSync.claim_texts,
    "route": ShardedSync.route_cell,
    "sort": ShardedSync.sort_cell,
    "plan": ShardedSync.plan_country,
    "write": ShardedSync.write_shard,
    "index": ShardedSync.index_partition,
    "publish": ShardedSync.publish_country,
}
_CLOSERS: dict[str, Callable[[ShardedSync], None]] = {
    "bounds": ShardedSync._close_bounds,
    "map": ShardedSync._close_map,
    "objects": ShardedSync._close_objects,
    "dedupe": ShardedSync._close_dedupe,
    "texts": ShardedSync._close_texts,
    "route": ShardedSync._close_route,
    "sort": ShardedSync._close_sort,
    "plan": ShardedSync._close_plan,
    "write": ShardedSync._close_write,
    "index": ShardedSync._close_index,
    "publish": ShardedSync._close_publish,
}


def runner_for(rows: int) -> str:
    """Where a task of this many input rows runs: a Lambda, or a container past Lambda's limits."""
    return "container" if rows > LAMBDA_ROWS else "lambda"


def index_partitions(count: int) -> int:
    return max(1, -(-count // INDEX_ROWS))


def _partition_of(token: str, partitions: int) -> int:
    return zlib.crc32(token.encode()) % partitions


def _postings_prefix(country: str, partition: int) -> str:
    return f"postings/{country}/{partition:04d}/"


def _done_key(stage: str, item: dict[str, Any]) -> str:
    if stage == "index":
        name = f"{item['country']}-{int(item['partition']):04d}"
    elif stage == "write":
        name = f"{item['country']}-{item['shard']['first_ordinal']:012d}"
    elif stage == "sort":
        key = (int(item["key"][0]), str(item["key"][1]))
        name = f"{item['country']}-{order_cell_name(key, int(item['part']))}"
    else:
        name = str(item.get("country", item.get("cell", item.get("rank", item.get("entry")))))
    return f"done/{stage}/{name}.json"
