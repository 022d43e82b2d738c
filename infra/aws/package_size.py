"""`python -m infra.aws.package_size ZIP`: a deployment package's unzipped size against Lambda's
limit (250 MB for a function's code and layers, unzipped), its largest top-level entries first."""

from __future__ import annotations

import sys
import zipfile
from collections import Counter
from pathlib import Path

LAMBDA_LIMIT_MB = 250
TARGET_MB = 200  # room for the runtime's growth and a layer


def sizes(package: Path) -> Counter[str]:
    """Unzipped bytes per top-level entry (a package, or a module file)."""
    found: Counter[str] = Counter()
    with zipfile.ZipFile(package) as archive:
        for info in archive.infolist():
            found[info.filename.split("/", 1)[0]] += info.file_size
    return found


def main(argv: list[str]) -> int:
    package = Path(argv[0])
    found = sizes(package)
    total = sum(found.values()) / 1e6
    for name, size in found.most_common(8):
        print(f"  {size / 1e6:7.1f} MB  {name}")
    print(f"{package}: {total:.1f} MB unzipped (Lambda's limit {LAMBDA_LIMIT_MB} MB, target {TARGET_MB} MB)")
    return 0 if total <= LAMBDA_LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
