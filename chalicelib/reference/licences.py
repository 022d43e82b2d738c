"""The licence policy (data/licences.json): which licence class a row's licence belongs to, and
whether the pool accepts it. A row's licence is its own SPDX id where it names one (Overture's),
else its manifest entry's; text that is no listed id (a publisher's own terms) is `unlisted`,
unless it says the data is non-commercial. A licence may be an SPDX expression (`CC-BY-4.0 AND
ODbL-1.0`, a record built from two datasets): every part of it must be accepted, or one of the
alternatives `OR` offers."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources

UNLISTED = "unlisted"
NON_COMMERCIAL = "non-commercial"
# A publisher's own words for non-commercial terms ("Attribution-NonCommercial", "CC BY-NC-SA 3.0").
_NON_COMMERCIAL_TEXT = re.compile(r"non[- ]?commercial|\bby[- ]nc\b", re.IGNORECASE)
_OR, _AND = re.compile(r"\s+OR\s+"), re.compile(r"\s+AND\s+")


@dataclass(frozen=True)
class LicencePolicy:
    classes: dict[str, str] = field(default_factory=dict)  # SPDX id (case-folded) → class
    accepted: frozenset[str] = frozenset({UNLISTED})
    text: str = ""  # as read, for the sync's fingerprint

    def class_of(self, licence: str) -> str:
        """The class of one licence (an id, or a publisher's text)."""
        listed = self.classes.get(licence.strip().strip("()").casefold())
        if listed is not None:
            return listed
        return NON_COMMERCIAL if _NON_COMMERCIAL_TEXT.search(licence) else UNLISTED

    def accepts(self, licence: str) -> bool:
        return any(
            all(self.class_of(part) in self.accepted for part in _AND.split(alternative))
            for alternative in _OR.split(licence.strip())
        )


def load_licence_policy(text: str | None = None) -> LicencePolicy:
    text = text or resources.files("chalicelib.reference.data").joinpath("licences.json").read_text("utf-8")
    raw = json.loads(text)
    classes = {spdx.casefold(): name for name, ids in raw["classes"].items() for spdx in ids}
    return LicencePolicy(classes=classes, accepted=frozenset(raw["accept"]), text=text)
