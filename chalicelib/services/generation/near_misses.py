"""Building near-miss variants (domain/near_misses.py) from drawn bases and donors: the changed
components, their one-line form, and what a form with the country's rules says of them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from chalicelib.domain.addresses import Completeness, Components, PublishedAddress
from chalicelib.domain.near_misses import (
    CHANGED,
    REMOVING,
    Variant,
    VariantKind,
    donor_for,
    match_level,
    removed,
    swapped,
    variant_id,
)
from chalicelib.reference.formatting import format_address
from chalicelib.reference.postal_forms import assess

_NAMED = {"house_number": "number"}  # how names in other languages key a component

# Donors drawn per request: a batch's 50 bases each find one whose value differs among them
# unless nearly every address of the country shares it (one city), when a variant cannot be made.
DONORS = 64


def make_variants(
    bases: Sequence[PublishedAddress], kind: VariantKind, donors: Sequence[PublishedAddress]
) -> list[tuple[PublishedAddress, Variant]]:
    """Each base's variant; a base for which no donor's value differs makes none. Base i starts
    its search at donor i, so a batch's variants take different donors where they can."""
    made = []
    for i, base in enumerate(bases):
        if kind in REMOVING:
            made.append(_built(base, kind, removed(base, kind), None))
            continue
        donor = donor_for(
            base, kind, [*donors[i % len(donors) :], *donors[: i % len(donors)]] if donors else []
        )
        if donor is not None:
            made.append(_built(base, kind, swapped(base, kind, donor), donor))
    return made


def _built(
    base: PublishedAddress, kind: VariantKind, components: Components, donor: PublishedAddress | None
) -> tuple[PublishedAddress, Variant]:
    name = CHANGED[kind]
    # What the country's conventions say of the new components, then what the domain names it.
    verdict, formatted = assess(base.country, components), format_address(base.country, components)
    address = dataclasses.replace(
        base,
        id=variant_id(base, kind, donor),
        match_level=match_level(base, kind),
        components=components,
        formatted=formatted,
        # The base's other-language names and readings of the changed component are not the new value's.
        names={
            lang: {k: v for k, v in n.items() if k != _NAMED.get(name, name)}
            for lang, n in base.names.items()
        },
        readings={k: v for k, v in base.readings.items() if not k.startswith(name)},
        derived=tuple(d for d in base.derived if d != name),
        completeness=Completeness(complete=False, missing=verdict.missing, invalid=verdict.invalid),
    )
    return address, Variant(kind, (name,), base.id, donor.id if donor else None)
