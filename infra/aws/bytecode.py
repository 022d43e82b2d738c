"""Compiled bytecode inside the Lambda package. Lambda's /var/task is read-only, so Python cannot
write the .pyc files it compiles: without them every cold start compiles every module it imports,
the app's and its libraries', from source. The package carries them instead, made by the same
Python version as the runtime (the packaging refuses any other), in `unchecked-hash` mode: zip
keeps mtimes to two seconds, so a timestamp check could miss, and the files never change once
deployed."""

from __future__ import annotations

import py_compile
import sys
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

TASK_ROOT = PurePosixPath("/var/task")  # where Lambda unpacks the package: the path tracebacks show


def add_to_package(package: Path) -> int:
    """Add a __pycache__ entry for every .py file in the zip that has none; returns how many."""
    with tempfile.TemporaryDirectory(prefix="ags-bytecode-") as work:
        with zipfile.ZipFile(package) as archive:
            names = set(archive.namelist())
            sources = sorted(n for n in names if n.endswith(".py") and _cached_name(n) not in names)
            compiled = [(name, pyc) for name in sources if (pyc := _compile(archive, name, Path(work)))]
        with zipfile.ZipFile(package, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
            for name, pyc in compiled:
                out.write(pyc, _cached_name(name))
    return len(compiled)


def _compile(archive: zipfile.ZipFile, name: str, root: Path) -> Path | None:
    """The .pyc of one source, or None for a file that is not valid Python of this version (a
    library's test data, a template): the runtime would never import it."""
    source = root / "src" / name
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_bytes(archive.read(name))
    target = root / "pyc" / _cached_name(name)
    try:
        py_compile.compile(
            str(source),
            cfile=str(target),
            dfile=str(TASK_ROOT / name),
            doraise=True,
            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
        )
    except py_compile.PyCompileError:
        return None
    return target


def _cached_name(name: str) -> str:
    """Where the import system looks: pkg/mod.py → pkg/__pycache__/mod.cpython-311.pyc."""
    path = PurePosixPath(name)
    return str(path.parent / "__pycache__" / f"{path.stem}.{sys.implementation.cache_tag}.pyc")
