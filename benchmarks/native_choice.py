"""Which compiler for paiju's fast paths: ``python benchmarks/native_choice.py`` (``pip install -e '.[compare]'``).

The engines' hot functions are called from Python hundreds of thousands of times a second with small Python
arguments (a hand's 15 counts, a play) and return Python objects, so what decides is the cost of one call
that converts its arguments and does a little integer work. This measures one such kernel — a DouDizhu hand's
four rank masks (ranks holding at least 1, 2, 3, 4 cards), the first step of legal-move generation — as
plain Python, as a Cython module (compiled here with ``pyximport``) and as a numba ``njit`` function (given a
numpy array, and given the Python list the engines hold). It prints nanoseconds per call (best of 5 runs)
and each one's speed-up over Python; it asserts no time.
"""

from __future__ import annotations

import sys
import tempfile
import timeit
from pathlib import Path

CYTHON_KERNEL = '''
def masks(hand):
    cdef unsigned int m1 = 0, m2 = 0, m3 = 0, m4 = 0, rank = 0
    cdef int n
    for n in hand:
        if n >= 1: m1 |= 1u << rank
        if n >= 2: m2 |= 1u << rank
        if n >= 3: m3 |= 1u << rank
        if n >= 4: m4 |= 1u << rank
        rank += 1
    return m1, m2, m3, m4
'''


def python_masks(hand: list[int]) -> tuple[int, int, int, int]:
    """The kernel in Python (numba compiles this same function)."""
    m1 = m2 = m3 = m4 = 0
    for rank, n in enumerate(hand):
        if n >= 1:
            m1 |= 1 << rank
        if n >= 2:
            m2 |= 1 << rank
        if n >= 3:
            m3 |= 1 << rank
        if n >= 4:
            m4 |= 1 << rank
    return m1, m2, m3, m4


def main() -> None:
    import numba
    import numpy as np
    import pyximport

    folder = Path(tempfile.mkdtemp())
    (folder / "choice_kernel.pyx").write_text(CYTHON_KERNEL)
    sys.path.insert(0, str(folder))
    pyximport.install(build_dir=str(folder / "build"), language_level=3)
    from choice_kernel import masks as cython_masks  # type: ignore[import-not-found]

    numba_masks = numba.njit(python_masks)  # the same Python source, compiled by numba
    hand = [2, 1, 0, 4, 3, 1, 1, 0, 2, 1, 0, 0, 1, 1, 0]
    array = np.array(hand, dtype=np.int64)
    assert python_masks(hand) == cython_masks(hand) == tuple(int(m) for m in numba_masks(array))
    kernels = {"python": (python_masks, hand), "cython": (cython_masks, hand),
               "numba (numpy array)": (numba_masks, array),
               "numba (from the list)": (lambda h: numba_masks(np.array(h)), hand)}
    calls = 200_000
    baseline = None
    for name, (function, argument) in kernels.items():
        ns = min(timeit.repeat(lambda f=function, a=argument: f(a), number=calls, repeat=5)) / calls * 1e9
        baseline = baseline or ns
        print(f"{name:24s} {ns:8.0f} ns/call  {baseline / ns:5.1f}x python")


if __name__ == "__main__":
    main()
