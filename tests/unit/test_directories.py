"""Location directories: scopes, counts inside each scope, order, and matching."""

from __future__ import annotations

from chalicelib.domain.directories import COUNTRY_SCOPE, Entry, build_directories, matching
from chalicelib.domain.locations import LocationType
from chalicelib.domain.snapshots import build_snapshot
from tests.support.factories import make_address

CITY, POSTCODE, DISTRICT, REGION = (
    LocationType.CITY,
    LocationType.POSTCODE,
    LocationType.DISTRICT,
    LocationType.REGION,
)


def _directories() -> dict[tuple[str, LocationType], list[Entry]]:
    rows = [
        ("1", "dolnośląskie", "Wrocław", "50-001"),
        ("2", "dolnośląskie", "Wrocław", "50-001"),
        ("3", "dolnośląskie", "Oława", "50-001"),
        ("4", "śląskie", "Gliwice", "44-100"),
        ("5", "śląskie", "Gliwice", "50-001"),
    ]
    addresses = [
        make_address(record_id=n, number=n, region=region, city=city, district=city, postcode=postcode)
        for n, region, city, postcode in rows
    ]
    return build_directories(build_snapshot("PL", addresses).locations.values())


def test_a_postcode_is_counted_inside_each_scope_it_crosses() -> None:
    directories = _directories()
    everywhere = {e.value: e.count for e in directories[(COUNTRY_SCOPE, POSTCODE)]}
    assert everywhere == {"44-100": 1, "50-001": 4}
    regions = {e.value: e.id for e in directories[(COUNTRY_SCOPE, REGION)]}
    in_silesia = {e.value: e.count for e in directories[(regions["Śląskie"], POSTCODE)]}
    assert in_silesia == {"44-100": 1, "50-001": 1}
    cities = {e.value: e.id for e in directories[(COUNTRY_SCOPE, CITY)]}
    assert [(e.value, e.count) for e in directories[(cities["Oława"], POSTCODE)]] == [("50-001", 1)]
    assert (cities["Oława"], CITY) not in directories  # a city lists no cities


def test_directories_are_in_accent_insensitive_name_order() -> None:
    cities = _directories()[(COUNTRY_SCOPE, CITY)]
    assert [c.value for c in cities] == ["Gliwice", "Oława", "Wrocław"]


def _entry(value: str, count: int = 1, residential: int = 0, names: tuple[str, ...] = ()) -> Entry:
    return Entry.of(CITY, f"cit-{value}", value, count, residential, names)


def test_prefix_matches_first_then_inside_matches_each_in_directory_order() -> None:
    entries = [_entry("Bad Homburg"), _entry("Homberg"), _entry("Neuburg"), _entry("Burgdorf")]
    found = matching(entries, CITY, "BURG", residential=False)
    assert [e.value for e in found] == ["Burgdorf", "Bad Homburg", "Neuburg"]


FULL_WIDTH_ABC = "\uff21\uff22\uff23"


def test_matching_is_accent_case_and_width_insensitive_and_searches_other_names() -> None:
    entries = [_entry("Łódź"), _entry("東京都", names=("Tokyo",)), _entry(FULL_WIDTH_ABC)]
    assert [e.value for e in matching(entries, CITY, "lodz", False)] == ["Łódź"]
    assert [e.value for e in matching(entries, CITY, "tok", False)] == ["東京都"]
    assert [e.value for e in matching(entries, CITY, "abc", False)] == [FULL_WIDTH_ABC]


def test_postcodes_match_without_spaces_and_hyphens() -> None:
    entries = [Entry.of(POSTCODE, "p1", "1012 AB", 1, 0), Entry.of(POSTCODE, "p2", "50-001", 1, 0)]
    assert [e.value for e in matching(entries, POSTCODE, "1012ab", False)] == ["1012 AB"]
    assert [e.value for e in matching(entries, POSTCODE, "50001", False)] == ["50-001"]


def test_residential_listings_leave_out_locations_without_residential_records() -> None:
    entries = [_entry("A", count=3, residential=0), _entry("B", count=3, residential=2)]
    assert [e.value for e in matching(entries, CITY, None, residential=True)] == ["B"]
    assert [e.available(True) for e in matching(entries, CITY, None, residential=True)] == [2]
    assert [e.available(False) for e in matching(entries, CITY, None, residential=False)] == [3, 3]
