"""Korean in Latin letters: the Revised Romanization of Korean (Ministry of Culture, Sports and
Tourism notice 2014-42), as the road-name address system writes its English forms.

No maintained library fits: korean-romanizer is GPL-3.0, hangul-romanize transliterates letter by
letter (the academic system, 종로 → jonglo, not the Revised Romanization's Jongno). The rules are
few and published, so they are here: each syllable's letters in the notice's tables, with the
sound changes the notice writes at syllable boundaries (liaison 강원 → Gangwon, nasalization
백마 → Baengma, ㄹ after ㄴ → ll, ㄹ after a nasal → n, palatalization 굳이 → guji). Aspiration
after ㄱ, ㄷ, ㅂ is kept apart in nouns, as the notice asks (묵호 → Mukho); tensing is never
written.

The address forms (Ministry of the Interior and Safety's English road-name addresses): a name's
generic word is split off by a hyphen and romanized on its own, with no sound change across the
hyphen (종로 → Jong-ro); a numbered branch road keeps its number (광교중앙로49번길 →
Gwanggyojungang-ro 49beon-gil); administrative units likewise (수원시 → Suwon-si, 영통구 →
Yeongtong-gu)."""

from __future__ import annotations

import re

_INITIALS = (
    "g",
    "kk",
    "n",
    "d",
    "tt",
    "r",
    "m",
    "b",
    "pp",
    "s",
    "ss",
    "",
    "j",
    "jj",
    "ch",
    "k",
    "t",
    "p",
    "h",
)
_VOWELS = (
    *("a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae"),
    *("oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"),
)
# Final letters before a consonant or at the end (the notice's 7 final sounds).
_FINALS = (
    *("", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l"),
    *("p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"),
)
# A final carried over to a following vowel: (what stays, what moves), e.g. ㄺ → l + g.
_LIAISON = (
    *(("", ""), ("", "g"), ("", "kk"), ("k", "s"), ("", "n"), ("n", "j"), ("", "n"), ("", "d")),
    *(("", "r"), ("l", "g"), ("l", "m"), ("l", "b"), ("l", "s"), ("l", "t"), ("l", "p"), ("", "r")),
    *(("", "m"), ("", "b"), ("p", "s"), ("", "s"), ("", "ss"), ("ng", ""), ("", "j"), ("", "ch")),
    *(("", "k"), ("", "t"), ("", "p"), ("", "")),
)
_K, _T, _P = {1, 2, 3, 9, 24}, {7, 19, 20, 22, 23, 25, 27}, {17, 18, 26, 14}  # final classes
_N_INITIAL, _R_INITIAL, _M_INITIAL, _SILENT = 2, 5, 6, 11
_N_FINAL, _L_FINAL, _M_FINAL, _NG_FINAL = 4, 8, 16, 21
_I_VOWEL = 20
_H_FINALS = {27: "", 6: "n", 15: "l"}  # ㅎ, ㄶ, ㅀ: the ㅎ aspirates a following ㄱ, ㄷ, ㅈ
_ASPIRATED = {0: "k", 3: "t", 12: "ch"}

_SYLLABLES = re.compile("[\uac00-\ud7a3]+")

# Generic words, longest first: the hyphenated ending of a road or an administrative unit.
_GENERICS = (
    *("특별자치시", "특별자치도", "특별시", "광역시", "대로", "로", "길"),
    *("도", "시", "군", "구", "읍", "면", "동", "리", "가"),
)
_BRANCH = re.compile(r"^(?P<road>.+?(?:대로|로|길))(?P<number>\d+)(?P<beon>번)?길$")


def romanize(text: str) -> str:
    """A road or place name in its English form: name and generic word apart, the branch number
    kept (중부대로239번길 → Jungbu-daero 239beon-gil)."""
    branch = _BRANCH.match(text.strip())
    if branch:
        gil = "beon-gil" if branch["beon"] else "-gil"
        return f"{_name(branch['road'])} {branch['number']}{gil}"
    return " ".join(_name(word) for word in text.split())


def syllable_by_syllable(text: str) -> str:
    """Hangul in the Revised Romanization with no sound change between syllables, as the notice
    writes personal names (art. 3-4: 복남 → Boknam, not Bongnam); other characters kept."""
    out = []
    for ch in text:
        if not _SYLLABLES.fullmatch(ch):
            out.append(ch)
            continue
        letters, final = divmod(ord(ch) - 0xAC00, 28)
        out.append(_INITIALS[letters // 21] + _VOWELS[letters % 21] + _FINALS[final])
    return "".join(out)


def _name(word: str) -> str:
    generic = next((g for g in _GENERICS if word.endswith(g) and len(word) > len(g)), None)
    if generic is None or not _SYLLABLES.fullmatch(word[: -len(generic)]):
        return _capitalized(_SYLLABLES.sub(lambda m: _syllables(m.group()), word))
    return f"{_capitalized(_syllables(word[: -len(generic)]))}-{_syllables(generic)}"


def _syllables(text: str) -> str:
    """One run of Hangul syllables in the Revised Romanization, sound changes applied."""
    letters = [divmod(ord(ch) - 0xAC00, 28) for ch in text]
    jamo = [(lv // 21, lv % 21, final) for lv, final in letters]
    out = []
    for i, (initial, vowel, final) in enumerate(jamo):
        onset = _INITIALS[initial]
        if i:
            onset = _onset(jamo[i - 1][2], initial, vowel)
        coda = _coda(final, jamo[i + 1] if i + 1 < len(jamo) else None)
        out.append(onset + _VOWELS[vowel] + coda)
    return "".join(out)


def _coda(final: int, following: tuple[int, int, int] | None) -> str:
    if following is None or not final:
        return _FINALS[final]
    initial = following[0]
    if final in _H_FINALS and initial in _ASPIRATED:
        return _H_FINALS[final]  # 좋고 → joko
    if initial == _SILENT:
        return _LIAISON[final][0]
    if initial in (_N_INITIAL, _M_INITIAL) or initial == _R_INITIAL:
        if final in _K:
            return "ng"
        if final in _T:
            return "n"
        if final in _P:
            return "m"
        if final == _N_FINAL and initial == _R_INITIAL:
            return "l"  # 신라 → Silla
    return _FINALS[final]


def _onset(final: int, initial: int, vowel: int) -> str:
    if final in _H_FINALS and initial in _ASPIRATED:
        return _ASPIRATED[initial]
    if initial == _SILENT:
        moved = _LIAISON[final][1]
        if vowel == _I_VOWEL and moved in ("d", "t"):
            return "j" if moved == "d" else "ch"  # 굳이 → guji, 같이 → gachi
        return moved
    if initial == _R_INITIAL:
        if final in (_L_FINAL, _N_FINAL) or final in (9, 11, 12, 13, 15):
            return "l"  # 신라 → Silla, 물레 → mulle
        if final:
            return "n"  # 종로 → Jongno, 독립 → dongnip
    if initial == _N_INITIAL and final in (_L_FINAL, 11, 12, 13, 15):
        return "l"  # 설날 → Seollal
    return _INITIALS[initial]


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]
