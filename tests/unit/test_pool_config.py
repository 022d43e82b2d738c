from __future__ import annotations

import json

from chalicelib.reference.pool_config import load_pool_config


def test_packaged_configuration_is_valid_and_covers_the_manifest_countries() -> None:
    config = load_pool_config()
    assert config.issues == ()
    assert {
        "US",
        "JP",
        "TW",
        "CN",
        "GB",
        "DE",
        "PL",
        "BE",
        "LI",
        "RU",
        "AT",
        "FR",
        "SG",
        "MC",
        "IT",
        "IS",
        "NL",
        "AD",
        "PT",
        "CA",
        "KR",
        "ES",
        "AU",
        "SE",
        "DK",
        "CZ",
        "NO",
        "CH",
        "FI",
        "VN",
        "HK",
        "BR",
    } == set(config.enabled)


def test_bad_entries_are_reported_not_raised() -> None:
    countries = {
        "countries": {
            "XX": {},
            "us": {},
            "DE": {
                "language": "de",
                "bounds": [[5.8, 47.2, 15.1, 55.1]],
                "coverage": {
                    "total": -1,
                    "administrativeCoverage": 1.5,
                    "regionalMinimum": {"share": 0.5, "minAddresses": 1},
                },
            },
            "AT": {
                "language": "de",
                "bounds": [[9.5, 46.3, 17.2, 49.1]],
                "coverage": {
                    "total": 5,
                    "administrativeCoverage": 0.5,
                    "regionalMinimum": {"share": 0.5, "minAddresses": 1},
                },
            },
        }
    }
    sources = {"sources": {"x": {"region": "not a code"}, "y": {"streetLevel": True}}}
    config = load_pool_config(json.dumps(countries), json.dumps(sources))
    problems = {(i.country, i.field) for i in config.issues}
    assert {
        ("XX", "country"),
        ("us", "country"),
        ("DE", "coverage.total"),
        ("DE", "coverage.administrativeCoverage"),
        (None, "sources.x.region"),
    } <= problems
    assert config.enabled == ["AT"]
    assert config.source("y").street_level


def test_unparseable_files_are_reported() -> None:
    config = load_pool_config("{nope", "[]")
    assert {i.field for i in config.issues} == {"countries.json", "sources.json"}
    assert config.enabled == []
