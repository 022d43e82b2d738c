"""`make clients`: what testers import, generated from the public OpenAPI document the service serves,
and committed: the TypeScript testkit's types (clients/typescript/src/schema.ts, openapi-typescript's,
pinned in its package) and the Postman collection and its environment (clients/postman). With
`--check` (CI), nothing is written, and any committed file that differs from what the document
gives now fails.

The collection is openapi-to-postmanv2's (pinned in tests/contract/clients), converted with the
options a tester's import should take (each parameter's example, optional ones present but
disabled, a folder per tag), then made reproducible and runnable:
- its ids are derived from names, not random; parameters without a converter-usable example take
  the document's own (the converter fakes one afresh each run); an example response's request
  keeps only the parameters it sends, undescribed (its request lists and describes them all);
- `baseUrl` defaults to `make run`'s service; the token is the `bearerToken` variable;
- a collection-level pre-request script (infra/postman_prerequest.js) draws, once per iteration, a
  real address and its profile into variables any request can use ({{addr.street}}, {{person.email}});
- a collection-level test holds every answer to 2xx, but one: without `ip`, /client-context
  locates the caller, and a loopback caller has no location (404 ADDRESS_NOT_FOUND)."""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
POSTMAN = ROOT / "clients" / "postman"
COLLECTION = POSTMAN / "address-generation-service.postman_collection.json"
ENVIRONMENT = POSTMAN / "local.postman_environment.json"
CONVERTER = ROOT / "tests" / "contract" / "clients" / "node_modules" / ".bin" / "openapi2postmanv2"
TYPESCRIPT = ROOT / "clients" / "typescript"
SCHEMA = TYPESCRIPT / "src" / "schema.ts"
TYPES_GENERATOR = TYPESCRIPT / "node_modules" / ".bin" / "openapi-typescript"
OPTIONS = "parametersResolution=Example,enableOptionalParameters=false,folderStrategy=Tags"
LOCAL_BASE_URL = "http://127.0.0.1:8000"
_IDS = uuid.UUID("6f1c1d2e-8f0a-4c55-9d0b-2a7e4f3b9c10")  # the namespace of the collection's ids

# The collection's pre-request script: a real address and profile as {{addr.*}} and {{person.*}}.
PRE_REQUEST = ROOT / "infra" / "postman_prerequest.js"
TEST_SCRIPT = [
    "// Every answer is 2xx, but /client-context without `ip` from a loopback caller: it locates",
    "// the caller, and 127.0.0.1 has no location (404 ADDRESS_NOT_FOUND, as documented).",
    "const loopback = /^https?:\\/\\/(127\\.0\\.0\\.1|localhost|\\[::1\\])(:|\\/|$)/",
    "    .test(pm.variables.replaceIn('{{baseUrl}}'));",
    "const locatesCaller = pm.request.url.getPath().endsWith('/client-context')",
    "    && !pm.request.url.query.has('ip');",
    "if (loopback && locatesCaller) {",
    "    pm.test('a loopback caller has no location: 404 ADDRESS_NOT_FOUND', function () {",
    "        pm.response.to.have.status(404);",
    "        pm.expect(pm.response.json().error.code).to.eql('ADDRESS_NOT_FOUND');",
    "    });",
    "} else {",
    "    pm.test('answers 2xx', function () { pm.response.to.be.success; });",
    "}",
]


def served_document() -> dict[str, Any]:
    """The public document exactly as GET /api/v1/openapi.json serves it."""
    from app import ROUTES
    from chalicelib.api.openapi import build_document

    return build_document(ROUTES.operations(), "public")


