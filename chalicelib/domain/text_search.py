"""What free text `q` means, and the posting lists an index of it is made of.

Matching (the contract's "text that must occur in the selected address components"), on the
text of every component, the one-line form and the names in other languages, after search_key
(full-width = half-width, case folded, accents stripped: `Asvellir` finds `Ásvellir`):
- text in alphabetic scripts and digits is compared by whole words: every word of `q` must be a
  word of the address (`minna st` finds `MINNA ST`, `Minna St`; `strasse` does not find
  `Hauptstrasse`);
- text in Han, kana and Hangul, written without spaces, is compared as a substring: every run of
  `q` that holds such characters, with the digits and letters written in it, must occur whole in
  the address's text (`千駄木5丁目` finds `千駄木５丁目`, `光路` finds `莒光路144巷`; `松江北2丁目`
  does not find `松江北6丁目2番`), and a digit or letter at its edge is not part of a longer
  number or word there (`5丁目` does not find `15丁目`).

The index holds, per token, the ordinals of the addresses that contain it: the words, and the
characters and character pairs of CJK runs. A query's tokens are a subset of every matching
address's tokens, so the ordinals of its rarest token hold every match; a candidate drawn from
them is read and kept when `matches` says so, which keeps a draw exactly uniform over the
matches."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import search_key

_CJK = (
    "\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7a3\u1100-\u11ff"
    "\u3130-\u318f\U00020000-\U000323af"
)  # kana, Han (with 々〆〇 and the extensions) and Hangul
_LONGEST = 100  # characters of a token kept: a sort key has at most 1,024 bytes
_PIECE = rf"[{_CJK}]+|[^\W{_CJK}_]+"
_CJK_RUN = rf"[{_CJK}]+"
# What q's spaces and punctuation separate: a word, or a run holding CJK (with its digits and letters).
_CHUNK = rf"(?:[{_CJK}]|[^\W_])+"
_ALNUM = rf"[^\W{_CJK}_]"  # a digit or letter of an alphabetic script


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """At first use: the classes take ~7 ms to compile, which a request without `q` need not pay."""
    return re.compile(pattern)


def _pieces(text: str) -> list[str]:
    """The CJK runs and the alphabetic words of a search key."""
    return _compiled(_PIECE).findall(text)


def _is_run(piece: str) -> bool:
    return _compiled(_CJK_RUN).fullmatch(piece) is not None


def _holds_run(chunk: str) -> bool:
    return _compiled(_CJK_RUN).search(chunk) is not None


# A mark: a token the index holds for a fact about the address rather than its text (its licence's
# class: `~licence:attribution`). Text tokens are word characters only, so no text makes one.
MARK = "~"
# The marks a snapshot's index holds: 1, its licences' classes and SPDX ids (services/marks.py);
# 2, its traits; 3, its property type; 4, which components it has of those a variant changes; 5,
# its geohash cells; 6, its street's and street line's lengths; 7, traits judged on the lines a
# form holds (street, number, unit, city), not a region or district the sync named. An
# epoch whose index holds others is not appended to (its earlier generations' addresses lack
# them). Bump it too when a licence's class
# (reference/data/licences.json), a trait's rule (traits.py) or a property type's rule
# (premises.py) changes: kept rows keep the postings they were indexed with.
MARKS_VERSION = 7


@dataclass(frozen=True)
class Query:
    words: frozenset[str]
    runs: tuple[str, ...]  # runs holding CJK, digits and letters included, matched as substrings
    marks: frozenset[str] = frozenset()  # every one required, matched exactly
    # Groups of marks of which each match holds one at least (a long street: one of the lengths
    # from the country's threshold up). Not in `tokens`: a draw reads them as a union.
    any_of: tuple[frozenset[str], ...] = ()

    @property
    def tokens(self) -> frozenset[str]:
        """What the index is asked for: the words, in each run its words and the pairs of its
        CJK characters (the character when alone), and the marks: every match holds them all."""
        return frozenset(
            {_indexed(w) for w in self.words}
            | {t for run in self.runs for t in _run_tokens(run)}
            | self.marks
        )

    def marked(self, marks: Iterable[str], any_of: Iterable[frozenset[str]] = ()) -> Query:
        return Query(self.words, self.runs, self.marks | frozenset(marks), (*self.any_of, *any_of))


def parse(q: str) -> Query:
    chunks = _compiled(_CHUNK).findall(search_key(q))
    runs = tuple(c for c in chunks if _holds_run(c))
    return Query(frozenset(c for c in chunks if not _holds_run(c)), runs)


def tokens(text: str) -> set[str]:
    """Every token of a text: its words, and the characters and pairs of its CJK runs."""
    found: set[str] = set()
    for piece in _pieces(search_key(text)):
        found |= set(piece) | set(_pairs(piece)) if _is_run(piece) else {_indexed(piece)}
    return found


def matches(query: Query, text: str, marks: Iterable[str] = ()) -> bool:
    """Whether an address of this text and these marks is a match."""
    held = set(marks)
    if not query.marks <= held or not all(group & held for group in query.any_of):
        return False
    key = search_key(text)
    words = {p for p in _pieces(key) if not _is_run(p)}
    return query.words <= words and all(_run_pattern(run).search(key) for run in query.runs)


@cache
def _run_pattern(run: str) -> re.Pattern[str]:
    """The run as a substring whose edge digit or letter does not continue in the text."""
    before = f"(?<!{_ALNUM})" if re.match(_ALNUM, run) else ""
    after = f"(?!{_ALNUM})" if re.search(f"{_ALNUM}$", run) else ""
    return re.compile(before + re.escape(run) + after)


def _run_tokens(run: str) -> list[str]:
    return [t for p in _pieces(run) for t in (_pairs(p) if _is_run(p) else [_indexed(p)])]


def searchable(address: PublishedAddress) -> str:
    """The text q is matched against: every component, the one-line form, and names in other languages."""
    texts = [*address.components.values(), address.formatted]
    texts += [name for names in address.names.values() for name in names.values()]
    return " ".join(t for t in texts if t)


def postings(
    addresses: Iterable[tuple[int, PublishedAddress]],
    marks_of: Callable[[PublishedAddress], Iterable[str]] = lambda _: (),
) -> dict[str, list[int]]:
    """Every token's ordinals, its text's and its marks', ascending when the addresses come in
    ordinal order."""
    found: dict[str, list[int]] = {}
    for ordinal, address in addresses:
        for token in tokens(searchable(address)) | set(marks_of(address)):
            found.setdefault(token, []).append(ordinal)
    return found


def _pairs(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def _indexed(word: str) -> str:
    """A word as the index keys it: its first _LONGEST characters (both sides alike; `matches`
    checks the whole word)."""
    return word[:_LONGEST]


def is_searchable(q: str) -> bool:
    """Whether `q` has any token at all (punctuation alone has none)."""
    return bool(parse(q).tokens)


# --- posting lists ---------------------------------------------------------------------------


def encode(ordinals: Sequence[int]) -> bytes:
    """Ascending ordinals as varint deltas: a street's few hundred addresses in a few hundred bytes."""
    out = bytearray()
    previous = 0
    for ordinal in ordinals:
        delta = ordinal - previous
        previous = ordinal
        while delta >= 0x80:
            out.append(delta & 0x7F | 0x80)
            delta >>= 7
        out.append(delta)
    return bytes(out)


