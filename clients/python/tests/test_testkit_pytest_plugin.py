"""The pytest plugin in a pytest run of its own (pytester), offline."""

from __future__ import annotations

import json
import re

import pytest
from testkit_fakes import record

pytest_plugins = ["pytester"]


def test_real_address_is_the_same_on_every_run_and_follows_the_marker(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    exported = pytester.path / "export.ndjson"
    records = [record(i, "AD") for i in range(50)] + [record(i, "LI", "Vaduz") for i in range(50, 60)]
    exported.write_text("".join(json.dumps(r) + "\n" for r in records))
    pytester.makepyfile(
        """
        import pytest

        def test_default(real_address):
            print("DRAWN", real_address["address"]["id"])

        @pytest.mark.ags(country="LI", city="Vaduz")
        def test_marked(real_address):
            assert real_address["address"]["components"]["city"] == "Vaduz"
            print("DRAWN", real_address["address"]["id"])
        """
    )
    monkeypatch.setenv("AGS_BASE_URL", "http://127.0.0.1:9")  # nothing answers there
    runs = []
    for _ in range(2):
        result = pytester.runpytest_subprocess("-s", f"--ags-offline={exported}", "--ags-country=AD")
        result.assert_outcomes(passed=2)
        runs.append(re.findall(r"DRAWN (\S+)", result.stdout.str()))
    assert runs[0] == runs[1]
    assert runs[0][0].startswith("ad-")
    assert runs[0][1].startswith("li-")
