"""Fictitious test profiles: a name and gender fitting the country's locale (Faker), an adult date
of birth, an e-mail at a reserved domain, and a phone number that can never reach a person."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import TYPE_CHECKING, Literal

from chalicelib.reference.countries import facts

if TYPE_CHECKING:
    from faker import Faker

EMAIL_DOMAINS = ("example.com", "example.net", "example.org")  # reserved by RFC 2606
# Every date in this range is an adult's birthday from 2024 on, and it does not move with "today",
# so a seed reproduces the same profile on any day.
BORN_FROM, BORN_TO = date(1940, 1, 1), date(2005, 12, 31)
# NANP: 555-0100 to 555-0199 in any area code are reserved for fictional use.
_US_AREA_CODES = (201, 206, 212, 213, 303, 312, 404, 415, 503, 512, 602, 617, 702, 808, 907)


Gender = Literal["female", "male"]


@dataclass(frozen=True)
class Phone:
    number: str
    dialable: bool
    note: str


@dataclass(frozen=True)
class TestProfile:
    given_name: str
    family_name: str
    full_name: str
    gender: Gender
    date_of_birth: date
    email: str
    phone: Phone


@cache
def _faker(locale: str) -> Faker:
    from faker import Faker  # lazy: only generation pays for Faker's import

    return Faker(locale)


def make_profile(country: str, seed: int) -> TestProfile:
    rng = random.Random(seed)  # noqa: S311 - fictitious data, not secrets
    gender: Gender = rng.choice(("female", "male"))
    fake = _faker(facts(country).faker_locale)
    fake.seed_instance(seed)
    given = fake.first_name_female() if gender == "female" else fake.first_name_male()
    family = _family_name(fake, gender)
    full = f"{family}{given}" if facts(country).family_name_first else f"{given} {family}"
    born = BORN_FROM + timedelta(days=rng.randrange((BORN_TO - BORN_FROM).days + 1))
    return TestProfile(
        given, family, full, gender, born, _email(given, family, rng), phone_number(country, rng)
    )


def _family_name(fake: Faker, gender: str) -> str:
    gendered = getattr(fake, f"last_name_{gender}", None)  # Polish and Russian surnames agree with gender
    return str(gendered() if callable(gendered) else fake.last_name())


def _email(given: str, family: str, rng: random.Random) -> str:
    local = ".".join(part for part in (_ascii(given), _ascii(family)) if part)
    local = f"{local}{rng.randrange(10, 100)}" if local else f"tester{rng.randrange(1000, 10000)}"
    return f"{local}@{rng.choice(EMAIL_DOMAINS)}"


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in folded.lower() if ch.isalnum())


def phone_number(country: str, rng: random.Random) -> Phone:
    if country == "US":
        return Phone(
            f"+1 {rng.choice(_US_AREA_CODES)} 555-01{rng.randrange(100):02d}",
            True,
            "NANP 555-0100 to 555-0199: reserved for fictional use",
        )
    if country == "GB":
        return Phone(
            f"+44 7700 900{rng.randrange(1000):03d}", True, "Ofcom drama range 07700 900000 to 900999"
        )
    code = facts(country).calling_code
    return Phone(
        f"+{code} 00 {rng.randrange(1000):03d} {rng.randrange(10000):04d}",
        False,
        f"no range is reserved for fiction in {country}; not dialable by construction "
        "(no national number begins with 00)",
    )
