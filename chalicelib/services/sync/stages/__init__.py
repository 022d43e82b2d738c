"""The sync's stages in order. Each stage's tasks are independent and idempotent and pass files
through the work store, so no worker holds more than one cell whatever a country's size, and a task
killed mid-way is simply run again.

    bounds   per OSM extract: the administrative boundaries enrichment places rows in
    map      per source group: read, validate, enrich; rows by street cell, OSM objects by object cell
    objects  per object cell: later copies of an OSM object (first claim in read order wins)
    dedupe   per street cell: the first dedupe round; survivors and their text claims by text cell,
             a sample of their order keys; its finish cuts large order cells into parts (splitters)
    texts    per text cell: the second round, survivors whose full text an earlier place serves
    route    per street cell: survivors by (country, stratum, region) order cell and part
    sort     per part of an order cell: sorted (external merge sort), digested, locations indexed
    plan     per country: prefix sums place the parts; snapshot id, catalog, shards of the write
    write    per shard: one ordinal range of pool items, and its tokens' ordinals by index partition
    index    per country and index partition: every shard's postings of its tokens merged, written
             as the snapshot's text index (heads and chunks)
    publish  per country: verify the items written, then the conditional pointer write, then sweep"""

from __future__ import annotations

from typing import Any

from chalicelib.services.sync.stages import (
    bounds,
    dedupe_cells,
    index,
    map_sources,
    objects,
    plan,
    publish,
    route,
    sort,
    texts,
    write,
)
from chalicelib.services.sync.stages.base import Stage

PIPELINE: tuple[Stage[Any, Any], ...] = (
    bounds.STAGE,
    map_sources.STAGE,
    objects.STAGE,
    dedupe_cells.STAGE,
    texts.STAGE,
    route.STAGE,
    sort.STAGE,
    plan.STAGE,
    write.STAGE,
    index.STAGE,
    publish.STAGE,
)
STAGES = tuple(stage.name for stage in PIPELINE)
BY_NAME = {stage.name: stage for stage in PIPELINE}
