"""`acc.fortran(...)`: compile OpenACC Fortran and expose its subroutines and
functions as Python callables (docs/fortran.md).

Arguments follow each procedure's Fortran interface: arrays are NumPy
arrays of the exact dtype passed zero-copy (multi-dimensional ones in
Fortran order: ``np.asfortranarray(x)``), scalars are Python numbers (a
temporary when the dummy is by reference) or 0-d arrays (written in place,
for ``intent(out)``/``inout``), ``None`` for an absent ``optional``.
Character dummies take ``str``/``bytes`` (or a ``bytearray``, written in
place). Function results come back as Python values: numbers, ``bool``
for ``logical``, ``str`` for ``character``, a new Fortran-ordered NumPy
array for an array-valued function.
"""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from . import _core
from ._cmodule import Defines, _normalize_defines

_MISSING = object()


class FProcedure(_core.Procedure):
    """A Fortran subroutine or function of a compiled module.

    The call itself is `_core.Procedure.__call__` (no Python frame on the way
    to the native call); keywords and left-out optional arguments go through
    `_bind_call`."""

    def __init__(self, module: "_core.Module", info: dict):
        self._module = module
        self.__name__ = info["name"]
        self.__qualname__ = info["name"]
        self.signature = info["signature"]
        self.params = info["params"]
        self.result = info["result"]
        lines = [self.signature, ""]
        for p in self.params:
            if p["kind"] == "unsupported":
                lines.append(f"  {p['decl']}: {p['why']}: cannot be passed from Python")
            elif p["kind"] == "char":
                if p["intent"] == "in":
                    lines.append(f"  {p['decl']}: str or bytes")
                else:
                    lines.append(f"  {p['decl']}: str or bytes, or a bytearray (receives the result)")
            elif p["kind"] == "array":
                order = "Fortran-ordered " if p["rank"] > 1 else ""
                lines.append(f"  {p['decl']}: {order}NumPy {p['dtype']} array")
            elif p["by_value"]:
                lines.append(f"  {p['decl']}: Python number")
            elif p["intent"] == "in":
                lines.append(f"  {p['decl']}: Python number, or a 0-d NumPy {p['dtype']} array")
            else:
                lines.append(f"  {p['decl']}: Python number, or a 0-d NumPy {p['dtype']} array (receives the result)")
        if self.result:
            lines.append(f"  returns: {self.result}")
        self.__doc__ = "\n".join(lines)

    def _bind_call(self, args, kwargs):
        """The argument tuple of a call with keywords (`kwargs`, or None) or optional arguments left out."""
        return self._bind(args, {k.lower(): v for k, v in (kwargs or {}).items()}, [p["name"] for p in self.params])

    def _bind(self, args, kwargs, names):
        if len(args) > len(names):
            raise TypeError(f"{self.__name__}() takes {len(names)} arguments ({len(args)} given): {self.signature}")
        bound = list(args) + [_MISSING] * (len(names) - len(args))
        for k, v in kwargs.items():
            if k not in names:
                raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{k}': {self.signature}")
            i = names.index(k)
            if i < len(args):
                raise TypeError(f"{self.__name__}() got multiple values for argument '{k}'")
            bound[i] = v
        for i, p in enumerate(self.params):
            if bound[i] is _MISSING and p["optional"]:
                bound[i] = None
        missing = [n for n, v in zip(names, bound) if v is _MISSING]
        if missing:
            raise TypeError(f"{self.__name__}() missing argument(s) {', '.join(missing)}: {self.signature}")
        return tuple(bound)

    def __repr__(self):
        return f"<accjit Fortran {self.signature}>"