def generated(document: dict[str, Any]) -> dict[Path, str]:
    """Every committed file, as the document gives it now."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "openapi.json"
        source.write_text(json.dumps(document))
        schema, converted = Path(scratch) / "schema.ts", Path(scratch) / "collection.json"
        _convert([str(TYPES_GENERATOR), str(source), "-o", str(schema)], schema)
        _convert([str(CONVERTER), "-s", str(source), "-o", str(converted), "-p", "-O", OPTIONS], converted)
        typed, collection = schema.read_text(), json.loads(converted.read_text())
    return {
        SCHEMA: typed,
        COLLECTION: _dumped(reproducible(collection, document)),
        ENVIRONMENT: _dumped(environment()),
    }


def _convert(argv: list[str], output: Path) -> None:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)
    if done.returncode != 0 or not output.exists():  # openapi2postmanv2 exits 0 on some failures
        raise SystemExit(f"{Path(argv[0]).name} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")


def reproducible(collection: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    examples = _parameter_examples(document)
    _walk(collection["item"], examples, collection["info"]["name"])
    collection["info"]["_postman_id"] = str(uuid.uuid5(_IDS, collection["info"]["name"]))
    collection["variable"] = [{"key": "baseUrl", "value": LOCAL_BASE_URL, "type": "string"}]
    collection["event"] = [
        {
            "listen": "prerequest",
            "script": {"type": "text/javascript", "exec": PRE_REQUEST.read_text().splitlines()},
        },
        {"listen": "test", "script": {"type": "text/javascript", "exec": TEST_SCRIPT}},
    ]
    return collection


def _walk(items: list[dict[str, Any]], examples: dict[str, Any], trail: str) -> None:
    for n, item in enumerate(items):
        here = f"{trail}/{n}:{item['name']}"
        if "id" in item:
            item["id"] = str(uuid.uuid5(_IDS, here))
        if "item" in item:
            _walk(item["item"], examples, here)
            continue
        _fill(item["request"]["url"], examples)
        for m, response in enumerate(item.get("response", [])):
            response["id"] = str(uuid.uuid5(_IDS, f"{here}/response/{m}"))
            url = response["originalRequest"]["url"]  # its request lists and describes them all
            url["query"] = [{k: v for k, v in p.items() if k != "description"} for p in url.get("query", [])]
            url["query"] = [p for p in url["query"] if not p.get("disabled")]
            _fill(url, examples)


def _fill(url: dict[str, Any], examples: dict[str, Any]) -> None:
    for parameter in url.get("query", []):
        if parameter["key"] in examples:
            value = examples[parameter["key"]]
            parameter["value"] = value if isinstance(value, str) else json.dumps(value)  # true, 500


def _parameter_examples(document: dict[str, Any]) -> dict[str, Any]:
    """Each query parameter's example where only its schema holds one (which the converter ignores),
    or its description (one not sent with the others: the converter would make one up, anew each run)."""
    from chalicelib.api.openapi_examples import described_example

    found: dict[str, Any] = {}
    for operations in document["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                described = described_example(parameter)
                if "example" not in parameter and schema.get("examples"):
                    found.setdefault(parameter["name"], schema["examples"][0])
                elif described is not None:
                    found.setdefault(parameter["name"], described)
    return found


def environment() -> dict[str, Any]:
    return {
        "id": str(uuid.uuid5(_IDS, "local environment")),
        "name": "Address Generation Service (make run)",
        "values": [
            {"key": "baseUrl", "value": LOCAL_BASE_URL, "type": "default", "enabled": True},
            {"key": "bearerToken", "value": "", "type": "secret", "enabled": True},
            # What the pre-request script draws {{addr.*}} and {{person.*}} from: the country, and a
            # seed for the same people on every run (empty: new ones each run).
            {"key": "agsCountry", "value": "US", "type": "default", "enabled": True},
            {"key": "agsSeed", "value": "", "type": "default", "enabled": True},
        ],
        "_postman_variable_scope": "environment",
    }


def stale_files(files: dict[Path, str]) -> list[Path]:
    """The committed files that differ from `files` (what the document gives), or are missing."""
    return sorted(path for path, text in files.items() if not path.exists() or path.read_text() != text)


def _dumped(value: dict[str, Any]) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a file is not current")
    args = parser.parse_args(argv)
    files = generated(served_document())
    stale = stale_files(files)
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is not current with the served document: run make clients")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path])
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
