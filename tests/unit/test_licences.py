"""The licence policy: each listed SPDX id in one class (whatever its case), any other licence text
unlisted, and a row accepted only when its class is in the policy's `accept`."""

from __future__ import annotations

import json

from chalicelib.reference.licences import UNLISTED, load_licence_policy, parse_expression


def test_the_packaged_policy_serves_open_data_and_refuses_non_commercial_data() -> None:
    policy = load_licence_policy()
    assert policy.class_of("CC0-1.0") == "public-domain"
    assert policy.class_of("cc-by-4.0") == "attribution"
    assert policy.class_of(" ODbL-1.0 ") == "share-alike"
    assert policy.class_of("CC-BY-NC-4.0") == "non-commercial"
    assert policy.class_of("Icelandic public-sector information re-use terms") == UNLISTED
    assert policy.class_of("") == UNLISTED
    # A publisher's own words for non-commercial terms are not "unlisted".
    for text in (
        "CC BY-NC-SA 3.0",
        "Creative Commons Attribution-NonCommercial 4.0",
        "non commercial use only",
    ):
        assert policy.class_of(text) == "non-commercial", text
    for text in (
        "NC OneMap terms of use (North Carolina)",
        "Data provided by NC OneMap",
        "Free for commercial and non-commercial use",
        "Open Government Licence: use for commercial and non-commercial purposes",
    ):
        assert policy.class_of(text) == UNLISTED, text
    assert [policy.accepts(x) for x in ("CC0-1.0", "CC-BY-4.0", "ODbL-1.0", "own terms", "CC-BY-NC-4.0")] == [
        True,
        True,
        True,
        True,
        False,
    ]


def test_every_listed_id_is_in_one_class_only() -> None:
    raw = json.loads(load_licence_policy().text)
    listed = [spdx.casefold() for ids in raw["classes"].values() for spdx in ids]
    assert len(listed) == len(set(listed))
    assert set(raw["accept"]) <= {*raw["classes"], UNLISTED}


def test_an_operator_s_policy_decides_what_is_served() -> None:
    strict = load_licence_policy(
        json.dumps({"classes": {"sa": ["ODbL-1.0"], "pd": ["CC0-1.0"]}, "accept": ["pd"]})
    )
    assert (strict.accepts("CC0-1.0"), strict.accepts("ODbL-1.0"), strict.accepts("own terms")) == (
        True,
        False,
        False,
    )


def test_a_record_of_several_datasets_is_served_only_if_every_licence_is_accepted() -> None:
    policy = load_licence_policy()
    assert policy.accepts("CC-BY-4.0 AND ODbL-1.0")
    assert not policy.accepts("CC-BY-4.0 AND CC-BY-NC-4.0")
    assert policy.accepts("CC-BY-NC-4.0 OR CC-BY-4.0")  # the licensee chooses
    assert not policy.accepts("CC-BY-NC-4.0 OR CC-BY-NC-SA-4.0")
    assert not policy.accepts("(CC0-1.0 OR MIT) AND CC-BY-NC-4.0")  # AND binds the parenthesis
    assert policy.accepts(
        "CC-BY-4.0 OR ODbL-1.0 AND CC-BY-NC-4.0"
    )  # AND binds first: CC-BY-4.0 is one choice
    assert policy.accepts("cc-by-4.0 and odbl-1.0")
    assert policy.accepts("Apache-2.0 WITH LLVM-exception")
    assert not policy.accepts("CC-BY-NC-4.0 WITH Some-exception")
    # Not an expression: a publisher's words, judged whole.
    assert policy.accepts("Icelandic public-sector information re-use terms")
    assert not policy.accepts("Creative Commons Attribution-NonCommercial 4.0 and ODbL")


def test_an_expression_is_parsed_as_spdx_writes_it_or_not_at_all() -> None:
    assert parse_expression("CC-BY-4.0") == "CC-BY-4.0"
    assert parse_expression("A OR B AND C") == ("OR", ["A", ("AND", ["B", "C"])])
    assert parse_expression("(A OR B) AND C") == ("AND", [("OR", ["A", "B"]), "C"])
    for text in ("A AND", "(A OR B", "A B", "AND A", "A WITH", "see the dataset's terms", ""):
        assert parse_expression(text) is None, text
