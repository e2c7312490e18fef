"""Fixtures shared by test modules."""

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A local Ray instance of two CPUs, shared by a test module's Ray tests (Ray takes seconds to start; the
    work run in it finds it running and keeps it). Ray's workers import the tests from the driver's working
    directory, the repository's root."""
    from paiju.ray_cluster import using_ray

    with using_ray(None, 2):
        yield
