"""The licence policy: each listed SPDX id in one class (whatever its case), any other licence text
unlisted, and a row accepted only when its class is in the policy's `accept`."""

from __future__ import annotations

import json

from chalicelib.reference.licences import UNLISTED, load_licence_policy


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
    assert policy.class_of("NC OneMap terms of use (North Carolina)") == UNLISTED
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
    assert not policy.accepts("CC-BY-NC-4.0 OR CC BY-NC-SA 3.0")
