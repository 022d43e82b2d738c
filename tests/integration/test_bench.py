"""The benchmark keeps working (its numbers are printed, never asserted)."""

from __future__ import annotations

import ast

import pytest

from bench.catalog import main as catalog_bench
from bench.completeness import main as completeness_bench
from bench.generate import main as generate_bench
from bench.ip_context import main as ip_context_bench
from bench.near_misses import main as near_misses_bench
from bench.profiles import main as profiles_bench
from bench.request_overhead import main
from bench.snapshots import main as snapshots_bench
from bench.sync import main as sync_bench
from bench.translation import main as translation_bench
from chalicelib.storage.files.ip_database import FILES
from infra.local.dynamodb_local import java_available
from infra.local.env import IP_DATABASE
from tests.support.factories import SOURCES

pytestmark = pytest.mark.integration


def test_request_overhead_bench_reports_ratios_and_request_counts() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = main(runs=5)
    assert any(line.startswith("authenticated GET") for line in lines)
    assert lines[-1].endswith("1 {'UpdateItem': 1}")  # the rate counter is the only DynamoDB call


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_sync_bench_reports_rates_and_writes_per_address() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = sync_bench(["NL", "AD"])
    assert lines[1].split()[-1] == "279"  # published addresses: NL 86 + AD 193
    assert any(line.startswith("BatchWriteItem requests") and "per address" in line for line in lines)
    assert sum("sync/bare" in line for line in lines) == 2
    assert lines[-1].startswith("text index")
    assert "bytes per address" in lines[-1]


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_snapshots_bench_reports_what_each_resync_adds_and_what_the_sweep_deletes() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = snapshots_bench("pl-wroclaw-prg")
    steps = {line.split(":")[0]: i for i, line in enumerate(lines) if line.startswith("sync ")}
    unchanged = steps["sync A again (no change)"]
    assert "unchanged" in lines[unchanged]
    assert lines[unchanged + 1].endswith("added         0 items     0.00 MB")  # the pool: nothing
    assert "added         0 items" in lines[unchanged + 2]  # the catalog: no copy of an unchanged snapshot
    changed = steps["sync B (1% changed)"]
    assert "published" in lines[changed]
    assert "added 4, removed 5" in lines[changed]  # A left out 4 rows, B 5 others
    assert any(line.startswith("  generate current (B)") for line in lines)
    assert "the sweep deletes" in lines[-3]


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_generate_bench_reports_ratios_and_one_read_per_request() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = generate_bench(["NL"], runs=5)
    rows = {line.split()[0]: line for line in lines[2:-2]}
    assert lines[-2].startswith("license: license=share-alike in NL's pool; traits: traits=")
    assert "propertyType: propertyType=unknown, its commonest" in lines[-2]  # NL's registers say none
    filters = {"q", "license", "traits", "propertyType", "near", "bbox", "variant"}
    assert set(rows) == {"generate", "batch(50)", "get", *filters}
    assert rows["get"].endswith("{'GetItem': 1, 'UpdateItem': 1}")  # the address and the rate counter
    assert rows["generate"].endswith("{'GetItem': 1, 'UpdateItem': 1}")  # one address: one GetItem
    assert rows["batch(50)"].endswith("{'BatchGetItem': 1, 'UpdateItem': 1}")
    filtered = ("q ", "license ", "traits ", "propertyType ", "near ", "bbox ", "variant ")
    q_rows = [line for line in lines[2:-2] if line.startswith(filtered)]
    assert len(q_rows) == 8
    for row in q_rows:  # the tokens' heads, then the address: within q's bound of four reads
        reads = ast.literal_eval(row[row.index("{") :])
        assert sum(n for call, n in reads.items() if call != "UpdateItem") <= 4
    assert lines[-1].startswith("the storage wire's own GetItem")


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_catalog_bench_reports_requests_per_page() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = catalog_bench(["NL"], runs=5, scales=(1_000,))
    warm = lines[lines.index(next(line for line in lines if line.startswith("warm"))) + 1 :][:3]
    assert all(line.endswith("{'UpdateItem': 1}") for line in warm)  # cached: only the rate counter
    cold = next(line for line in lines if line.startswith("cold"))
    assert "GetItem" in lines[lines.index(cold) + 1]
    assert lines[-1].split()[0] == "1000"
    assert lines[-1].endswith("{'GetItem': 1}")


def test_ip_context_bench_reports_lookup_ratio_start_cost_and_mapped_share() -> None:
    if not all((IP_DATABASE / name).exists() for name in FILES.values()):
        pytest.skip("the DB-IP files are not installed (npm ci --prefix infra/local)")
    lines = ip_context_bench(sample=2_000, runs=200)
    assert lines[2].startswith("locate (ours")
    assert lines[3].startswith("bare maxminddb get")
    assert "open both files" in lines[4]
    assert "mapped to ISO 3166-2" in lines[5]


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_translation_bench_reports_every_locale_and_import_costs() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = translation_bench(runs=3, sources=["be-brussels-urbis-fr", "cn-countrywide-starbucks"])
    rows = {line.split()[0]: line for line in lines[2:11]}
    assert set(rows) == {"en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"}
    assert all(row.endswith("{'GetItem': 1, 'UpdateItem': 1}") for row in rows.values())
    assert sum(" ms" in line for line in lines[-5:]) == 5


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_completeness_bench_prints_a_row_per_country_and_the_validator_verdicts() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = completeness_bench(["NL", "KR"])
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in lines[2:4]}
    assert rows["NL"][1:6] == ["86", "86", "100.0%", "100.0%", "100.0%"]  # the BAG publishes everything
    assert rows["KR"][1:4] == ["50", "14", "28.0%"]  # most Suwon objects publish no postcode
    assert rows["KR"][5] == "100.0%"  # what complete=true draws, the validator accepts
    assert lines[-2].startswith("countries with 100+ addresses: 0")


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_variants_bench_prints_the_share_google_s_rules_reject_per_country_and_kind() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = near_misses_bench(["NL", "KR"])
    assert lines[0].startswith("| country | postcode-of-another-place | city-of-another-place |")
    rows = {line.split(" | ")[0].lstrip("| "): line.rstrip(" |").split(" | ") for line in lines[2:5]}
    assert set(rows) == {"NL", "KR", "all"}
    assert rows["NL"][3] == "50/50 (100%)"  # the BAG's postcodes: a Dutch form requires one
    assert rows["KR"][2] == "-"  # Suwon is KR's one city: no other city to take
    assert rows["NL"][6] == "0/50 (0%)"  # no form's rules know a country's streets


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_profiles_bench_prints_the_validators_verdicts_per_country() -> None:
    if not java_available():
        pytest.skip("Java is not installed: the benchmark needs DynamoDB Local")
    lines = profiles_bench(["SE", "KR"])
    rows = {line.split(" | ")[0].lstrip("| "): line.rstrip(" |").split(" | ") for line in lines[2:]}
    assert set(rows) == {"SE", "KR"}
    assert rows["SE"][2:4] == ["100%", "100%"]  # PTS's numbers, which libphonenumber accepts
    assert rows["KR"][2:4] == ["0%", "0%"]  # nothing reserved: undialable, and marked so
    assert rows["SE"][6] == rows["KR"][6] == "0"  # never invalid and unmarked
    assert rows["KR"][7] == "native+latin 100%"
