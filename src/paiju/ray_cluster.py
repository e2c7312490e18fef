"""Start or join Ray: the one way paiju runs work on Ray (training actors, evaluation and corpus tasks).

A process keeps the Ray instance it already has (a training run's, say); otherwise it joins the cluster at
``address`` (one started with ``ray start --head``) or starts a local instance, and it shuts down only an
instance it started. Joining a cluster that is not there fails within seconds, in one line naming the address:
the address is first reached over TCP, and Ray's own attempts to reach it (by default twenty, of some forty
seconds each) are cut to one of about twenty seconds. Ray is imported only here, when it is used.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType

from paiju.core.errors import PaijuError

REACH_SECONDS = 5.0
"""How long the TCP check of a cluster's address waits for an answer."""
JOIN_SETTINGS = {"RAY_gcs_server_port_wait_time_s": "1", "RAY_py_gcs_connect_timeout_s": "10"}
"""Ray's settings while joining a cluster, unless the environment sets them: one attempt to reach the cluster's
control service (GCS) instead of twenty, waiting 10 s rather than 30 s for its answer. Ray reads the second when
it is imported: it bounds the attempt only where Ray was not imported before."""
OPTIONS = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
"""``ray.init`` options of every start or join: no dashboard, workers' output kept in Ray's logs."""


def start_ray(address: str | None, cpus: int) -> bool:
    """Make Ray ready in this process; whether this call started it (its caller then shuts it down).

    The instance already running in this process is kept; otherwise this joins the cluster at ``address`` or,
    without one, starts a local instance of ``cpus`` CPUs. A cluster that cannot be reached raises
    ``PaijuError`` naming ``address``, and leaves Ray stopped.
    """
    with _environment(JOIN_SETTINGS if address is not None else {}):
        import ray

        if ray.is_initialized():
            return False
        if address is None:
            ray.init(num_cpus=cpus, **OPTIONS)
        else:
            _join(ray, address)
    return True


@contextmanager
def using_ray(address: str | None, cpus: int) -> Iterator[ModuleType]:
    """The ``ray`` module, ready (``start_ray``) for the ``with`` block; shut down after it if it started here."""
    started = start_ray(address, cpus)
    import ray

    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _join(ray: ModuleType, address: str) -> None:
    """Connect to the cluster at ``address``, or raise ``PaijuError`` naming it."""
    _check_reachable(address)
    try:
        ray.init(address=address, **OPTIONS)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError or ValueError, some several lines long
        ray.shutdown()
        raise PaijuError(f"cannot reach the Ray cluster at {address}: {_reason(error)}") from None


def _check_reachable(address: str) -> None:
    """Open and close a TCP connection to ``HOST:PORT`` (``ray://`` addresses too); others, such as ``auto``, are
    left to Ray."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_SECONDS).close()
    except OSError as error:
        raise PaijuError(f"cannot reach the Ray cluster at {address}: {_reason(error)}") from None


def _reason(error: Exception) -> str:
    """The first line of ``error``'s message, or its type when it has none."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


@contextmanager
def _environment(settings: Mapping[str, str]) -> Iterator[None]:
    """``settings`` in ``os.environ`` for the ``with`` block, where the environment does not set them already."""
    added = [name for name in settings if name not in os.environ]
    os.environ.update({name: settings[name] for name in added})
    try:
        yield
    finally:
        for name in added:
            del os.environ[name]
