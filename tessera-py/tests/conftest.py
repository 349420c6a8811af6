import json
import os
import shutil
import sys
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


@pytest.fixture(scope="session")
def spark():
    """One PySpark local[2] session for every Spark test (no network)."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pandas")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("tessera-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "10000")
        .getOrCreate()
    )
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()
