"""Real examples in the OpenAPI documents: each public operation's request and answer as the
service gave them over the sample pool (data/examples.json, captured by
`python -m tests.support.examples`), the schemas' examples taken from those answers, and an
example for every parameter, consistent with them (testers' tools send these values)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).parent / "data" / "examples.json"
_REF_PREFIX = "#/components/schemas/"

# Every parameter's example where no captured request gives one: real values of the sample pool,
# in the captured examples' country (AD) where it has them.
PARAMETERS: dict[str, Any] = {
    "country": "AD",
    "region": "Andorra la Vella",
    "regionId": "reg-5lgxxs5zwe4svvxr",
    "city": "Andorra la Vella",
    "cityId": "cit-xfsy7uowhfdrimp2",
    "district": "팔달구",  # AD has no districts; KR's Paldal-gu
    "districtId": "dis-avw6ftaktrvt3an7",
    "postcode": "AD500",
    "postcodeId": "pos-fh3vs22pu24k3yhz",
    "q": "Meritxell",
    "license": "share-alike",  # AD's OSM extract is ODbL-1.0
    "traits": "diacritics",  # 40 of AD's 208 streets: `Plaça Major`, `Carrer Mossèn Enric Marfany`
    "near": "42.5075,1.5218",  # Plaça del Poble, Andorra la Vella
    "radius": 500,
    "bbox": "1.515,42.503,1.530,42.512",  # central Andorra la Vella
    "variant": "postcode-of-another-place",  # AD500 → another parish's AD400, say
    "propertyType": "commercial",  # AD's shops, restaurants and hotels (OSM shop=*, amenity=*, tourism=*)
    "partition": "0/4",  # the first of four workers' parts
    "emailDomain": "inbox.qa.test",
    "related": "billing",  # RFC 6761's .test: a catch-all a tester runs
    "seed": "example",
    "requestId": "trace-1",
    "ip": "81.2.69.142",
    "mode": "address",  # the default; ip-region takes no location filter
    "strategy": "random",
    "residential": False,
    "complete": True,
    "includeComplete": True,
    "field": "city",
    "limit": 20,
    "parentType": "region",
    "parentId": "reg-5lgxxs5zwe4svvxr",
    "childType": "city",
    "page": 1,
    "pageSize": 2,
    "format": "csv",
    "tokenId": "0123456789ab",
    "withdrawalId": "ad-a-wfbi4jpjf4s4wbyb",
}
# Parameters whose example, sent with the operation's others, would make a request it refuses by
# a rule across parameters (ip needs mode=ip-region, which takes no location filter; bbox is not
# given with near; parentId is left out when parentType is country, as the captured listing has it;
# a cursor pages the listing that signed it):
# their example is in their description, so every example of an operation, sent together (as
# schemathesis's examples phase and a tester filling each one in do), is a request it accepts.
_APART = {
    "generateAddress": {"ip", "bbox"},
    "exportAddresses": {"bbox"},
    "listLocationChildren": {"parentId", "cursor"},  # the captured cursor is a search's
}
_DESCRIBED = re.compile(r"\(example: `([^`]+)`\)")
_ERROR_MESSAGES = {
    "INVALID_REQUEST": "invalid query: country",
    "UNAUTHORIZED": "missing bearer token",
    "FORBIDDEN": "this token's scope does not allow this endpoint",
    "NO_POOL_COVERAGE": "no published pool for country ZZ",
    "ADDRESS_NOT_FOUND": "no currently published address has id ad-0000000000000000",
    "TOKEN_NOT_FOUND": "no token 0123456789ab",
    "SYNC_RUNNING": "a sync is running already",
    "SNAPSHOT_EXPIRED": "snapshot 0123456789abcdef of AD expired on 2026-10-25T03:00:00+00:00",
    "ADDRESS_WITHDRAWN": "address ad-0000000000000000 was withdrawn from the pool and is not served",
    "WITHDRAWAL_NOT_FOUND": "no withdrawal has the id ad-a-0000000000000000",
    "RATE_LIMITED": "rate limit of 60 requests per minute exceeded",
    "INTERNAL_ERROR": "internal error",
    "SERVICE_UNAVAILABLE": "the data store is unavailable; retry later",
}


# The one schema no real answer shows (the sample configuration has no error): the message the
# configuration check writes for a country code that is not ISO 3166-1 (reference/pool_config.py).
_SCHEMA_EXAMPLES = {
    "ConfigurationIssue": {"country": "UK", "field": "country", "message": "not an ISO 3166-1 alpha-2 code"},
}


def _related_example() -> dict[str, Any]:
    """`related=`'s second address: a captured address of another city (the export's second, in
    Escaldes-Engordany), as a billing one."""
    results = captured()["operations"]["exportAddresses"]["response"]["data"]["results"]
    return {"RelatedAddress": {"role": "billing", "address": results[1]["address"]}}


@cache
def captured() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    return loaded


def add_examples(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for name, example in {**_SCHEMA_EXAMPLES, **_related_example()}.items():
        if name in schemas:
            schemas[name]["examples"] = [example]
    for item in document["paths"].values():
        for op in item.values():
            _operation_examples(op, schemas)


def _operation_examples(op: dict[str, Any], schemas: dict[str, Any]) -> None:
    operations = captured()["operations"]
    example = operations.get(op["operationId"])
    query = example["query"] if example else {}
    _parameter_examples(op.get("parameters", []), query, _APART.get(op["operationId"], set()))
    for status, response in op["responses"].items():
        if "content" not in response:  # 304: no body
            continue
        media = response["content"]["application/json"]
        error = not status.startswith("2")
        value = _error_example(media["schema"], schemas) if error else example and example["response"]
        if value:
            media["example"] = value
            _attach(schemas, media["schema"], value)
        if status.startswith("2"):  # the variants: more shapes of the same answer, for the schemas
            for name, variant in operations.items():
                if name.startswith(op["operationId"] + "#"):
                    _attach(schemas, media["schema"], variant["response"])
    if example and example["body"] is not None:
        body = op["requestBody"]["content"]["application/json"]
        body["example"] = example["body"]
        _attach(schemas, body["schema"], example["body"])


def _parameter_examples(params: list[dict[str, Any]], query: dict[str, Any], apart: set[str]) -> None:
    """A required parameter's example is the parameter's own (Swagger UI's "Try it out" and
    Postman fill it in); an optional one's sits in its schema, which neither sends, so a request
    is not filled with every filter at once; one `apart` is in its description alone."""
    for param in params:
        value = query.get(param["name"], _parameter(param["name"]))
        if param["required"]:
            param["example"] = value
        elif param["name"] in apart:
            param["schema"].pop("examples", None)
            param["description"] = f"{param.get('description', '')} (example: `{value}`)".lstrip()
        else:
            param["schema"]["examples"] = [value]


def described_example(param: dict[str, Any]) -> str | None:
    """The example a parameter kept apart carries in its description (`_parameter_examples`)."""
    said = _DESCRIBED.search(param.get("description", ""))
    return said.group(1) if said else None


def _error_example(schema: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    """An error answer with the code its response schema allows (the first, where the status may
    carry several)."""
    coded = schemas[schema["$ref"].removeprefix(_REF_PREFIX)]
    code = coded["properties"]["error"]["properties"]["code"]["enum"][0]
    body: dict[str, Any] = {
        "code": code,
        "message": _ERROR_MESSAGES[code],
        "requestId": "5c0e7f2b6a1d4e09a3b1c2d4e5f60718",
    }
    if code == "INVALID_REQUEST":
        body["details"] = [{"field": "country", "message": "String should match pattern '^[A-Za-z]{2}$'"}]
    return {"error": body}


def _parameter(name: str) -> Any:
    if name == "id":
        return captured()["address"]
    if name == "cursor":  # a real one: the captured search's next page
        return captured()["operations"]["searchLocations"]["response"]["data"]["nextCursor"]
    if name == "snapshot":  # the captured draws' snapshot
        return captured()["operations"]["generateAddress"]["response"]["data"]["snapshotId"]
    return PARAMETERS[name]


def _attach(schemas: dict[str, Any], schema: dict[str, Any], value: Any) -> None:
    """Gives each component schema the first value seen for it, following properties and items."""
    if value is None:
        return
    if "$ref" in schema:
        _attach_named(schemas, schema["$ref"].removeprefix(_REF_PREFIX), value)
        return
    for part in schema.get("allOf", []):
        _attach(schemas, part, value)
    for branch in schema.get("anyOf", []) + schema.get("oneOf", []):
        if _fits(schemas, branch, value):
            _attach(schemas, branch, value)
    if isinstance(value, dict):
        for prop, sub in schema.get("properties", {}).items():
            if prop in value:
                _attach(schemas, sub, value[prop])
    if isinstance(value, list) and value and "items" in schema:
        _attach(schemas, schema["items"], value[0])


def _attach_named(schemas: dict[str, Any], name: str, value: Any) -> None:
    target = schemas[name]
    if "examples" not in target and not name.endswith("Response"):  # an answer: its media type's
        target["examples"] = [value]
    _attach(schemas, target, value)


def _fits(schemas: dict[str, Any], schema: dict[str, Any], value: Any) -> bool:
    """Whether a union's branch is the one this value is (an object: same property names)."""
    if "$ref" in schema:
        schema = schemas[schema["$ref"].removeprefix(_REF_PREFIX)]
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        return set(value) <= set(properties) and set(schema.get("required", [])) <= set(value)
    return schema.get("type") != "object"
