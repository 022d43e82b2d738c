"""A record's licence marks: the classes a `license=` filter finds it by, and its SPDX ids."""

from __future__ import annotations

import dataclasses

import pytest

from chalicelib.domain.text_search import parse
from chalicelib.services.marks import licence_marks, marks_of, property_type_marks, trait_marks
from tests.support.factories import make_address


def _licensed(licence: str) -> frozenset[str]:
    address = make_address()
    licensed = dataclasses.replace(
        address, provenance=dataclasses.replace(address.provenance, license=licence)
    )
    return frozenset(m for m in marks_of(licensed) if m.startswith(("~licence:", "~spdx:")))  # its licence's


@pytest.mark.parametrize(
    ("licence", "classes", "ids"),
    [
        ("CC0-1.0", {"public-domain", "attribution", "share-alike"}, {"cc0-1.0"}),
        ("CC-BY-4.0", {"attribution", "share-alike"}, {"cc-by-4.0"}),
        ("ODbL-1.0", {"share-alike"}, {"odbl-1.0"}),
        ("CC-BY-4.0 AND ODbL-1.0", {"share-alike"}, {"cc-by-4.0", "odbl-1.0"}),  # bound by both
        (
            "(CC-BY-4.0 OR ODbL-1.0) AND CC0-1.0",
            {"attribution", "share-alike"},
            {"cc-by-4.0", "odbl-1.0", "cc0-1.0"},
        ),
        ("GPL-2.0 WITH Classpath-exception-2.0", set(), {"gpl-2.0"}),  # not in the policy: no class
        ("CC-BY-NC-4.0", set(), {"cc-by-nc-4.0"}),
        ("Polish Geodetic and Cartographic Law (PRG open data, free re-use)", set(), set()),
    ],
)
def test_a_record_is_found_by_its_class_the_easier_ones_and_its_ids(
    licence: str, classes: set[str], ids: set[str]
) -> None:
    assert _licensed(licence) == {f"~licence:{c}" for c in classes} | {f"~spdx:{i}" for i in ids}


def test_an_address_is_marked_with_its_traits_and_its_property_type_too() -> None:
    address = make_address()  # Wrocław
    assert "~trait:diacritics" in marks_of(address)
    assert "~type:unknown" in marks_of(address)  # the register says nothing of its premises
    assert "~type:mixed" in marks_of(make_address(premises={"building": "apartments", "shop": "kiosk"}))
    assert trait_marks(["unit", "non-latin"]) == {"~trait:unit", "~trait:non-latin"}
    assert property_type_marks("industrial") == {"~type:industrial"}
    assert property_type_marks(None) == frozenset()


def test_a_filter_asks_for_the_marks_and_a_text_query_never_holds_one() -> None:
    assert licence_marks(["attribution", "CC-BY-4.0"]) == {"~licence:attribution", "~spdx:cc-by-4.0"}
    assert parse("~licence:attribution").tokens == {"licence", "attribution"}  # words, not a mark
    assert parse("main st").marked(licence_marks(["odbl-1.0"])).tokens == {"main", "st", "~spdx:odbl-1.0"}
