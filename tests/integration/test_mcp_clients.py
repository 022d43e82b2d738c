"""MCP clients from other projects against the local stack as `make run` starts it: the official
SDK's client over Streamable HTTP (the 2026-07-28 revision and the initialize handshake before it),
the testers' package's stdio server (`ags mcp`, what a desktop agent launches), and the MCP
Inspector's CLI (pinned in tests/contract/agents, on the Node it needs)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.support.api import MCP_TOOLS
from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration

AGENTS = Path(__file__).parents[1] / "contract" / "agents" / "node_modules"
NODE = AGENTS / ".bin" / "node"
INSPECTOR = AGENTS / "@modelcontextprotocol" / "inspector" / "clients" / "launcher" / "build" / "index.js"
# What a checkout form asks for, and the line of the tool's text an agent copies into each field.
FORM = {
    "name": "Name",
    "email": "Email",
    "phone": "Phone",
    "street": "Street",
    "house_number": "House number",
    "postcode": "Postcode",
    "city": "City",
    "country": "Country",
}


@pytest.fixture(scope="module")
def token(synced_stack: Stack) -> str:
    return synced_stack.make_token("generate", 100_000)


def url(stack: Stack) -> str:
    return f"http://127.0.0.1:{stack.port}/mcp"


def over_http(stack: Stack, token: str, mode: str, work: Any) -> Any:
    async def session() -> Any:
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(url(stack), http_client=http), mode=mode) as client,
        ):
            return await work(client)

    return anyio.run(session)


def filled_form(text: str) -> dict[str, str]:
    """The form an agent fills from the tool's text: each field from its labelled line."""
    lines = dict(line.split(": ", 1) for line in text.splitlines())
    return {field: lines[label] for field, label in FORM.items()}


@pytest.mark.parametrize(("mode", "revision"), [("auto", "2026-07-28"), ("legacy", "2025-11-25")])
def test_the_sdk_client_lists_the_tools_and_fills_a_form_from_generate(
    synced_stack: Stack, token: str, mode: str, revision: str
) -> None:
    async def work(client: Client) -> Any:
        listed = await client.list_tools()
        arguments = {"country": "NL", "seed": "agent", "complete": True}
        drawn = await client.call_tool("generate_address", arguments)
        return client.protocol_version, [t.name for t in listed.tools], drawn

    protocol, names, drawn = over_http(synced_stack, token, mode, work)
    assert (protocol, names) == (revision, MCP_TOOLS)
    assert drawn.is_error is False
    result = drawn.structured_content["data"]["result"]
    address, profile = result["address"], result["profile"]
    assert filled_form(drawn.content[0].text) == {
        "name": profile["fullName"],
        "email": profile["email"],
        "phone": profile["phone"]["number"],
        "street": address["components"]["street"],
        "house_number": address["components"]["houseNumber"],
        "postcode": address["components"]["postcode"],
        "city": address["components"]["city"],
        "country": "NL",
    }


def test_the_stdio_server_of_the_testers_package_serves_the_same_tools_and_answers(
    synced_stack: Stack, token: str
) -> None:
    ags = Path(sys.executable).with_name("ags")
    env = {
        "PATH": os.environ["PATH"],
        "AGS_TOKEN": token,
        "AGS_BASE_URL": f"http://127.0.0.1:{synced_stack.port}",
    }
    arguments = {"country": "AD", "seed": "desktop"}

    async def session() -> Any:
        async with Client(StdioServerParameters(command=str(ags), args=["mcp"], env=env)) as client:
            listed = await client.list_tools()
            drawn = await client.call_tool("generate_address", arguments)
            wrong = await client.call_tool("generate_address", {"country": "A1"})
            return listed, drawn, wrong

    async def direct(client: Client) -> Any:
        return await client.list_tools(), await client.call_tool("generate_address", arguments)

    listed, drawn, wrong = anyio.run(session)
    served, served_draw = over_http(synced_stack, token, "auto", direct)
    assert [t.model_dump() for t in listed.tools] == [t.model_dump() for t in served.tools]
    assert drawn.structured_content == served_draw.structured_content
    assert drawn.content == served_draw.content
    assert wrong.is_error is True
    assert wrong.content[0].text.startswith("INVALID_REQUEST: invalid query: country")


def inspector(stack: Stack, token: str, home: Path, *args: str) -> tuple[int, Any]:
    """The Inspector's CLI on our endpoint: its exit code and its JSON output."""
    command = [str(NODE), str(INSPECTOR), "--cli", url(stack), "--transport", "http"]
    command += ["--header", f"Authorization: Bearer {token}", *args]
    # HOME: its catalog and stored credentials in the test's own directory, never the user's.
    env = {"PATH": f"{NODE.parent}:{os.environ['PATH']}", "HOME": str(home), "CI": "true"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env, check=False)
    return done.returncode, json.loads(done.stdout or done.stderr)


def test_the_mcp_inspector_lists_portable_tools_and_calls_them_as_a_third_party_client(
    synced_stack: Stack, token: str, tmp_path: Path
) -> None:
    assert INSPECTOR.exists(), "make install sets up tests/contract/agents"
    code, listed = inspector(synced_stack, token, tmp_path, "--method", "tools/list", "--strict")
    assert (code, [t["name"] for t in listed["tools"]]) == (0, MCP_TOOLS)  # --strict: no portability problem
    call = ["--method", "tools/call", "--tool-name", "generate_address"]
    seeded = ["--tool-arg", "country=NL", "seed=inspector"]
    code, drawn = inspector(synced_stack, token, tmp_path, *call, *seeded)
    assert code == 0
    assert drawn["structuredContent"]["data"]["result"]["address"]["countryCode"] == "NL"
    code, wrong = inspector(synced_stack, token, tmp_path, *call, "--tool-arg", "country=N1")
    assert (code, wrong["isError"]) == (5, True)  # 5: the tool answered an error, the client did not fail
    assert wrong["content"][0]["text"].startswith("INVALID_REQUEST: invalid query: country")
    reader = synced_stack.make_token("read", 1000)
    code, refused = inspector(synced_stack, reader, tmp_path, *call, "--tool-arg", "country=NL")
    assert code == 5
    assert refused["content"][0]["text"] == "FORBIDDEN: this endpoint needs a token with scope 'generate'"
    code, unauthorized = inspector(synced_stack, "ags_nosuchtoken_x", tmp_path, "--method", "tools/list")
    assert (code, unauthorized["error"]["code"]) == (3, "auth_required")
