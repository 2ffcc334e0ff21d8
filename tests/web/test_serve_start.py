"""`furnace serve` loads, before serving, what the first requests would load, so that the start-up objects can be
frozen out of the garbage collector's sight (a full collection over them stalled requests for 40-70 ms)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from furnace.campaign import access
from furnace.campaign.store import Store, resolve_url
from furnace.cli import serve
from furnace.cli.app import main
from furnace.cli.serve import _warm
from furnace.errors import FurnaceError
from furnace.rules import ruleset


def test_warm_loads_the_modules_the_api_imports_on_use_and_every_builtin_profile() -> None:
    _warm()
    for module in ("furnace.campaign.encounters", "furnace.campaign.rest", "furnace.play.turns"):
        assert module in sys.modules
    assert {"furnace", "hazards", "middle-sea"} <= set(ruleset.builtin_profiles())


# -- where the console is reached, and the referee's sign-in links ---------------------------------------------------
def _furnace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, str, str]:
    monkeypatch.setenv("FURNACE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FURNACE_DATA_DIR", str(tmp_path / "data"))
    code = main(["--db", str(tmp_path / "console.db"), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(autouse=True)
def _no_public_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FURNACE_PUBLIC_URL", raising=False)


def test_every_interface_prints_the_address_phones_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.20")
    where = serve.addresses("0.0.0.0", 8765, None)
    assert where.public_url == "http://192.168.1.20:8765" and where.lan == "192.168.1.20"
    assert {"127.0.0.1", "192.168.1.20"} <= set(where.hosts)
    behind = serve.addresses("127.0.0.1", 8000, "https://table.example")
    assert behind.public_url == "https://table.example" and "127.0.0.1" in behind.hosts


def test_serve_check_prints_the_public_url_and_a_signin_link_that_works_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _furnace(tmp_path, monkeypatch, capsys, "serve", "--check", "--public-url",
                            "https://table.example/")
    assert code == 0
    token = re.search(r"https://table\.example/signin\?token=(\S+)", out)
    assert token is not None
    store = Store(resolve_url(str(tmp_path / "console.db")))
    access.use_signin(store, token.group(1))
    with pytest.raises(FurnaceError):
        access.use_signin(store, token.group(1))


def test_signin_link_mints_another_for_a_running_console(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    _furnace(tmp_path, monkeypatch, capsys, "serve", "--check")
    monkeypatch.setenv("FURNACE_PUBLIC_URL", "http://192.168.1.20:8000")
    code, out, _ = _furnace(tmp_path, monkeypatch, capsys, "signin-link", "--minutes", "5")
    assert code == 0 and out.startswith("http://192.168.1.20:8000/signin?token=")


@pytest.mark.parametrize("url", ["ftp://table.example", "table.example", "http://table.example/path?x=1"])
def test_a_public_url_that_is_no_address_is_one_error_line(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _furnace(tmp_path, monkeypatch, capsys, "serve", "--check", "--public-url", url)
    assert code == 2 and "is not the console's address" in err
