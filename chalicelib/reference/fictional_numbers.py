"""A test profile's phone: a number from the blocks reserved for fiction (phones.py) that belong
to the address's area and keep its clock, else a nationwide one; where no regulator reserves any,
a number no network can dial."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from chalicelib.reference.countries import facts
from chalicelib.reference.phones import RULES, Block, PhoneKind, area_keys, blocks
from chalicelib.reference.time_zones import same_clock

if TYPE_CHECKING:
    from chalicelib.domain.addresses import Components


@dataclass(frozen=True)
class Phone:
    number: str  # libphonenumber's international format
    national: str | None  # as dialled within the country; None for an unassigned number
    e164: str
    kind: PhoneKind | Literal["unassigned"]
    area: str | None  # the area the number belongs to; None: the whole country
    dialable: bool
    note: str


def fictional_phone(country: str, parts: Components, time_zone: str, rng: random.Random) -> Phone:
    """A number from the blocks of the address's own area where one exists (a mobile instead, half
    the time, where the regulator reserves mobiles too), else from the country's nationwide ones.
    Where the area's blocks say their time zones (NANP's area codes), those keeping the address's
    clock (`time_zone`) are preferred: an El Paso address gets Texas's 915 (Mountain time), not 512."""
    options = blocks(country)
    if not options:
        return _unassigned(country, rng)
    keys = area_keys(parts.city, parts.region_code, parts.postcode)
    local = _in_its_time_zone(time_zone, [b for b in options if b.serves & keys])
    nationwide = [b for b in options if not b.serves]
    kinds = sorted({b.kind for b in local} | {b.kind for b in nationwide if b.kind == "mobile"})
    if kinds:
        kind = rng.choice(kinds)
        pool = [b for b in (*local, *nationwide) if b.kind == kind]
    else:
        pool = nationwide or list(options)  # no state, or an overseas département: any block
    block = rng.choices(pool, weights=[b.size for b in pool])[0]
    phone = _filled(block, rng.randrange(block.size), country)
    return phone if block in local or not block.serves else replace(phone, area=None)  # not its own


def _in_its_time_zone(zone: str, local: list[Block]) -> list[Block]:
    """The blocks whose time zones keep the address's clock; all of them where none does, or none
    says."""
    if not any(b.zones for b in local):
        return local
    return [b for b in local if any(same_clock(zone, z) for z in b.zones)] or local


def _filled(block: Block, drawn: int, country: str) -> Phone:
    digits = f"{drawn:0{block.international.count('#')}d}" if block.size > 1 else ""
    international, national = block.filled(digits)
    rule = RULES[country]
    return Phone(
        number=international,
        national=national,
        e164="+" + "".join(ch for ch in international if ch.isdigit()),
        kind=block.kind,
        area=block.area,
        dialable=True,
        note=f"reserved for fiction by {rule.regulator}: {rule.document}",
    )


def _unassigned(country: str, rng: random.Random) -> Phone:
    """Where no regulator reserves numbers for fiction: a number after the country code that no
    national number begins with (00), so no network routes it. Forms that validate reject it."""
    code = facts(country).calling_code
    local = f"{rng.randrange(1000):03d} {rng.randrange(10000):04d}"
    return Phone(
        number=f"+{code} 00 {local}",
        national=None,  # within the country, 00 starts an international call: no national form
        e164=f"+{code}00{local.replace(' ', '')}",
        kind="unassigned",
        area=None,
        dialable=False,
        note=f"no range is reserved for fiction in {country}: not dialable by construction "
        "(no national number begins with 00); phone validators reject it",
    )
