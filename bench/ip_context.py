"""IP context: lookup cost beside a bare maxminddb lookup, the cost of opening the database in a
fresh process, and the share of a random sample of public IPv4 addresses whose region maps to an
ISO 3166-2 unit, all on the real DB-IP Lite City files in one run.

    .venv/bin/python -m bench.ip_context [SAMPLE_SIZE]
"""

from __future__ import annotations

import ipaddress
import json
import platform
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator

import maxminddb

from bench.harness import measure
from chalicelib.domain.ip import IpAddress, placeable
from chalicelib.services.context.regions import region_code
from chalicelib.services.context.service import Caller, ContextPorts, locate
from chalicelib.services.generation.catalog_cache import CachedCatalog
from chalicelib.storage.files.ip_database import FILES, MmdbIpDatabase
from infra.local.env import IP_DATABASE
from tests.support.fakes import FakeRegistryStore, FakeSnapshots

SAMPLE = 100_000
RUNS = 20_000

_START = """
import json, time
t0 = time.perf_counter()
import maxminddb
t1 = time.perf_counter()
readers = [maxminddb.open_database(p, maxminddb.MODE_MMAP_EXT) for p in {paths!r}]
t2 = time.perf_counter()
readers[0].get("8.8.8.8")
t3 = time.perf_counter()
print(json.dumps({{"import": t1 - t0, "open": t2 - t1, "first": t3 - t2}}))
"""


def main(sample: int = SAMPLE, runs: int = RUNS) -> list[str]:
    database = MmdbIpDatabase(str(IP_DATABASE))
    sources = ContextPorts(database, FakeSnapshots(), CachedCatalog(FakeRegistryStore()))
    addresses = list(_public_ips(random.Random(7), runs))
    bare = maxminddb.open_database(str(IP_DATABASE / FILES[4]), maxminddb.MODE_MMAP_EXT)
    texts = iter([str(a) for a in addresses] * 3)
    bare_ips = iter(addresses * 3)
    ours = measure("locate", lambda: _locate(next(texts), sources), runs)
    floor = measure("maxminddb get", lambda: bare.get(next(bare_ips)), runs)
    start = json.loads(
        subprocess.run(
            [sys.executable, "-c", _START.format(paths=_paths())], capture_output=True, text=True, check=True
        ).stdout
    )
    mapped, with_state, placed, unmapped = _share(database, sample)
    lines = [
        f"IP context on DB-IP Lite City ({IP_DATABASE.name}), "
        f"{platform.machine()} CPython {platform.python_version()}",
        f"{'lookup':28} {'p50 us':>8} {'p99 us':>8} {'ratio':>6}",
        f"{'locate (ours, region mapped)':28} {ours.p50 * 1000:8.1f} {ours.p99 * 1000:8.1f} "
        f"{ours.p50 / floor.p50:6.1f}",
        f"{'bare maxminddb get':28} {floor.p50 * 1000:8.1f} {floor.p99 * 1000:8.1f} {1:6.1f}",
        f"fresh process: import maxminddb {start['import'] * 1000:.1f} ms, open both files "
        f"{start['open'] * 1000:.2f} ms (memory-mapped, C extension), "
        f"first lookup {start['first'] * 1000:.2f} ms",
        f"random public IPv4 sample of {sample}: placed {placed}, with a region name {with_state}, "
        f"mapped to ISO 3166-2 {mapped} ({mapped / max(with_state, 1):.1%})",
        "most frequent unmapped: "
        + ", ".join(f"{cc} {name!r} {n}" for (cc, name), n in unmapped.most_common(8)),
    ]
    return lines


def _locate(text: str, sources: ContextPorts) -> object:
    try:
        return locate(text, Caller(None), sources)
    except Exception:  # noqa: BLE001 - an unlisted address costs the same lookup
        return None


def _public_ips(rng: random.Random, count: int) -> Iterator[IpAddress]:
    found = 0
    while found < count:
        address = ipaddress.IPv4Address(rng.getrandbits(32))
        if placeable(address):
            found += 1
            yield address


def _share(database: MmdbIpDatabase, sample: int) -> tuple[int, int, int, Counter[tuple[str, str]]]:
    mapped = with_state = placed = 0
    unmapped: Counter[tuple[str, str]] = Counter()
    for address in _public_ips(random.Random(1), sample):
        place = database.lookup(address)
        if place is None:
            continue
        placed += 1
        if place.state:
            with_state += 1
            if region_code(place.country, place.state):
                mapped += 1
            else:
                unmapped[(place.country, place.state)] += 1
    return mapped, with_state, placed, unmapped


def _paths() -> list[str]:
    return [str(IP_DATABASE / name) for name in FILES.values()]


if __name__ == "__main__":
    print("\n".join(main(int(sys.argv[1]) if len(sys.argv) > 1 else SAMPLE)))
