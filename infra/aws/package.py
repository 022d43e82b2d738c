"""The Chalice app inside the stack: Chalice's own CDK construct packages the app (`chalice
package`) and includes its SAM template. Three packagings, one template:

- `lambda`: the real package for the functions' runtime and architecture (`.chalice/config.json`:
  python3.11 on arm64), with the libraries the runtime lacks (`runtime_libraries`), refused if a
  compiled file could not load there (`lambda_binaries`). `make package`, `make deploy`.
- `stub`: the app's code without its third-party requirements (no pip run): the same template in
  seconds, for tests and `make synth`.
- `host`: the app's code with its requirements as this machine installs them (its architecture and
  glibc), for an emulator that runs the functions here (`make deploy-local`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from chalice import api
from chalice.cdk import Chalice
from constructs import Construct

from infra.aws import bytecode, lambda_binaries, runtime_libraries

PROJECT_DIR = Path(__file__).resolve().parents[2]
CACHE_DIR = PROJECT_DIR / ".dev" / "package-cache"
_APP_FILES = ("app.py", "chalicelib", ".chalice/config.json")
_PACKAGE_ONLY = {"manage_iam_role": False, "iam_role_arn": "arn:aws:iam::000000000000:role/set-by-the-stack"}
Packaging = Literal["lambda", "stub", "host"]


class ChaliceApp(Chalice):
    def __init__(
        self, scope: Construct, construct_id: str, *, stage_config: dict[str, Any], packaging: Packaging
    ) -> None:
        self._packaging = packaging
        super().__init__(scope, construct_id, source_dir=str(PROJECT_DIR), stage_config=stage_config)

    def _package_app(self) -> None:
        with _some_region():
            if self._packaging == "lambda":
                super()._package_app()
                finish_lambda_package(Path(self._sam_package_dir) / "deployment.zip")
                return
            with _app_only() as project:
                api.package_app(project, self._sam_package_dir, self.stage_name, self.stage_config)
            if self._packaging == "host":
                add_host_requirements(Path(self._sam_package_dir) / "deployment.zip")
                bytecode.add_to_package(Path(self._sam_package_dir) / "deployment.zip")


def architecture() -> str:
    return str(json.loads((PROJECT_DIR / ".chalice" / "config.json").read_text())["lambda_architecture"])


def finish_lambda_package(package: Path) -> None:
    """Add what the runtime lacks and the bytecode it cannot write, then refuse a package the runtime
    could not load."""
    runtime = lambda_binaries.RUNTIMES[f"python{sys.version_info[0]}.{sys.version_info[1]}"]
    runtime_libraries.add_to_package(package, architecture(), CACHE_DIR / "debian")
    bytecode.add_to_package(package)
    with zipfile.ZipFile(package) as archive:
        problems = lambda_binaries.check_package(archive, runtime, architecture())
    if problems:
        listed = "\n  ".join(str(p) for p in problems)
        where = f"{runtime.name} on {architecture()}"
        raise SystemExit(f"{package}: compiled files {where} cannot load:\n  {listed}")


def add_host_requirements(package: Path) -> None:
    """requirements.txt installed for this machine (cached by the file's hash), into the package."""
    requirements = (PROJECT_DIR / "requirements.txt").read_bytes()
    site = CACHE_DIR / "host" / hashlib.sha256(requirements).hexdigest()[:16]
    if not (site / ".complete").is_file():
        shutil.rmtree(site, ignore_errors=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--target", str(site), "-r", str(PROJECT_DIR / "requirements.txt")],
            check=True,
        )  # fmt: skip
        (site / ".complete").touch()
    with zipfile.ZipFile(package, "a", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for path in sorted(site.rglob("*")):
            relative = path.relative_to(site)
            skipped = relative.parts[0] in (".complete", "bin") or "__pycache__" in relative.parts
            if path.is_file() and not skipped:
                archive.write(path, relative.as_posix())


@contextmanager
def _app_only() -> Iterator[str]:
    """A copy of the project holding only the app's own files."""
    with tempfile.TemporaryDirectory(prefix="ags-stub-") as project:
        for name in _APP_FILES:
            source, target = PROJECT_DIR / name, Path(project) / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, target)
        yield project


@contextmanager
def _some_region() -> Iterator[None]:
    """`chalice package` builds AWS clients it never calls, and they need a region; the template
    itself is region-agnostic. Packaging also imports the app with the stage's variables put into
    os.environ (CDK tokens among them): the environment is restored afterwards, so nothing else in
    this process (tests, their subprocesses) inherits them."""
    saved = dict(os.environ)
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main(argv: list[str]) -> int:
    """`python -m infra.aws.package STAGE OUT_DIR`: the real deployment package, checked, then its
    size."""
    from infra.aws import package_size

    stage, out_dir = argv
    with _some_region():
        api.package_app(str(PROJECT_DIR), out_dir, stage, dict(_PACKAGE_ONLY))
    package = Path(out_dir) / "deployment.zip"
    finish_lambda_package(package)
    print(f"{package}: every compiled file loads on {architecture()} (glibc, libstdc++, linked libraries)")
    return package_size.main([str(package)])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
