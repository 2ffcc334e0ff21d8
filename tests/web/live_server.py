"""A real uvicorn server for an app, on a free loopback port, in a thread (for SSE, which needs real sockets)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Any) -> Iterator[str]:
    """The app served on a loopback port the OS chose, bound here and handed to uvicorn: no other process (a second
    test run beside this one) can take it between the choice and the bind."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120          # a wait, not a bound: generous for a busy machine
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(60)
        listener.close()


class Served:
    """`furnace serve` on a fixed port and database, stopped and started again at will."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.proc: subprocess.Popen[str] | None = None
        self.base = f"http://127.0.0.1:{self.port}"
        self.link = ""

    def start(self) -> None:
        command = [sys.executable, "-c", "import sys; from furnace.cli import main; sys.exit(main())",
                   "--db", str(self.db), "serve", "--port", str(self.port)]
        proc = self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline, self.link = time.monotonic() + 120, ""     # a wait, generous for a busy machine
        while not self.link and time.monotonic() < deadline and proc.stdout is not None:
            found = re.search(r"http://\S+/signin\?token=\S+", proc.stdout.readline())
            self.link = found.group(0) if found else ""
        assert self.link, "furnace serve printed no sign-in link"
        wait_for(self.base + "/")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(60)
            self.proc = None


def wait_for(url: str) -> None:
    """Until the server answers at `url` (a generous wait: a busy machine starts it slowly)."""
    import httpx

    deadline = time.monotonic() + 120
    while True:
        try:
            httpx.get(url, timeout=30)
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
