import json
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tessera" / "tests" / "vectors"


def load_vectors(name):
    with open(VECTORS / name) as f:
        return json.load(f)


@pytest.fixture(scope="session")
def cli():
    """Path of the `tessera` binary: $TESSERA_CLI, else target/{release,debug}."""
    env = os.environ.get("TESSERA_CLI")
    candidates = [env] if env else []
    for d in (os.environ.get("CARGO_TARGET_DIR"), REPO / "target"):
        if d:
            candidates += [Path(d) / "release" / "tessera", Path(d) / "debug" / "tessera"]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return str(c)
    if os.environ.get("TESSERA_REQUIRE_CLI"):
        pytest.fail("TESSERA_REQUIRE_CLI is set but no tessera binary was found (set TESSERA_CLI)")
    pytest.skip("no tessera CLI binary (build tessera-cli or set TESSERA_CLI)")
