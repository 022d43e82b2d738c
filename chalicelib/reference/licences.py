"""The licence policy (data/licences.json): which licence class a row's licence belongs to, and
whether the pool accepts it. A row's licence is its own SPDX id where it names one (Overture's),
else its manifest entry's; text that is no listed id (a publisher's own terms) is `unlisted`,
unless it says the data is non-commercial. A licence may be an SPDX expression (`CC-BY-4.0 AND
ODbL-1.0`, a record built from two datasets; parentheses, `WITH`): every part of an `AND` must be
accepted, one alternative of an `OR`."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

UNLISTED = "unlisted"
NON_COMMERCIAL = "non-commercial"
# A publisher's own words for non-commercial terms ("Attribution-NonCommercial", "CC BY-NC-SA 3.0",
# "for non-commercial use only"), but not "free for commercial and non-commercial use".
# The classes from the least a user must do to the most: public domain, attribution, share-alike,
# non-commercial use only, and a publisher's own (unlisted) terms, which nobody has classed.
RANKS = ("public-domain", "attribution", "share-alike", NON_COMMERCIAL, UNLISTED)
_NON_COMMERCIAL_TEXT = re.compile(
    r"\bcc[- ]by[- ]nc\b|\bby-nc\b|attribution[- ]non[- ]?commercial"
    r"|non[- ]?commercial (?:use |purposes? )?only|not for commercial",
    re.IGNORECASE,
)
_ALSO_COMMERCIAL = re.compile(r"commercial and non[- ]?commercial", re.IGNORECASE)
_TOKENS = re.compile(r"\(|\)|[^\s()]+")
_ID = re.compile(r"^[A-Za-z0-9.+:-]+$")
_OPERATORS = {"AND", "OR", "WITH", "and", "or", "with"}

# An SPDX licence expression: ("AND" | "OR", parts) or a licence id.
Expression = tuple[str, list["Expression"]] | str


@dataclass(frozen=True)
class LicencePolicy:
    classes: dict[str, str] = field(default_factory=dict)  # SPDX id (case-folded) → class
    accepted: frozenset[str] = frozenset({UNLISTED})
    text: str = ""  # as read, for the sync's fingerprint

    def class_of(self, licence: str) -> str:
        """The class of one licence (an id, or a publisher's text)."""
        listed = self.classes.get(licence.strip().casefold())
        if listed is not None:
            return listed
        if _NON_COMMERCIAL_TEXT.search(licence) and not _ALSO_COMMERCIAL.search(licence):
            return NON_COMMERCIAL
        return UNLISTED

    def strictest_class(self, licence: str) -> str:
        """What a user of the data must do, as one class: an AND's strictest part, an OR's
        easiest alternative (RANKS' order; unlisted terms are the strictest, being unknown)."""
        expression = parse_expression(licence)
        return self._strictest(expression if expression is not None else licence)

    def _strictest(self, expression: Expression) -> str:
        if isinstance(expression, str):
            return self.class_of(expression)
        operator, parts = expression
        classes = [self._strictest(part) for part in parts]
        pick = max if operator == "AND" else min
        return pick(classes, key=RANKS.index)

    def accepts(self, licence: str) -> bool:
        """An SPDX expression part by part (every part of an AND, one alternative of an OR; an
        exception's WITH leaves its licence's class); any other text as one licence."""
        expression = parse_expression(licence)
        return self._accepts(expression if expression is not None else licence)

    def _accepts(self, expression: Expression) -> bool:
        if isinstance(expression, str):
            return self.class_of(expression) in self.accepted
        operator, parts = expression
        judged = (self._accepts(part) for part in parts)
        return all(judged) if operator == "AND" else any(judged)


def parse_expression(text: str) -> Expression | None:
    """An SPDX licence expression, or None where the text is not one (a publisher's own words)."""
    tokens = _TOKENS.findall(text)
    if not tokens or any(t not in "()" and t not in _OPERATORS and not _ID.match(t) for t in tokens):
        return None
    try:
        expression, rest = _either(tokens)
    except (IndexError, ValueError):
        return None
    return expression if not rest else None


def _either(tokens: list[str]) -> tuple[Expression, list[str]]:
    return _joined(tokens, "OR", _all)


def _all(tokens: list[str]) -> tuple[Expression, list[str]]:
    return _joined(tokens, "AND", _one)


def _joined(tokens: list[str], operator: str, part: Any) -> tuple[Expression, list[str]]:
    first, rest = part(tokens)
    parts = [first]
    while rest and rest[0].upper() == operator:
        following, rest = part(rest[1:])
        parts.append(following)
    return (first, rest) if len(parts) == 1 else ((operator, parts), rest)


def _one(tokens: list[str]) -> tuple[Expression, list[str]]:
    head, rest = tokens[0], tokens[1:]
    if head == "(":
        inner, rest = _either(rest)
        if rest[:1] != [")"]:
            raise ValueError("unclosed parenthesis")
        return inner, rest[1:]
    if head in _OPERATORS or head == ")":
        raise ValueError(f"unexpected {head}")
    if rest and rest[0].upper() == "WITH":  # an exception leaves the licence's class as it is
        if len(rest) < 2 or not _ID.match(rest[1]) or rest[1] in _OPERATORS:
            raise ValueError("WITH names no exception")
        rest = rest[2:]
    return head, rest


def load_licence_policy(text: str | None = None) -> LicencePolicy:
    text = text or resources.files("chalicelib.reference.data").joinpath("licences.json").read_text("utf-8")
    raw = json.loads(text)
    classes = {spdx.casefold(): name for name, ids in raw["classes"].items() for spdx in ids}
    return LicencePolicy(classes=classes, accepted=frozenset(raw["accept"]), text=text)


def licence_ids(licence: str) -> list[str]:
    """The SPDX licence ids an expression names (its exceptions left out); none for other text."""
    expression = parse_expression(licence)
    found: list[str] = []

    def walk(part: Expression) -> None:
        if isinstance(part, str):
            found.append(part)
        else:
            for inner in part[1]:
                walk(inner)

    if expression is not None:
        walk(expression)
    return found
