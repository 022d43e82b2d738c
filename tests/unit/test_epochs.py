"""Epochs: what a lineage serves from the ledger, how a generation compares its rows with its
parent's, where its locations' slots are, and when a sync begins a new epoch."""

from __future__ import annotations

from dataclasses import replace

from chalicelib.domain.digests import content_hash
from chalicelib.domain.epochs import LedgerEntry, LedgerPage, buckets_of_cell, ledger_buckets, live_entries
from chalicelib.domain.location_index import place_generation
from chalicelib.domain.ordering import Range, Span, Stratum
from chalicelib.domain.published import Placement, Segment, min_share
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.services.sync.generations import Lineage, appendable, compare
from tests.support.factories import make_address
from tests.support.fakes import FakeRegistryStore


def _entry(address_id: str, content: str, born: str, street: int = 0) -> LedgerEntry:
    return LedgerEntry(address_id, content, street, born)


def test_a_lineage_serves_what_its_generations_added_and_did_not_remove() -> None:
    pages = [
        LedgerPage("g1", [_entry("a", "1", "g1"), _entry("b", "1", "g1"), _entry("c", "1", "g1")], []),
        # g2 changes b (its old version removed, the new one added) and removes c
        LedgerPage("g2", [_entry("b", "2", "g2")], [_entry("b", "1", "g1"), _entry("c", "1", "g1")]),
        # g3, another sync from g1 that was never published, removes a
        LedgerPage("g3", [], [_entry("a", "1", "g1")]),
    ]
    assert set(live_entries(pages, frozenset({"g1"}))) == {("a", "1"), ("b", "1"), ("c", "1")}
    assert set(live_entries(pages, frozenset({"g1", "g2"}))) == {("a", "1"), ("b", "2")}


def test_ledger_buckets_split_street_cells_exactly() -> None:
    assert ledger_buckets(1) == 1
    assert ledger_buckets(5) == 8
    for cells, buckets in ((4, 16), (16, 4), (8, 8)):
        for street in range(2_000):
            cell = street % cells
            assert street % buckets in buckets_of_cell(cell, cells, buckets)


def test_compare_keeps_the_same_content_and_names_the_new_and_the_removed() -> None:
    same, changed, new = (make_address(record_id=str(n), number=str(n)) for n in (1, 2, 3))
    gone = make_address(record_id="4", number="4")
    was = replace(changed, formatted="an older text")
    pages = [LedgerPage("g1", [_entry(a.id, content_hash(a), "g1", street=8) for a in (same, was, gone)], [])]
    lineage = Lineage(country="PL", epoch="g1", buckets=1, generation="g2", parent="s1")
    found = compare(lineage, [(same, 8), (changed, 8), (new, 8)], pages, frozenset({"g1"}), 0, 4)
    assert found.kept == 1
    assert found.born_ids == {changed.id, new.id}
    assert {e.address_id for e in found.born} == {changed.id, new.id}
    assert all(e.born == "g2" for e in found.born)
    assert [(e.address_id, e.born) for e in found.removed] == sorted([(was.id, "g1"), (gone.id, "g1")])


def test_compare_leaves_the_streets_of_other_cells_alone() -> None:
    other = make_address(record_id="9", number="9")
    pages = [LedgerPage("g1", [_entry(other.id, content_hash(other), "g1", street=5)], [])]
    lineage = Lineage(country="PL", epoch="g1", buckets=1, generation="g2", parent="s1")
    found = compare(lineage, [], pages, frozenset({"g1"}), 0, 4)  # street 5 is in cell 1 of 4
    assert found.removed == []


def test_a_generation_s_spans_are_the_parent_s_ranges_then_its_own_with_served_counts() -> None:
    addresses = [make_address(record_id=str(n), number=str(n)) for n in range(10)]
    parent = build_snapshot("PL", addresses).locations
    city = next(loc for loc in parent.values() if loc.type.value == "city")
    new = make_address(record_id="x", number="99")
    content = build_snapshot("PL", [*addresses[2:], new]).locations
    born = build_snapshot("PL", [new]).locations
    moved = {k: replace(v, spans=[_shifted(s, 100) for s in v.spans]) for k, v in born.items()}
    placed = place_generation(content, parent, moved)[city.id]
    (span,) = placed.spans
    stratum = next(s for s in Stratum if span.live[s])
    assert span.ranges[stratum] == (Range(0, 10), Range(100, 101))
    assert span.live[stratum] == 9  # 8 kept and 1 new: the 2 removed slots are passed over


def _shifted(span: Span, offset: int) -> Span:
    moved = [tuple(Range(r.start + offset, r.end + offset) for r in ranges) for ranges in span.ranges]
    return Span((moved[0], moved[1], moved[2], moved[3]), span.live, *span.ancestors)


def test_min_share_is_the_sparsest_span_of_a_hundred_slots_or_more() -> None:
    dense = Span(((Range(0, 200),), (), (), ()), (190, 0, 0, 0))
    sparse = Span(((Range(200, 400),), (), (), ()), (60, 0, 0, 0))
    small = Span(((Range(400, 450),), (), (), ()), (1, 0, 0, 0))
    assert min_share([dense, small]) == 0.95
    assert min_share([dense, sparse, small]) == 0.3


def test_a_sync_appends_to_a_compact_epoch_and_begins_a_new_one_otherwise() -> None:
    snapshot = FakeRegistryStore().add(
        build_snapshot("PL", [make_address(record_id=str(n)) for n in range(8)])
    )
    one = Segment("g1", 0, (8, 0, 0, 0))
    assert appendable(snapshot)
    assert not appendable(None)
    sparse_epoch = Placement("g1", 1, (one, Segment("g2", 8, (8, 0, 0, 0))))  # 8 served of 16 slots
    assert not appendable(replace(snapshot, placement=sparse_epoch))
    many = tuple(Segment(f"g{n}", n, (1, 0, 0, 0)) for n in range(32))
    assert not appendable(replace(snapshot, strata=(32, 0, 0, 0), placement=Placement("g0", 1, many)))
    assert not appendable(replace(snapshot, placement=Placement("g1", 1, (one,), min_share=0.4)))
    assert not appendable(replace(snapshot, placement=Placement("s", 1, (one,), appendable=False)))
