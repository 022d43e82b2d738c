"""What an importer hands to the sync: one source row, as published, before any validation."""

from __future__ import annotations

from dataclasses import dataclass, field

# The text fields every importer fills ("" where the source publishes nothing).
TEXT_FIELDS = ("number", "street", "unit", "city", "district", "region", "postcode")
# What a reader says of a row it could not read whole: the sync drops and counts it by this name.
MALFORMED_ROW = "malformed_row"  # a line or row that is not what the format says (not JSON, short)
UNREADABLE_FILE = "unreadable_file"  # the file broke off (truncated, damaged block): one per file
NOT_PREMISES = "not_premises"  # street furniture with an address (a bus stop, a speed camera)
# Fields a language variant of the same record may publish differently.
NAME_FIELDS = ("street", "city", "district", "region", "number")


@dataclass(slots=True)
class RawRecord:
    """One published row. Coordinates stay text until validation, so bad ones can be counted."""

    source_id: str
    record_id: str
    country: str
    language: str
    number: str = ""
    street: str = ""
    unit: str = ""
    city: str = ""
    district: str = ""
    region: str = ""
    postcode: str = ""
    lon: str = ""
    lat: str = ""
    use: str = ""  # OpenAddresses extension: what the source says the premises are
    # OSM tags that say what the premises are (domain/premises.py): {"building": "apartments"}.
    premises: dict[str, str] = field(default_factory=dict)
    # Names in other languages, e.g. {"en": {"street": "Aoicho", "city": "Wakayama-shi"}}.
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    # Readings the source publishes (e.g. JP katakana): {"street_kana": "アオイチョウ"}.
    readings: dict[str, str] = field(default_factory=dict)
    defect: str = ""  # MALFORMED_ROW, UNREADABLE_FILE or NOT_PREMISES: the row is dropped by that name
    # Overture rows name their own upstream: its dataset and SPDX licence ("" when it gives none);
    # `overture_id` is Overture's id of the row (a release's changelog lists them). Other readers
    # leave them empty: their manifest entry's licence applies.
    dataset: str = ""
    license: str = ""
    attribution: str = ""  # what the dataset's publisher asks to be credited as (Overture's table)
    overture_id: str = ""

    def text(self, name: str) -> str:
        value: str = getattr(self, name)
        return value
