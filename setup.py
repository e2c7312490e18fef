"""Builds paiju's compiled fast paths: every ``src/paiju/**/_*_fast.pyx`` becomes a C extension module of the
same dotted name (Cython, then the platform's C compiler). The extensions are optional: without a C compiler
the install still succeeds and paiju runs its reference Python (see ``paiju.native``). Everything else is in
``pyproject.toml``."""

from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCES = sorted(Path("src").rglob("_*_fast.pyx"))
EXTENSIONS = [
    Extension(".".join(path.relative_to("src").with_suffix("").parts), [str(path)], extra_compile_args=["-O3"],
              optional=True)
    for path in SOURCES
]
DIRECTIVES = {"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True,
              "initializedcheck": False}

setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES, quiet=True))
