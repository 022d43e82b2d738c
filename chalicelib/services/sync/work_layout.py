"""Every key of a run's work store, named once. Cells and ranks are zero-padded so a listing of a
prefix comes back in number order; each task's output goes under its own name, so a rerun
rewrites the same keys.

    job.json, finished.json, splitters.json         the run
    items/<stage>.json                              a stage's items (written by the close before it)
    done/<stage>/<task>.json                        a task's result
    bounds/<entry>.json                             an extract's boundaries
    rows|objects/<cell>/<rank>-<part>.jsonl         a map task's output by street or object cell
    repeats/<street cell>/<object cell>.json        later copies of OSM objects
    kept/<street cell>.jsonl                        first-round survivors
    texts/<text cell>/<street cell>.jsonl           their text claims
    samples/<street cell>.json                      order keys sampled for the splitters
    same-text/<street cell>/<text cell>.json        second-round losers
    order/<country>/<order cell>/<street cell>.jsonl  survivors by order cell and part
    sorted|locations/<country>/<order cell>.jsonl   a sorted part and its locations
    plan/<country>.json                             a country's plan
    postings/<country>/<partition>/<first ordinal>.txt  a write shard's postings"""

from __future__ import annotations

from typing import Literal

JOB = "job.json"
FINISHED = "finished.json"
SPLITTERS = "splitters.json"
LINEAGES = "lineages.json"  # per country: the epoch and generation the run writes

# What a producer writes for the next stage by cell: a map task its rows (by street cell) and OSM
# objects (by object cell), a dedupe task its text claims (by text cell).
Mapped = Literal["rows", "objects", "claims"]


def items(stage: str) -> str:
    return f"items/{stage}.json"


def done(stage: str, task: str) -> str:
    return f"{done_prefix(stage)}{task}.json"


def outcome(country: str) -> str:
    """A country's publish result: recorded early when its writes failed (it is not published)."""
    return done("publish", country)


def done_prefix(stage: str, task_prefix: str = "") -> str:
    return f"done/{stage}/{task_prefix}"


def bounds(entry: int) -> str:
    return f"bounds/{entry:05d}.json"


def mapped(kind: Mapped, rank: int, part: int) -> str:
    """A producer's flush of one kind (`rank`: the map task's, or the dedupe task's street cell):
    its lines cell after cell, each cell a byte range its result names (a file per flush and
    cell would be millions at the planet's size)."""
    return f"{kind}/{rank:05d}-{part:05d}.jsonl"


def cell_inputs(kind: Mapped, cell: int) -> str:
    """A cell's byte ranges of the producers' flushes, written by the stage planning its task."""
    return f"{kind}-inputs/{cell:05d}.json"


def repeats(street_cell: int, object_cell: int) -> str:
    return f"{repeats_prefix(street_cell)}{object_cell:05d}.json"


def repeats_prefix(street_cell: int) -> str:
    return f"repeats/{street_cell:05d}/"


def kept(street_cell: int) -> str:
    return f"kept/{street_cell:05d}.jsonl"


def samples(street_cell: int) -> str:
    return f"samples/{street_cell:05d}.json"


def same_text(street_cell: int, text_cell: int) -> str:
    return f"{same_text_prefix(street_cell)}{text_cell:05d}.json"


def same_text_prefix(street_cell: int) -> str:
    return f"same-text/{street_cell:05d}/"


def routed(street_cell: int) -> str:
    """A street cell's survivors, one order-cell part after another: one object per route task,
    each part a byte range the sort's inputs name (a file per part and street cell would make
    millions of objects at the planet's size; make bench-planet)."""
    return f"routed/{street_cell:05d}.jsonl"


def sort_inputs(country: str, order_cell: str) -> str:
    """A sort task's byte ranges of the route tasks' objects (`routed`)."""
    return f"sort-inputs/{country}/{order_cell}.json"


def sorted_part(country: str, order_cell: str) -> str:
    return f"sorted/{country}/{order_cell}.jsonl"


def locations(country: str, order_cell: str) -> str:
    return f"locations/{country}/{order_cell}.jsonl"


def plan(country: str) -> str:
    return f"plan/{country}.json"


def postings(country: str, partition: int, first_ordinal: int) -> str:
    return f"{postings_prefix(country, partition)}{first_ordinal:012d}.txt"


def postings_prefix(country: str, partition: int) -> str:
    return f"postings/{country}/{partition:04d}/"


def born_locations(country: str, order_cell: str) -> str:
    """The locations of a part's rows new to the epoch, indexed over those rows alone (written
    when the run appends to an epoch: in a new one they are the part's locations)."""
    return f"born-locations/{country}/{order_cell}.jsonl"
