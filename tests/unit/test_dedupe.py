from __future__ import annotations

import pytest

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.services.sync.dedupe import (
    Deduplicator,
    FirstClaims,
    Kept,
    MergeReason,
    coordinate_precision_meters,
    same_text_losers,
    text_claim,
)
from tests.support.factories import make_address


def _admit(
    dedupe: Deduplicator, address: PublishedAddress, family: str = "src", **kw: object
) -> MergeReason | None:
    return dedupe.offer(address, family, **kw).reason  # type: ignore[arg-type]


def test_same_text_at_the_same_place_is_a_duplicate() -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, make_address(record_id="a")) is None
    assert _admit(dedupe, make_address(record_id="b", lon="17.0314", lat="51.1148")) is MergeReason.DUPLICATE


def test_same_text_without_a_city_far_apart_is_two_addresses() -> None:
    dedupe = Deduplicator()  # 'Main St 1' in a county: two real places
    assert _admit(dedupe, make_address(record_id="a", city="", postcode="")) is None
    assert _admit(dedupe, make_address(record_id="b", city="", postcode="", lon="17.10", lat="51.15")) is None


def test_the_full_text_with_a_city_is_one_address_wherever_it_was_placed() -> None:
    placed = [
        Kept(make_address(record_id="b", lon="17.10", lat="51.15"), "src", (0, 2)),
        Kept(make_address(record_id="a"), "src", (0, 1)),
        Kept(make_address(record_id="c", number="3", lon="17.10", lat="51.15"), "src", (0, 3)),
        Kept(make_address(record_id="d", city="", postcode=""), "src", (0, 4)),
        Kept(make_address(record_id="e", city="", postcode="", lon="17.10", lat="51.15"), "src", (0, 5)),
    ]
    claims = [claim for kept in placed if (claim := text_claim(kept)) is not None]
    assert same_text_losers(claims) == {(0, 2)}  # the place taken first stays; no city, no claim


# Two OSM nodes of one building in the Lauf extract (osm-lauf_pegnitz-de), 31 m apart.
_LAUF = {
    "source_id": "osm-lauf_pegnitz-de",
    "country": "DE",
    "language": "de",
    "street": "Spitalstraße",
    "number": "5",
    "postcode": "91207",
    "district": "",
    "region": "",
}


def _lauf(record_id: str, city: str = "", lon: str = "", lat: str = "", **overrides: str) -> PublishedAddress:
    return make_address(
        **{**_LAUF, "record_id": record_id, "city": city, "lon": lon, "lat": lat, **overrides}
    )


def test_the_same_address_and_postcode_nearby_with_the_city_spelled_otherwise_is_one_address() -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, _lauf("node/1", "Lauf an der Pegnitz", "11.2820625", "49.5107303")) is None
    spelled = _lauf("node/2", "Lauf a.d.Pegnitz", "11.2819358", "49.5109984")
    assert _admit(dedupe, spelled) is MergeReason.CITY_SPELLING
    assert [k.address.components.city for k in dedupe.survivors()] == ["Lauf an der Pegnitz"]


@pytest.mark.parametrize(
    ("first", "second", "reason"),
    [
        # The audit's pairs: a district written otherwise (Berlin's Eichborndamm 106: Wittenau and
        # Reinickendorf), a number's spacing or case (57a/57 A, 50B/50 B), the city's punctuation.
        ({"district": "Wittenau"}, {"district": "Reinickendorf"}, MergeReason.DISTRICT_SPELLING),
        (
            {"district": "Wittenau"},
            {"district": "Reinickendorf", "city": "Lauf"},
            MergeReason.DISTRICT_SPELLING,
        ),
        ({"number": "57a"}, {"number": "57 A"}, MergeReason.DUPLICATE),
        ({"number": "50B"}, {"number": "50 b"}, MergeReason.DUPLICATE),
        ({"city": "Frederiksberg C"}, {"city": "Frederiksberg C."}, MergeReason.CITY_SPELLING),
    ],
)
def test_spellings_of_one_address_with_its_postcode_nearby_are_one_address(
    first: dict[str, str], second: dict[str, str], reason: MergeReason
) -> None:
    dedupe = Deduplicator()
    one = {"city": "Lauf an der Pegnitz", **first}
    assert _admit(dedupe, _lauf("node/1", lon="11.2820625", lat="49.5107303", **one)) is None
    other = {"city": "Lauf an der Pegnitz", **second}
    assert _admit(dedupe, _lauf("node/2", lon="11.2819358", lat="49.5109984", **other)) is reason
    assert len(dedupe.survivors()) == 1


