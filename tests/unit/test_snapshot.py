from __future__ import annotations

import random

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.digests import CellDigest, cell_digest
from chalicelib.domain.locations import LocationType
from chalicelib.domain.ordering import Range, Stratum, stratum_of
from chalicelib.domain.snapshots import build_snapshot
from tests.support.factories import make_address


def _addresses() -> list[PublishedAddress]:
    rows = []
    for i in range(40):
        city, postcode = ("Wrocław", "50-202") if i % 3 else ("Oleśnica", "56-400")
        rows.append(
            make_address(
                record_id=f"r{i}",
                number=str(i + 1),
                city=city,
                district=city,
                postcode=postcode,
                premises={"building": "house"} if i % 4 == 0 else {},
            )
        )
    rows.append(
        make_address(record_id="x", number="7", city="Oleśnica", district="Oleśnica", postcode="50-202")
    )
    return rows


def test_residential_addresses_come_first_with_dense_ordinals() -> None:
    snapshot = build_snapshot("PL", _addresses())
    flags = [a.is_residential for a in snapshot.addresses]
    assert flags == sorted(flags, reverse=True)
    assert snapshot.residential_count == sum(flags) == 10
    assert snapshot.country_span().count == snapshot.count == 41


def test_every_location_span_holds_exactly_its_addresses() -> None:
    snapshot = build_snapshot("PL", _addresses())
    for location in snapshot.locations.values():
        members: set[int] = set()
        whole = snapshot.country_span()
        for span in location.spans:
            for stratum, ranges in zip(Stratum, span.ranges, strict=True):
                (block,) = whole.ranges[stratum] or (Range(0, 0),)
                assert len(ranges) <= 1  # one generation: one contiguous range per stratum
                for rng in ranges:
                    assert block.start <= rng.start <= rng.end <= block.end
                    members.update(range(rng.start, rng.end))
                    assert all(
                        stratum_of(snapshot.addresses[i]) is stratum for i in range(rng.start, rng.end)
                    )
                assert span.live[stratum] == sum(r.size for r in ranges)
        expected = {i for i, a in enumerate(snapshot.addresses) if _value(a, location.type) == location.value}
        assert members == expected, location.value


def _value(address: PublishedAddress, kind: LocationType) -> str | None:
    c = address.components
    values = {
        LocationType.REGION: c.region,
        LocationType.CITY: c.city,
        LocationType.DISTRICT: c.district,
        LocationType.POSTCODE: c.postcode,
    }
    return values[kind]


def test_a_postcode_across_cities_has_one_span_per_city() -> None:
    snapshot = build_snapshot("PL", _addresses())
    postcode = next(loc for loc in snapshot.locations.values() if loc.value == "50-202")
    assert len(postcode.spans) == 2
    assert {s.city_id for s in postcode.spans} == {
        loc.id for loc in snapshot.locations.values() if loc.type is LocationType.CITY
    }


def test_content_decides_the_snapshot_id_not_input_order() -> None:
    rows = _addresses()
    shuffled = rows[:]
    random.Random(7).shuffle(shuffled)
    assert build_snapshot("PL", rows).id == build_snapshot("PL", shuffled).id
    assert build_snapshot("PL", rows).id != build_snapshot("PL", rows[:-1]).id


def test_a_cell_digest_is_the_sum_of_its_parts_digests_and_changes_with_any_address() -> None:
    addresses = _addresses()
    whole = cell_digest(addresses)
    assert CellDigest.combined([cell_digest(addresses[:7]), cell_digest(addresses[7:])]) == whole
    assert CellDigest.combined([cell_digest(addresses[30:]), cell_digest(addresses[:30])]) == whole
    assert cell_digest(addresses[:-1]) != whole
    assert cell_digest([*addresses[:-1], make_address(record_id="x", number="8")]) != whole
    assert cell_digest([*addresses, addresses[0]]) != whole  # a multiset: a copy counts


def test_location_ids_are_stable_and_parents_link_up() -> None:
    first = build_snapshot("PL", _addresses())
    second = build_snapshot("PL", _addresses()[5:])
    assert set(second.locations) <= set(first.locations)
    city = next(loc for loc in first.locations.values() if loc.type is LocationType.CITY)
    region = first.locations[city.parent_id or ""]
    assert (city.parent_type, region.type, region.value) == ("region", LocationType.REGION, "Dolnośląskie")
    assert {"pl-02", "dolnośląskie"} <= region.aliases


def test_house_numbers_sort_naturally() -> None:
    snapshot = build_snapshot("PL", [make_address(record_id=n, number=n) for n in ("10", "2", "2a", "1")])
    assert [a.components.house_number for a in snapshot.addresses] == ["1", "2", "2a", "10"]
