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


def test_each_xdist_worker_draws_from_its_own_part_of_the_file(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    exported = pytester.path / "export.ndjson"
    exported.write_text("".join(json.dumps(record(i, "AD")) + "\n" for i in range(40)))
    drawn = pytester.path / "drawn"
    drawn.mkdir()
    pytester.makepyfile(
        f"""
        import pathlib

        def test_draw(real_address, ags_partition, worker_id):
            out = pathlib.Path({str(drawn)!r}) / worker_id
            out.write_text(ags_partition + " " + real_address["address"]["id"])
        """
    )
    monkeypatch.setenv("AGS_BASE_URL", "http://127.0.0.1:9")  # nothing answers there: the file's records
    result = pytester.runpytest_subprocess(
        "-n", "2", "--dist", "each", f"--ags-offline={exported}", "--ags-country=AD"
    )
    result.assert_outcomes(passed=2)
    said = dict(path.read_text().split() for path in drawn.iterdir())
    assert set(said) == {"0/2", "1/2"}  # the same test, one draw per worker, each from its part
    ids = sorted(f"ad-fixture{i:04d}" for i in range(40))
    assert said["0/2"] in ids[0::2]
    assert said["1/2"] in ids[1::2]
