"""IPython/Jupyter integration: ``%load_ext accjit`` registers the
``%%acc`` cell magic (docs/jupyter.md)::

    %%acc c [--name NAME] [-D NAME[=VAL]]... [-I DIR]... [--device TYPE] [--quiet]
    %%acc fortran [same options]

The cell is compiled with ``acc.c`` / ``acc.fortran``; every function
(procedure) of the cell lands in the notebook's namespace as a callable,
and the module object too under ``--name``. The compile report
(``accjit._report.Report``) is the cell's output, as HTML tables, unless
``--quiet``. A compile error is shown as the diagnostics with their source
lines and carets — no Python traceback — and fails the cell, so that "run
all" stops there.

Only this module imports IPython; ``import accjit`` does not.
"""

from __future__ import annotations

from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from IPython.display import display

from . import _core
from ._report import Report


class CellCompileError(_core.CompileError):
    """A ``%%acc`` cell that did not compile. IPython shows
    ``_render_traceback_()`` — the rendered diagnostics — in place of a
    Python traceback."""

    def __init__(self, err):
        super().__init__(str(err))
        self.rendered = getattr(err, "rendered", str(err))
        self.file = getattr(err, "file", "")
        self.line = getattr(err, "line", 0)
        self.col = getattr(err, "col", 0)

    def _render_traceback_(self):
        red, bold, reset = "\x1b[31m", "\x1b[1m", "\x1b[0m"
        lines = [f"{bold}{red}accjit: compile error{reset}"]
        lines += self.rendered.rstrip("\n").split("\n")
        return lines


def _defines(values):
    """``-D N``, ``-D N=V`` → ``{"N": None, "N": "V"}`` in order."""
    out = {}
    for d in values or []:
        name, eq, val = d.partition("=")
        out[name] = val if eq else None
    return out


@magics_class
class AccMagics(Magics):
    @magic_arguments()
    @argument("language", choices=["c", "fortran"], help="the cell's source language")
    @argument("--name", default=None, help="bind the compiled module to this name in the notebook (also the source's name in messages)")
    @argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VAL]", help="define a macro")
    @argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include directory")
    @argument("--device", default=None, metavar="TYPE", help="compile for this device type (multicore, host, nvidia) and make it the current one; default: the current one")
    @argument("--quiet", action="store_true", help="do not show the compile report")
    @cell_magic
    def acc(self, line, cell):
        """Compile the cell as OpenACC C or Fortran; its functions become
        callables in the notebook, and the compile report is shown."""
        args = parse_argstring(self.acc, line)
        import accjit as acc

        base = args.name or "cell"
        # Line 1 is the %%acc line: numbers in messages and the report are
        # the lines the notebook shows.
        source = "\n" + cell
        kwargs = dict(defines=_defines(args.defines), include_dirs=list(args.include_dirs), device_type=args.device)
        try:
            if args.language == "c":
                module = acc.c(source, name=f"{base}.c", **kwargs)
                functions = module.functions
            else:
                module = acc.fortran(source, name=f"{base}.F90", **kwargs)
                functions = module.procedures
        except _core.CompileError as e:
            raise CellCompileError(e) from None
        if args.device:
            # Kernels launch on the runtime's current device type, not on
            # the one a module was compiled for: make it this one, as
            # `accjit run --device` does.
            acc.set_device_type(args.device)
        ns = self.shell.user_ns
        for fname, fn in functions.items():
            ns[fname] = fn
        if args.name:
            ns[args.name] = module
        if not args.quiet:
            display(Report(module._core.report()))


def load_ipython_extension(ipython):
    ipython.register_magics(AccMagics)
