"""Each trait's rule on a published record (domain/traits.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from chalicelib.domain.addresses import Components, MatchLevel, PublishedAddress
from chalicelib.domain.traits import traits_of
from tests.support.factories import make_address

_BASE = make_address()
_PLAIN: dict[str, str | None] = {"street": "Main Street", "house_number": "12", "city": "Springfield"}
_KANJI = {
    "street": "本町",
    "house_number": "1",
    "city": "和歌山市",
    "region": "和歌山県",
    "region_code": "JP-30",  # an ISO code, not written text: no Latin script
    "postcode": "6410056",
}


def _with(
    parts: Mapping[str, str | None], names: dict[str, dict[str, str]] | None = None
) -> PublishedAddress:
    return dataclasses.replace(_BASE, components=Components(**parts), names=names or {})


def test_a_plain_ascii_address_with_a_number_has_no_trait() -> None:
    assert traits_of(_with(_PLAIN)) == set()


def test_unit_and_no_number_are_what_the_source_published() -> None:
    assert traits_of(_with({**_PLAIN, "unit": "4B"})) == {"unit"}
    assert traits_of(_with({**_PLAIN, "house_number": None})) == {"no-number"}
    assert traits_of(dataclasses.replace(_with(_PLAIN), match_level=MatchLevel.STREET)) == {"no-number"}


def test_diacritics_are_latin_letters_outside_ascii_once_width_is_folded() -> None:
    assert traits_of(_with({**_PLAIN, "city": "Wrocław"})) == {"diacritics"}
    assert traits_of(_with({**_PLAIN, "city": "Straße"})) == {"diacritics"}
    assert traits_of(_with({**_PLAIN, "street": "Rua 1º de Maio"})) == set()  # an ordinal indicator
    assert traits_of(_with({**_PLAIN, "unit": "Ａ"})) == {"unit"}  # noqa: RUF001 - full width is no accent


def test_scripts_count_han_and_kana_as_one_writing_and_other_language_names_too() -> None:
    assert traits_of(_with(_KANJI)) == {"non-latin"}
    assert traits_of(_with({**_KANJI, "street": "ほんまち"})) == {"non-latin"}  # kana with kanji: one
    assert traits_of(_with({**_KANJI, "street": "Honmachi"})) == {"non-latin", "multi-script"}
    named = {"en": {"street": "Honmachi", "city": "Wakayama"}}
    assert traits_of(_with(_KANJI, named)) == {"non-latin", "multi-script"}
    assert traits_of(_with({**_PLAIN, "city": "Москва"})) == {"non-latin", "multi-script"}


def test_traits_judge_the_lines_a_form_holds_not_a_region_or_district_the_sync_named() -> None:
    """Every French address lies in a region with an accent: `Île-de-France` made each one
    `diacritics`. The street, number, unit and city decide."""
    paris = {"street": "Rue de Rivoli", "house_number": "12", "city": "Paris", "postcode": "75001"}
    assert traits_of(_with({**paris, "region": "Île-de-France", "district": "Châtelet"})) == set()
    assert traits_of(_with({**paris, "street": "Rue de l'Église"})) == {"diacritics"}
    hong_kong = {"street": "Mody Road", "house_number": "75", "region": "九龍"}
    assert traits_of(_with(hong_kong, {"en": {"region": "Kowloon"}})) == set()
