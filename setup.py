"""Builds paiju's compiled fast paths: every ``src/paiju/**/_*_fast.pyx`` becomes a C extension module of the
same dotted name (Cython, then the platform's C compiler). The extensions are optional: without a C compiler
the install still succeeds and paiju runs its reference Python (see ``paiju.native``). Everything else is in
``pyproject.toml``."""

import os
import shlex
import subprocess
import sysconfig
import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCES = sorted(Path("src").rglob("_*_fast.pyx"))
EXTENSIONS = [
    Extension(".".join(path.relative_to("src").with_suffix("").parts), [str(path)], extra_compile_args=["-O3"])
    for path in SOURCES
]
DIRECTIVES = {"language_level": 3, "boundscheck": False, "wraparound": False, "cdivision": True,
              "initializedcheck": False}



class OptionalBuildExt(build_ext):
    """Builds the compiled modules when a working C compiler is present; without one, none (with a warning)."""

    def run(self) -> None:
        if self.extensions and not self._compiler_works():
            self.warn("no working C compiler: paiju's compiled modules are not built, it runs its reference Python")
            self.extensions = []
        super().run()

    @staticmethod
    def _compiler_works() -> bool:
        """Whether the C compiler Python builds extensions with (``CC``) compiles an empty program."""
        command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder, "probe.c")
            source.write_text("int main(void) { return 0; }\n")
            try:
                return subprocess.run([*command, "-c", str(source), "-o", str(Path(folder, "probe.o"))],
                                      capture_output=True, check=False).returncode == 0
            except OSError:  # no such program
                return False


setup(ext_modules=cythonize(EXTENSIONS, compiler_directives=DIRECTIVES, quiet=True),
      cmdclass={"build_ext": OptionalBuildExt})
