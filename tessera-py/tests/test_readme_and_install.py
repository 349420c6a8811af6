"""The repository README's Python example runs as written, and the package
under test is the installed wheel, not a source tree."""

import os
import re
from pathlib import Path

import pytest
import tessera

REPO = Path(__file__).resolve().parents[2]


def python_blocks(markdown):
    return re.findall(r"^```python\n(.*?)^```", markdown, flags=re.S | re.M)


def test_readme_python_example_runs():
    section = (REPO / "README.md").read_text().split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = python_blocks(section)
    assert blocks, "README's Python section has no python block"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_python_blocks_are_found():
    text = "x\n```python\na = 1\n```\n```sh\nno\n```\n```python\nb = 2\n```\n"
    assert python_blocks(text) == ["a = 1\n", "b = 2\n"]


@pytest.mark.skipif(not os.environ.get("TESSERA_REQUIRE_WHEEL"), reason="set by scripts/test-python")
def test_package_comes_from_an_installed_wheel():
    # scripts/test-python installs the wheel into site-packages; a source
    # checkout on sys.path (tessera-py/python, `maturin develop`) would hide a broken wheel.
    location = Path(tessera.__file__).resolve()
    assert "site-packages" in location.parts, location
    compiled = list(location.parent.glob("_tessera*.so")) + list(location.parent.glob("_tessera*.pyd"))
    assert compiled, f"no compiled extension beside {location}"