def decode(data: bytes) -> list[int]:
    ordinals: list[int] = []
    value = shift = previous = 0
    for byte in data:
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            previous += value
            ordinals.append(previous)
            value = shift = 0
    return ordinals


# A token's postings are stored with it while they are few (one read finds them all), otherwise in
# chunks whose first and last ordinals and counts the token's head lists: a draw reads the head,
# the chunks a selection's range boundaries cut, and the chunk that holds the drawn posting.
INLINE_POSTINGS = 2_000
CHUNK_POSTINGS = 4_000
# A head lists at most this many chunks (some 30 bytes each, under DynamoDB's 400 KB item): a token
# in every address of a country of 100 million has chunks of 20,000 postings instead.
MAX_CHUNKS = 5_000


@dataclass(frozen=True)
class Chunk:
    first: int
    last: int
    count: int
    key: str = ""  # where the store keeps it
    postings: tuple[int, ...] = ()  # already known (a generation's postings kept in its head)


@dataclass(frozen=True)
class TokenHead:
    count: int
    inline: tuple[int, ...] = ()  # every posting, when count <= INLINE_POSTINGS
    chunks: tuple[Chunk, ...] = ()


def split(ordinals: Sequence[int], max_chunks: int = MAX_CHUNKS) -> tuple[TokenHead, list[list[int]]]:
    """A token's head, and its chunks when it has too many postings to keep them in the head."""
    if len(ordinals) <= INLINE_POSTINGS:
        return TokenHead(len(ordinals), inline=tuple(ordinals)), []
    size = max(CHUNK_POSTINGS, -(-len(ordinals) // max_chunks))
    chunks = [list(ordinals[i : i + size]) for i in range(0, len(ordinals), size)]
    listed = tuple(Chunk(c[0], c[-1], len(c)) for c in chunks)
    return TokenHead(len(ordinals), chunks=listed), chunks
