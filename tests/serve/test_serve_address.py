"""``paiju serve`` refuses an address it cannot listen on, in one line, before printing any URL; it serves on
uvloop and httptools."""

import socket
import sys

import pytest
from typer.testing import CliRunner

from paiju.cli import app
from paiju.core.errors import PaijuError
from paiju.serve.cli import can_open_browser, check_address, uvicorn_config
from paiju.serve.settings import ServeSettings


def test_a_busy_port_is_named_with_the_fix():
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        with pytest.raises(PaijuError, match=f"port {port} on 127.0.0.1 is busy.*PORT={port + 1}"):
            check_address("127.0.0.1", port)
    check_address("127.0.0.1", port)  # free again once the other program is gone


@pytest.mark.parametrize("port", [0, -1, 65536, 99999])
def test_ports_out_of_range_are_refused(port):
    with pytest.raises(PaijuError, match="out of range: choose a port from 1 to 65535"):
        check_address("127.0.0.1", port)


def test_a_host_that_does_not_resolve_is_refused():
    with pytest.raises(PaijuError, match="does not resolve"):
        check_address("no-such-host.invalid", 8000)


def test_the_command_stops_before_printing_a_url():
    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert isinstance(result.exception, PaijuError)
    assert "paiju arena at" not in result.output


def test_no_console_browser_is_opened_without_a_display(monkeypatch):
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not can_open_browser()
    monkeypatch.setenv("DISPLAY", ":0")
    assert can_open_browser()


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop is not installed on Windows")
def test_the_arena_runs_on_uvloop_and_httptools(tmp_path):
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    config = uvicorn_config(ServeSettings(db_path=tmp_path / "arena.sqlite3"), "127.0.0.1", 8000)
    config.load()
    assert config.http_protocol_class is HttpToolsProtocol
    loop = config.get_loop_factory()()
    try:
        assert type(loop).__module__.startswith("uvloop")
    finally:
        loop.close()