class FModule:
    """A compiled Fortran source. Its procedures are attributes, by their
    Fortran names in any case (``m.saxpy``, ``m.SAXPY``)."""

    def __init__(self, core_module: "_core.Module"):
        self._core = core_module
        self._procedures = {p["name"]: FProcedure(core_module, p) for p in core_module.fortran_procedures()}
        # The usual spelling as plain instance attributes: `m.saxpy` then
        # costs no `__getattr__` call; other cases still go through it.
        for name, proc in self._procedures.items():
            if not hasattr(type(self), name) and name not in self.__dict__:
                self.__dict__[name] = proc

    def __getattr__(self, name: str):
        procs = self.__dict__.get("_procedures", {})
        try:
            return procs[name.lower()]
        except KeyError:
            raise AttributeError(f"compiled Fortran has no procedure '{name}' (procedures: {', '.join(procs)})") from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._procedures))

    def __getitem__(self, name: str) -> FProcedure:
        return self._procedures[name.lower()]

    def __contains__(self, name: str) -> bool:
        return name.lower() in self._procedures

    @property
    def procedures(self) -> dict:
        """Name → FProcedure."""
        return dict(self._procedures)

    @property
    def from_cache(self) -> bool:
        """True when this module came from the in-process cache."""
        return self._core.from_cache

    def report(self) -> "Report":
        """The compile report: each compute region with its data clauses
        (implicit ones with why), each loop with the levels it runs on and
        why, compile times. ``str()`` is text like ``-Minfo=accel``; in a
        notebook it renders as HTML tables (``accjit._report.Report``)."""
        from ._report import Report

        return Report(self._core.report())

    @property
    def timings(self) -> dict:
        """Seconds spent in each compiler stage: parse, lower, codegen, total."""
        return self._core.timings()

    @property
    def kernel_count(self) -> int:
        """Number of compute regions outlined as kernels."""
        return self._core.kernel_count

    @property
    def device_type(self) -> str:
        """The device type the module was compiled for (``multicore``, ``host``, ``nvidia``)."""
        return self._core.device_type

    def clif(self) -> str:
        """CLIF of every function (compile with keep_clif=True)."""
        return self._core.clif()

    def ir(self) -> str:
        """The lowered IR as text."""
        return self._core.ir()

    def ptx(self) -> str:
        """The PTX the nvidia back end makes of this module's kernels."""
        return self._core.ptx()

    def run_main(self, argv: Sequence[str] = ("prog",)) -> int:
        """Run the main program and return its exit status (``stop n``: n)."""
        return self._core.run_main([str(a) for a in argv])

    def __repr__(self):
        return f"<accjit.FModule [{self.device_type}] {', '.join(self._procedures)}>"


def fortran(
    source: str,
    *,
    defines: Defines = None,
    undefines: Optional[Sequence[str]] = None,
    include_dirs: Optional[Sequence[Union[str, os.PathLike]]] = None,
    device_type: Optional[str] = None,
    name: str = "<fortran>.F90",
    keep_clif: bool = False,
    free_form: bool = True,
) -> FModule:
    """Compile OpenACC Fortran `source` and return an FModule of its procedures.

    The source is free form and preprocessed (``defines`` apply, ``#ifdef``
    works); pass ``free_form=False`` for fixed form. Compiling the same
    source with the same options again returns the cached module. Raises
    CompileError on bad input, pointing at the line and column.
    """
    if not free_form and name == "<fortran>.F90":
        name = "<fortran>.F"
    core = _core.compile_fortran(
        [(name, source)],
        device_type=device_type,
        defines=_normalize_defines(defines),
        undefines=list(undefines or []),
        include_dirs=[os.fspath(d) for d in (include_dirs or [])],
        keep_clif=keep_clif,
    )
    return FModule(core)


def fortran_files(paths: Sequence[Union[str, os.PathLike]], **kwargs) -> FModule:
    """Compile Fortran files (a main file and modules, any order; modules a
    file uses and that are not given are looked for beside the first)."""
    files = _core.fortran_sources([os.fspath(p) for p in paths])
    kw = {k: v for k, v in kwargs.items() if k in ("device_type", "keep_clif")}
    core = _core.compile_fortran(
        files,
        defines=_normalize_defines(kwargs.get("defines")),
        undefines=list(kwargs.get("undefines") or []),
        include_dirs=[os.fspath(d) for d in (kwargs.get("include_dirs") or [])],
        **kw,
    )
    return FModule(core)
