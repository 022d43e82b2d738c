"""Building blocks shared by every endpoint's models."""

from __future__ import annotations

import ast
import inspect
import itertools
import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)
from pydantic.alias_generators import to_camel
from pydantic.json_schema import SkipJsonSchema

from chalicelib.domain.partitions import MAX_PARTS
from chalicelib.domain.reserved_names import RESERVED_EMAIL_DOMAINS, RESERVED_TLDS


@cache
def field_docstrings(module: str) -> dict[str, dict[str, str]]:
    """Class → field → the string literal under the field's annotation, read from the module's
    source once: pydantic's own `use_attribute_docstrings` reads the source class by class (some
    50 ms of every cold start)."""
    path = getattr(sys.modules.get(module), "__file__", None)
    if not path or not path.endswith(".py"):
        return {}
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    found: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            found[node.name] = _documented_fields(node.body)
    return found


def _documented_fields(body: list[ast.stmt]) -> dict[str, str]:
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


MAX_VALUE_LENGTH = 300  # region, city, district, postcode, q, seed
MAX_ID_LENGTH = 160  # regionId, cityId, districtId, postcodeId, requestId, address ids
MAX_IP_LENGTH = 64
MAX_CURSOR_LENGTH = 1024
MIN_PAGE, MAX_PAGE, DEFAULT_PAGE = 20, 200, 100


def _integral(value: object) -> object:
    """1.0 is the integer 1 in JSON Schema (and JSON has one number type); 1.5 and "1" stay refused."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# An integer in a JSON body, where 3.0 counts as 3, as JSON Schema says it does.
WholeNumber = Annotated[int, BeforeValidator(_integral)]


CountryCode = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z]{2}$"),
    AfterValidator(str.upper),
    Field(description="ISO 3166-1 alpha-2 country code (case-insensitive)", examples=["US"]),
]
Value = Annotated[str, StringConstraints(min_length=1, max_length=MAX_VALUE_LENGTH)]
_LICENCE = r"[A-Za-z0-9][A-Za-z0-9.+-]{0,63}"  # a class (`attribution`) or an SPDX licence id
LicenceFilter = Annotated[str, StringConstraints(pattern=rf"^{_LICENCE}(,{_LICENCE}){{0,3}}$")]
# services/marks.py's ALL_TRAITS
_TRAIT = "(unit|no-number|diacritics|non-latin|multi-script|long-street|long-line)"
TraitFilter = Annotated[str, StringConstraints(pattern=rf"^{_TRAIT}(,{_TRAIT}){{0,6}}$")]
_DEGREES = r"-?\d{1,3}(\.\d{1,17})?"  # as many decimals as a float prints
# `near=<lat>,<lon>` and `bbox=<west>,<south>,<east>,<north>`: decimal degrees (ranges checked by the route).
PointText = Annotated[str, StringConstraints(pattern=rf"^{_DEGREES},{_DEGREES}$")]
BoxText = Annotated[str, StringConstraints(pattern=rf"^{_DEGREES}(,{_DEGREES}){{3}}$")]
Id = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID_LENGTH)]


def _a_part(text: str) -> str:
    index, count = (int(v) for v in text.split("/"))
    if not index < count <= MAX_PARTS:
        raise ValueError(f"i/n with 0 <= i < n <= {MAX_PARTS}")
    return text


_CONFUSED = str.maketrans({"0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "-": "", ".": ""})


def _owned_domain(name: str) -> str:
    """A domain the caller owns: not a look-alike of a reserved one (examp1e.com, example.co,
    example.com.au, exámple.com can all be registered by anyone, and mail there reaches them)."""
    name = name.lower()
    labels = name.split(".")
    if ".".join(labels[-2:]) in RESERVED_EMAIL_DOMAINS or labels[-1] in RESERVED_TLDS:
        return name
    try:
        shown = name.encode().decode("idna")  # xn-- labels as the reader sees them
    except UnicodeError as exc:
        raise ValueError("not a valid internationalized domain name") from exc
    skeleton = unicodedata.normalize("NFKD", shown).encode("ascii", "ignore").decode().translate(_CONFUSED)
    if "example" in skeleton.replace("rn", "m").replace("vv", "w"):
        raise ValueError(
            "looks like a reserved documentation domain without being one; give a domain you own, "
            "or leave it out for example.com, example.net and example.org"
        )
    return name


_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
# `emailDomain=`: a host name of two labels or more, its last alphabetic (or an IDN's xn-- form).
EmailDomain = Annotated[
    str,
    StringConstraints(
        max_length=253, pattern=rf"^(?:{_LABEL}\.)+(?:[A-Za-z]{{2,63}}|xn--[A-Za-z0-9-]{{1,59}})$"
    ),
    AfterValidator(_owned_domain),
]

# `partition=i/n`: part i (from 0) of n disjoint parts of the pool (domain/partitions.py).
PartitionText = Annotated[str, StringConstraints(pattern=r"^\d{1,4}/\d{1,4}$"), AfterValidator(_a_part)]
IpText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_IP_LENGTH),
    # Each branch typed: generated clients make `Any` of format-only branches.
    WithJsonSchema(
        {
            "type": "string",
            "anyOf": [{"type": "string", "format": "ipv4"}, {"type": "string", "format": "ipv6"}],
            "maxLength": MAX_IP_LENGTH,
            "description": "An IPv4 or IPv6 address",
            "examples": ["81.2.69.142"],
        }
    ),
]
# A cursor is what a previous page returned (signed: any other value is refused with 400).
Cursor = Annotated[
    str,
    StringConstraints(
        min_length=3, max_length=MAX_CURSOR_LENGTH, pattern=r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$"
    ),
    Field(description="nextCursor of the previous page, unchanged (signed; anything else is 400)"),
]
PageSize = Annotated[int, Field(ge=MIN_PAGE, le=MAX_PAGE, description="Page size, 20 to 200")]
SnapshotId = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9a-f]{16}$"),
    Field(
        description="Pins the answer to this snapshot (a `snapshotId` of an earlier answer): the same "
        "seed and filters give the same addresses while it is kept, 30 days after a sync replaces it "
        "by default; then 410 SNAPSHOT_EXPIRED. Without it, the country's current snapshot",
        examples=["5d1c0f2a9e8b7364"],
    ),
]
Strategy = Literal["random", "instant"]
LocationType = Literal["region", "city", "district", "postcode"]


class ApiModel(BaseModel):
    """camelCase on the wire, snake_case in Python; unknown properties are refused. A response
    writes every field (null where there is no value), so its schema requires them all. A field's
    docstring is its description in the documents. Validators and serializers are built at a
    model's first use (defer_build): a route never builds the models of the others."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="forbid",
        frozen=True,
        json_schema_serialization_defaults_required=True,
        defer_build=True,
    )

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        for name, doc in field_docstrings(cls.__module__).get(cls.__qualname__, {}).items():
            field = cls.model_fields.get(name)
            if field is not None and field.description is None:
                field.description = doc


