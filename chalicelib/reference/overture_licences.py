"""Overture's own table of the datasets its addresses come from: each one's licence and the
attribution it asks for (data/overture_licences.json, from Overture's attribution page). A row
names its dataset (`OpenAddresses/LINZ`, `OpenAddresses/GA/Athens-Clarke County GIS`, `NAD`); its
own `sources[].license`, where given, wins; this table answers where it is absent or null, as it is
on every row before September 2025 and on many after.

The page names providers in its own words ("Land Information New Zealand (LINZ)"), not as rows
name datasets, so a dataset is matched within its country (and, for `OpenAddresses/<ST>/...`, its
US state): the one entry whose attribution contains the dataset's last part, or whose provider's
name the dataset's contains (`OpenAddresses/be-brussels-urbis` is UrbiS). No match, or two, is no
answer: the row's terms stay unknown, never guessed (not even for a country with one entry: a
dataset added after the table's release would take another's terms)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from chalicelib.domain.locations import search_key

_AGGREGATORS = ("openaddresses", "addressforall")


@dataclass(frozen=True)
class DatasetTerms:
    country: str
    state: str | None
    provider: str
    licence: str | None  # an SPDX id, or the page's words; None where the page states none
    attribution: str


@cache  # a country's rows name a handful of datasets: matched once each
def dataset_terms(country: str, dataset: str) -> DatasetTerms | None:
    """What Overture's attribution page says of the dataset a row of `country` names."""
    parts = [p.strip() for p in dataset.split("/") if p.strip()]
    if not parts:
        return None
    name = parts[-1]
    state = parts[1].upper() if len(parts) == 3 and parts[0].casefold() in _AGGREGATORS else None
    candidates = [t for t in _table().get(country, ()) if _in_state(t, state)]
    key = search_key(name)
    named = [t for t in candidates if key in search_key(t.attribution) or search_key(t.provider) in key]
    return named[0] if len(named) == 1 else None


def released() -> str:
    """The Overture release the table was written for."""
    return str(_document()["released"])


def _in_state(terms: DatasetTerms, state: str | None) -> bool:
    if state is None:
        return terms.state is None
    return terms.state is not None and _state_code(terms.state) == state


@cache
def _state_code(name: str) -> str | None:
    import pycountry  # lazy: only a US row naming a state asks

    found = [s for s in pycountry.subdivisions.get(country_code="US") or [] if s.name == name]  # type: ignore[no-untyped-call]
    return str(found[0].code).removeprefix("US-") if found else None


@cache
def _table() -> dict[str, tuple[DatasetTerms, ...]]:
    table: dict[str, list[DatasetTerms]] = {}
    rows: list[list[str | None]] = _document()["datasets"]  # type: ignore[assignment]
    for country, state, provider, licence, attribution in rows:
        terms = DatasetTerms(str(country), state, str(provider), licence, str(attribution))
        table.setdefault(str(country), []).append(terms)
    return {country: tuple(rows) for country, rows in table.items()}


@cache
def _document() -> dict[str, object]:
    text = resources.files("chalicelib.reference.data").joinpath("overture_licences.json").read_text("utf-8")
    document: dict[str, object] = json.loads(text)
    return document
