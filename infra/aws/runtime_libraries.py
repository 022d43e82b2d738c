"""Shared libraries a Lambda package must carry because the runtime lacks them.

osmium's wheels (both architectures) link the system's libexpat.so.1, which manylinux allows but
Lambda's Amazon Linux 2 and 2023 runtimes do not have: `import osmium` fails there. The package
carries it in `lib/`, which Lambda puts on LD_LIBRARY_PATH (/var/task/lib). The build is Debian's
(libexpat1 for arm64 from bullseye, 2.2.10 with Debian's security fixes to deb11u5; MIT): bookworm's
needs glibc 2.36, bullseye's 2.25, under python3.11's 2.26. The .deb is pinned by its SHA-256."""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DebianLibrary:
    package: str
    version: str
    architecture: str
    sha256: str
    path: str  # the file inside the .deb
    name: str  # the name it is linked by (DT_NEEDED)

    @property
    def deb(self) -> str:
        return f"{self.package}_{self.version.replace(':', '%3a')}_{self.architecture}.deb"


LIBEXPAT = DebianLibrary(
    package="libexpat1",
    version="2.2.10-2+deb11u5",
    architecture="arm64",
    sha256="8d20bfd061845bda0321d01accd6f8386ead5b1d7250a585d12b8d5fb1408ffa",
    path="lib/aarch64-linux-gnu/libexpat.so.1.6.12",
    name="libexpat.so.1",
)
LIBRARIES = {"arm64": [LIBEXPAT]}
SUITE = "deb [arch={architecture}] http://deb.debian.org/debian bullseye main\n"


def add_to_package(package: Path, architecture: str, cache: Path) -> list[str]:
    """Append the architecture's libraries under lib/ in the package; their names."""
    added = []
    with zipfile.ZipFile(package, "a", zipfile.ZIP_DEFLATED) as archive:
        present = set(archive.namelist())
        for library in LIBRARIES.get(architecture, []):
            target = f"lib/{library.name}"
            if target not in present:
                info = zipfile.ZipInfo(target, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = 0o755 << 16
                archive.writestr(info, extract(library, cache), zipfile.ZIP_DEFLATED)
                added.append(target)
    return added


def extract(library: DebianLibrary, cache: Path) -> bytes:
    deb = fetch(library, cache)
    with tempfile.TemporaryDirectory(prefix="ags-deb-") as unpacked:
        subprocess.run(["dpkg-deb", "-x", str(deb), unpacked], check=True)
        return (Path(unpacked) / library.path).read_bytes()


def fetch(library: DebianLibrary, cache: Path) -> Path:
    """The pinned .deb, downloaded once into `cache` with apt-get and a private apt state (the
    machine's own sources and lists are left alone)."""
    deb = cache / library.deb
    if not (deb.is_file() and _sha256(deb) == library.sha256):
        _download(library, cache)
    if _sha256(deb) != library.sha256:
        raise RuntimeError(f"{deb.name}: SHA-256 differs from the pinned {library.sha256}")
    return deb


def _download(library: DebianLibrary, cache: Path) -> None:
    state = cache / "apt"
    for folder in (state / "lists" / "partial", state / "archives" / "partial"):
        folder.mkdir(parents=True, exist_ok=True)
    sources = state / "sources.list"
    sources.write_text(SUITE.format(architecture=library.architecture))
    options = [
        f"-oDir::Etc::SourceList={sources}",
        "-oDir::Etc::SourceParts=/dev/null",
        f"-oDir::State::Lists={state / 'lists'}",
        f"-oDir::Cache={state}",
        f"-oAPT::Architectures={library.architecture}",
        "-oDebug::NoLocking=1",
        "-oAPT::Sandbox::User=root",  # the cache folder is not _apt's
        "-qq",
    ]
    subprocess.run(["apt-get", *options, "update"], check=True)
    subprocess.run(
        ["apt-get", *options, "download", f"{library.package}:{library.architecture}={library.version}"],
        check=True,
        cwd=cache,
    )


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