class QueryModel(ApiModel):
    """Query parameters arrive as text: lax parsing turns 'true' and '50' into their types."""


class BodyModel(ApiModel):
    """JSON bodies are parsed strictly: a string is not a number, 1 is not true."""

    model_config = ConfigDict(strict=True)


class ErrorDetailOut(ApiModel):
    """What is wrong with one field"""

    field: str
    """The parameter or body field at fault (`filters.country`, `count`)"""
    message: str
    """What is wrong with it"""


ErrorCode = Literal[
    "INVALID_REQUEST",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "NO_POOL_COVERAGE",
    "ADDRESS_NOT_FOUND",
    "TOKEN_NOT_FOUND",
    "SYNC_RUNNING",
    "SNAPSHOT_EXPIRED",
    "ADDRESS_WITHDRAWN",
    "WITHDRAWAL_NOT_FOUND",
    "RATE_LIMITED",
    "INTERNAL_ERROR",
    "SERVICE_UNAVAILABLE",
]


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


class ErrorBody(ApiModel):
    """What went wrong. `details` is left out when there are none: the one field of an answer
    that may be absent."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    code: ErrorCode = Field(description="What went wrong; each operation's responses say which codes it uses")
    message: str = Field(description="For a person: what went wrong and, where it helps, what to change")
    details: list[ErrorDetailOut] | SkipJsonSchema[None] = Field(
        default=None,
        description="Per field, what is wrong with it (validation errors); absent when there is nothing",
        json_schema_extra=_no_default,
    )
    request_id: str = Field(description="The server's id of this request, also in X-Request-Id")


class ErrorResponse(ApiModel):
    """Every error answer: one shape, with a code from the spec"""

    error: ErrorBody
    """The error"""


class HealthStatus(ApiModel):
    """The API process is up"""

    status: Literal["ok"]
    """ok"""


class ReadyStatus(ApiModel):
    """The API and its tables can serve traffic"""

    status: Literal["ready"]
    """ready"""