def test_of_two_city_spellings_the_publication_serving_more_components_stays() -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, _lauf("node/1", "Lauf an der Pegnitz", "11.2820625", "49.5107303")) is None
    fuller = _lauf("node/2", "Lauf a.d.Pegnitz", "11.2819358", "49.5109984", district="Lauf")
    decision = dedupe.offer(fuller, "src")
    assert decision.reason is MergeReason.CITY_SPELLING
    assert decision.replaces is not None
    assert [k.address.components.city for k in dedupe.survivors()] == ["Lauf a.d.Pegnitz"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ({}, {"postcode": "91208"}),  # another postcode: another place
        ({}, {"postcode": ""}),  # no postcode to tie them
        ({}, {"lon": "11.2845", "lat": "49.5107303"}),  # 176 m apart
        ({"district": "Lauf"}, {"district": "Neunhof", "postcode": "91208"}),  # and another postcode
        ({}, {"unit": "2"}),  # another unit: another address
    ],
)
def test_a_different_city_stays_two_addresses_without_the_same_postcode_close_by(
    first: dict[str, str], second: dict[str, str]
) -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, _lauf("node/1", "Lauf an der Pegnitz", "11.2820625", "49.5107303", **first)) is None
    placed = {"lon": "11.2819358", "lat": "49.5109984", **second}
    assert _admit(dedupe, _lauf("node/2", "Lauf a.d.Pegnitz", **placed)) is None


def test_case_and_spacing_do_not_make_a_new_address() -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, make_address(record_id="a")) is None
    assert _admit(dedupe, make_address(record_id="b", street="ULICA  KSIĘCIA WITOLDA")) is not None


def test_different_units_are_different_addresses() -> None:
    dedupe = Deduplicator()
    assert _admit(dedupe, make_address(record_id="a", unit="1")) is None
    assert _admit(dedupe, make_address(record_id="b", unit="2")) is None


def test_one_source_id_for_several_addresses_keeps_them_all_with_distinct_ids() -> None:
    dedupe = Deduplicator()
    first, second = make_address(record_id="apn-1", number="10"), make_address(record_id="apn-1", number="12")
    assert first.id != second.id
    assert _admit(dedupe, first) is None
    assert _admit(dedupe, second) is None


def test_a_missing_city_does_not_make_two_addresses() -> None:
    dedupe = Deduplicator()
    with_city = make_address(record_id="a", city="Wrocław")
    without = make_address(record_id="b", city="")
    assert _admit(dedupe, with_city) is None
    assert _admit(dedupe, without) is MergeReason.FEWER_COMPONENTS


def test_a_derived_city_does_not_split_an_address_from_its_published_twin() -> None:
    krems = {"source_id": "osm-krems-at", "country": "AT", "language": "de", "region": "", "district": ""}
    krems |= {
        "street": "Obere Landstraße",
        "number": "3",
        "postcode": "3500",
        "lon": "15.59995",
        "lat": "48.41109",
    }
    derived = make_address(record_id="a", city="", **krems)  # city from the postcode table
    published = make_address(record_id="b", city="Krems", **krems)
    assert derived.components.city != published.components.city
    dedupe = Deduplicator()
    assert _admit(dedupe, derived) is None
    decision = dedupe.offer(published, "src")
    assert decision.reason is MergeReason.FEWER_COMPONENTS
    assert decision.replaces is not None
    assert decision.replaces.address is derived


