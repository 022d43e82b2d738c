"""The Lambda package's compiled files against the runtime that loads them. The deployed SyncStep
could not `import osmium`: the package held a wheel its runtime's glibc was too old for, and
osmium links a libexpat that Lambda's runtimes do not have."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import osmium
import pytest

from infra.aws import bytecode, lambda_binaries, package
from infra.aws.lambda_binaries import RUNTIMES, check_package

PYTHON311 = RUNTIMES["python3.11"]


def _installed_osmium() -> Path:
    """osmium's main extension as pip installed it on this machine (an x86_64 manylinux_2_27
    wheel): what a package built from this host's wheels would carry."""
    [extension] = Path(osmium.__file__).parent.glob("_osmium.cpython-311-*.so")
    return extension


def _zip(tmp_path: Path, files: dict[str, bytes]) -> zipfile.ZipFile:
    path = tmp_path / "deployment.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return zipfile.ZipFile(path)


def _host_library() -> Path:
    """A library built on this machine (Debian 12's libexpat, glibc 2.36): what `chalice package`
    packs when it builds a wheel here because no published wheel fits the runtime."""
    found = [
        p for p in (Path("/lib/x86_64-linux-gnu/libexpat.so.1"), Path("/lib/aarch64-linux-gnu/libexpat.so.1"))
    ]
    present = [p for p in found if p.is_file()]
    if not present:
        pytest.skip("no system libexpat on this machine")
    return present[0]


def test_a_file_built_for_a_newer_glibc_or_another_machine_or_linking_a_missing_library_is_refused(
    tmp_path: Path,
) -> None:
    extension = _installed_osmium()
    if "x86_64" not in extension.name:
        pytest.skip("the reference wheel is this machine's x86_64 osmium")
    archive = _zip(
        tmp_path,
        {
            "osmium/_osmium.so": extension.read_bytes(),
            "built/here.so": _host_library().read_bytes(),
            "app.py": b"print()",
        },
    )
    on_x86 = {(p.path, p.reason) for p in check_package(archive, PYTHON311, "x86_64")}
    assert ("built/here.so", "needs GLIBC_2.36; python3.11 (Amazon Linux 2) has GLIBC 2.26") in on_x86
    assert (
        "osmium/_osmium.so",
        "links libexpat.so.1, which neither Amazon Linux 2 nor the package has",
    ) in on_x86
    assert not any(path == "app.py" for path, _ in on_x86)
    on_arm = [p.reason for p in check_package(archive, PYTHON311, "arm64")]
    assert "built for EM_X86_64, the function runs on arm64" in on_arm


def test_a_library_the_package_carries_counts_as_present(tmp_path: Path) -> None:
    extension = _installed_osmium().read_bytes()
    alone = _zip(tmp_path, {"osmium/_osmium.so": extension})
    assert any("libexpat" in p.reason for p in check_package(alone, RUNTIMES["python3.12"], "x86_64"))
    (tmp_path / "deployment.zip").unlink()
    carried = _zip(tmp_path, {"osmium/_osmium.so": extension, "lib/libexpat.so.1": b"\x7fELF"})
    problems = check_package(carried, RUNTIMES["python3.12"], "x86_64")
    assert not any("links libexpat" in p.reason for p in problems)
    assert any(p.path == "lib/libexpat.so.1" for p in problems)  # a truncated ELF file is no library


def test_make_package_builds_an_arm64_package_every_compiled_file_of_which_loads_on_python311(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real `chalice package` for the functions' architecture (aarch64 wheels from PyPI) plus
    Debian's libexpat, checked by the same rules."""
    assert package.architecture() == "arm64"
    assert package.main(["dev", str(tmp_path / "dev")]) == 0
    with zipfile.ZipFile(tmp_path / "dev" / "deployment.zip") as archive:
        names = archive.namelist()
        elf = [n for n in names if archive.read(n)[:4] == lambda_binaries.ELF_MAGIC]
        assert any(n.startswith("osmium/_osmium.cpython-311-aarch64") for n in elf)
        assert "lib/libexpat.so.1" in elf
        assert check_package(archive, PYTHON311, "arm64") == []
        sources = [n for n in names if n.startswith(("chalicelib/", "pydantic/")) and n.endswith(".py")]
        assert sources
        assert all(bytecode._cached_name(n) in names for n in sources)  # the runtime compiles none
    assert "MB unzipped" in capsys.readouterr().out


def test_the_package_s_bytecode_is_what_the_runtime_imports(tmp_path: Path) -> None:
    """Unpacked as Lambda unpacks it (mtimes lost, the folder read-only), the module is loaded
    from the package's .pyc without looking at its source: a changed source is not even read."""
    files = {
        "app.py": b"import chalicelib.greeting\n",
        "chalicelib/__init__.py": b"",
        "chalicelib/greeting.py": b"WORD = 'packaged'\n",
        "data/notes.py": b"not python (",
    }
    _zip(tmp_path, files).close()
    assert bytecode.add_to_package(tmp_path / "deployment.zip") == 3  # not the file that is no Python
    task = tmp_path / "task"
    with zipfile.ZipFile(tmp_path / "deployment.zip") as archive:
        archive.extractall(task)
    (task / "chalicelib" / "greeting.py").write_text("WORD = 'changed'\n")
    found = subprocess.run(
        [sys.executable, "-B", "-c", "import chalicelib.greeting as g; print(g.WORD, g.__cached__)"],
        cwd=task, capture_output=True, text=True, check=True, env={"PYTHONDONTWRITEBYTECODE": "1"},
    )  # fmt: skip
    word, cached = found.stdout.split()
    assert word == "packaged"
    assert cached.endswith(f"chalicelib/__pycache__/greeting.{sys.implementation.cache_tag}.pyc")
