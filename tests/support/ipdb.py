"""A small IP database in the DB-IP Lite City layout (one .mmdb per IP version, records with
country_code, state1, state2, city, postcode, latitude, longitude, timezone), written with
mmdb-writer so tests run without the real 134 MB files. The ranges are public ones; the places
are what a test needs, shaped as DB-IP writes them (English state names, districts in brackets)."""

from __future__ import annotations

from pathlib import Path

from mmdb_writer import MMDBWriter
from netaddr import IPSet  # type: ignore[import-untyped]

from chalicelib.storage.files.ip_database import FILES

# network → (country_code, state1, city)
PLACES: dict[str, tuple[str, str, str]] = {
    "81.2.69.0/24": ("GB", "England", "London"),
    "85.214.132.0/24": ("DE", "State of Berlin", "Berlin (Charlottenburg-Wilmersdorf)"),
    "31.0.0.0/16": ("PL", "Lower Silesia", "Wroclaw"),
    "31.1.0.0/16": ("PL", "Silesia", "Gliwice"),
    "193.0.6.0/24": ("NL", "North Holland", "Amsterdam"),
    "145.100.0.0/16": ("NL", "Zeeland", "Middelburg"),
    "37.252.0.0/16": ("TW", "Taiwan", "Taipei"),  # DB-IP's state is the country: no ISO unit
    "8.8.8.0/24": ("US", "California", ""),  # a region, no city
    "2.16.0.0/24": ("BR", "", ""),  # the country only
    "62.2.0.0/16": ("LI", "Vaduz", "Vaduz"),
    "2a00:1450:4001::/48": ("DE", "Hesse", "Frankfurt am Main"),
    "2a02:1000::/32": ("PL", "Lower Silesia", "Wroclaw"),
    "2a03:2000::/32": ("CN", "Beijing", "Beijing"),
}


def write_ip_database(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for version, name in FILES.items():
        writer = MMDBWriter(ip_version=version, database_type=f"city ipv{version}")
        for network, (country, state, city) in PLACES.items():
            if (":" in network) == (version == 6):
                record = {
                    "country_code": country,
                    "state1": state,
                    "state2": "",
                    "city": city,
                    "postcode": "",
                    "latitude": 0.0,
                    "longitude": 0.0,
                    "timezone": "",
                }
                writer.insert_network(IPSet([network]), record)
        writer.to_db_file(str(directory / name))
    return directory