def test_between_twins_each_lacking_one_the_one_serving_more_is_kept() -> None:
    krems = {"source_id": "osm-krems-at", "country": "AT", "language": "de", "region": "", "district": ""}
    krems |= {"street": "Obere Landstraße", "number": "3", "lon": "15.59995", "lat": "48.41109"}
    city_only = make_address(record_id="a", city="Krems", postcode="", **krems)
    postcode_only = make_address(record_id="b", city="", postcode="3500", **krems)  # its city derives
    dedupe = Deduplicator()
    assert _admit(dedupe, city_only) is None
    assert dedupe.offer(postcode_only, "src").replaces is not None
    dedupe = Deduplicator()
    assert _admit(dedupe, make_address(record_id="a", city="Wrocław", postcode="")) is None
    assert dedupe.offer(make_address(record_id="b", city="", postcode="50-202"), "src").replaces is None


def test_the_publication_with_more_components_takes_the_place_of_the_earlier_one() -> None:
    dedupe = Deduplicator()
    assert dedupe.offer(make_address(record_id="a", postcode=""), "src", seq=(0, 1)).is_new
    fuller = make_address(record_id="b", postcode="50-201")
    decision = dedupe.offer(fuller, "src", seq=(0, 2))
    assert decision.reason is MergeReason.FEWER_COMPONENTS
    assert decision.replaces is not None
    assert [(k.address, k.seq) for k in dedupe.survivors()] == [(fuller, (0, 1))]  # the place and its seq


def test_different_postcodes_are_two_addresses_unless_a_newer_source_supersedes() -> None:
    older, newer = (
        make_address(record_id="a", postcode="50-201"),
        make_address(record_id="b", postcode="50-202"),
    )
    assert _admit(Deduplicator(), newer) is None
    separate = Deduplicator()
    _admit(separate, newer, "new")
    assert _admit(separate, older, "old") is None
    superseding = Deduplicator(supersedes={"new": frozenset({"old"})})
    _admit(superseding, newer, "new")
    assert _admit(superseding, older, "old") is MergeReason.SUPERSEDED


def test_the_same_osm_object_in_two_extracts_is_read_once() -> None:
    objects = FirstClaims()
    assert not objects.is_repeat("PL", "way/1")
    assert objects.is_repeat("PL", "way/1")  # the later extract's copy, even moved or retagged
    assert not objects.is_repeat("CZ", "way/1")


def test_coarse_coordinates_widen_the_tolerance() -> None:
    dedupe = Deduplicator()
    first = make_address(record_id="a", lon="17.03", lat="51.11")
    second = make_address(record_id="b", lon="17.04", lat="51.11")  # 700 m away, 2-decimal precision
    assert _admit(dedupe, first, precision_meters=coordinate_precision_meters("17.03", "51.11")) is None
    assert _admit(dedupe, second, precision_meters=coordinate_precision_meters("17.04", "51.11")) is not None


@pytest.mark.parametrize(
    ("lon", "lat", "meters"), [("1.23", "4.5678", 1113.2), ("1.1234567", "2.1234567", 0.011132)]
)
def test_precision_follows_the_fewest_published_decimals(lon: str, lat: str, meters: float) -> None:
    assert coordinate_precision_meters(lon, lat) == pytest.approx(meters, rel=1e-3)


def test_two_texts_differing_only_by_diacritics_at_one_place_are_one_address() -> None:
    dedupe = Deduplicator()  # Monaco: 'Rue de la Lüjerneta 2' and 'Rue de la Lujerneta 2', 31 m apart
    assert _admit(dedupe, make_address(record_id="a", street="Ulica Księcia Witolda")) is None
    moved = make_address(record_id="b", street="Ulica Ksiecia Witolda", lat="51.1150")
    assert _admit(dedupe, moved) is MergeReason.DUPLICATE
