from __future__ import annotations

import pytest

from chalicelib.services.sync.dedupe import Deduplicator, coordinate_precision_meters
from tests.support.factories import make_address


def test_same_text_at_the_same_place_is_a_duplicate() -> None:
    dedupe = Deduplicator()
    assert not dedupe.is_duplicate(make_address(record_id="a"))
    assert dedupe.is_duplicate(make_address(record_id="b", lon="17.0314", lat="51.1148"))


def test_same_text_far_apart_is_two_addresses() -> None:
    dedupe = Deduplicator()
    assert not dedupe.is_duplicate(make_address(record_id="a"))
    assert not dedupe.is_duplicate(make_address(record_id="b", lon="17.10", lat="51.15"))


def test_case_and_spacing_do_not_make_a_new_address() -> None:
    dedupe = Deduplicator()
    assert not dedupe.is_duplicate(make_address(record_id="a"))
    assert dedupe.is_duplicate(make_address(record_id="b", street="ULICA  KSIĘCIA WITOLDA"))


def test_different_units_are_different_addresses() -> None:
    dedupe = Deduplicator()
    assert not dedupe.is_duplicate(make_address(record_id="a", unit="1"))
    assert not dedupe.is_duplicate(make_address(record_id="b", unit="2"))


def test_the_same_source_record_twice_is_a_duplicate() -> None:
    dedupe = Deduplicator()
    assert not dedupe.is_duplicate(make_address(record_id="a"))
    assert dedupe.is_duplicate(make_address(record_id="a", lon="17.2"))


def test_coarse_coordinates_widen_the_tolerance() -> None:
    dedupe = Deduplicator()
    first = make_address(record_id="a", lon="17.03", lat="51.11")
    second = make_address(record_id="b", lon="17.04", lat="51.11")  # 700 m away, 2-decimal precision
    assert not dedupe.is_duplicate(first, coordinate_precision_meters("17.03", "51.11"))
    assert dedupe.is_duplicate(second, coordinate_precision_meters("17.04", "51.11"))


@pytest.mark.parametrize(
    ("lon", "lat", "meters"), [("1.23", "4.5678", 1113.2), ("1.1234567", "2.1234567", 0.011132)]
)
def test_precision_follows_the_fewest_published_decimals(lon: str, lat: str, meters: float) -> None:
    assert coordinate_precision_meters(lon, lat) == pytest.approx(meters, rel=1e-3)
