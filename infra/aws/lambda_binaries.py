"""The compiled files of a Lambda package against the runtime that will load them. A shared object
loads only if it was built for the function's architecture, asks for no glibc or libstdc++ symbol
version newer than the runtime's, and links only libraries the runtime or the package has.

`chalice package` chose the wheels, but where no wheel fits the runtime it builds one on this host
(osmium's x86_64 wheels are manylinux_2_27, above python3.11's glibc 2.26): a package that only
fails at its first import in AWS. This check fails `make package` instead."""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import PurePosixPath

from elftools.common.exceptions import ELFError
from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection

ELF_MAGIC = b"\x7fELF"
MACHINES = {"arm64": "EM_AARCH64", "x86_64": "EM_X86_64"}
# What every Lambda runtime image links against (glibc's own libraries, the compiler's runtime):
# the libraries manylinux wheels may assume. Anything else must travel in the package.
SYSTEM_LIBRARIES = frozenset(
    {
        "libc.so.6",
        "libm.so.6",
        "libdl.so.2",
        "libpthread.so.0",
        "librt.so.1",
        "libutil.so.1",
        "libresolv.so.2",
        "libgcc_s.so.1",
        "libz.so.1",  # the runtime's Python links it for its zlib module
        "libstdc++.so.6",
        "ld-linux-aarch64.so.1",
        "ld-linux-x86-64.so.2",
    }
)


@dataclass(frozen=True)
class Runtime:
    """A Lambda runtime's C libraries (AWS: Lambda runtimes; the OS each is built on)."""

    name: str
    os: str
    glibc: tuple[int, ...]
    glibcxx: tuple[int, ...]  # libstdc++'s symbol versions (GCC 7 on Amazon Linux 2, 11 on 2023)


RUNTIMES = {
    "python3.11": Runtime("python3.11", "Amazon Linux 2", glibc=(2, 26), glibcxx=(3, 4, 24)),
    "python3.12": Runtime("python3.12", "Amazon Linux 2023", glibc=(2, 34), glibcxx=(3, 4, 29)),
}


@dataclass(frozen=True)
class Problem:
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def check_package(package: zipfile.ZipFile, runtime: Runtime, architecture: str) -> list[Problem]:
    """Every shared object in the package that the runtime could not load, and why."""
    names = package.namelist()
    bundled = {PurePosixPath(name).name for name in names}
    problems: list[Problem] = []
    for name in names:
        with package.open(name) as member:
            if member.read(4) != ELF_MAGIC:
                continue
        problems += check_binary(name, package.read(name), runtime, architecture, bundled)
    return problems


def check_binary(
    path: str, data: bytes, runtime: Runtime, architecture: str, bundled: set[str]
) -> list[Problem]:
    try:
        elf = ELFFile(io.BytesIO(data))
    except ELFError as exc:
        return [Problem(path, f"not a readable ELF file ({exc})")]
    problems = []
    if elf["e_machine"] != MACHINES[architecture]:
        problems.append(Problem(path, f"built for {elf['e_machine']}, the function runs on {architecture}"))
    for library in _needed(elf):
        if library not in SYSTEM_LIBRARIES and library not in bundled:
            problems.append(Problem(path, f"links {library}, which neither {runtime.os} nor the package has"))
    for version in _versions(elf):
        found = re.fullmatch(r"(GLIBC|GLIBCXX)_([0-9.]+)", version)
        if not found:
            continue
        kind, number = found.group(1), tuple(int(part) for part in found.group(2).split("."))
        ceiling = runtime.glibc if kind == "GLIBC" else runtime.glibcxx
        if number > ceiling:
            have = ".".join(map(str, ceiling))
            what = f"needs {version}; {runtime.name} ({runtime.os}) has {kind} {have}"
            problems.append(Problem(path, what))
    return problems


def _needed(elf: ELFFile) -> list[str]:
    return [
        str(tag.needed)  # type: ignore[attr-defined]  # set on DT_NEEDED tags only
        for section in elf.iter_sections()
        if isinstance(section, DynamicSection)
        for tag in section.iter_tags()
        if tag.entry.d_tag == "DT_NEEDED"
    ]


def _versions(elf: ELFFile) -> set[str]:
    return {
        aux.name
        for section in elf.iter_sections()
        if isinstance(section, GNUVerNeedSection)
        for _, auxiliaries in section.iter_versions()
        for aux in auxiliaries
    }
