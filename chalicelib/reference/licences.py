"""The licence policy (data/licences.json): which licence class a row's licence belongs to, and
whether the pool accepts it. A row's licence is its own SPDX id where it names one (Overture's),
else its manifest entry's; text that is no listed id (a publisher's own terms) is `unlisted`."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

UNLISTED = "unlisted"


@dataclass(frozen=True)
class LicencePolicy:
    classes: dict[str, str] = field(default_factory=dict)  # SPDX id (case-folded) → class
    accepted: frozenset[str] = frozenset({UNLISTED})
    text: str = ""  # as read, for the sync's fingerprint

    def class_of(self, licence: str) -> str:
        return self.classes.get(licence.strip().casefold(), UNLISTED)

    def accepts(self, licence: str) -> bool:
        return self.class_of(licence) in self.accepted


def load_licence_policy(text: str | None = None) -> LicencePolicy:
    text = text or resources.files("chalicelib.reference.data").joinpath("licences.json").read_text("utf-8")
    raw = json.loads(text)
    classes = {spdx.casefold(): name for name, ids in raw["classes"].items() for spdx in ids}
    return LicencePolicy(classes=classes, accepted=frozenset(raw["accept"]), text=text)
