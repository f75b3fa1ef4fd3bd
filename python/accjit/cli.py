"""The `accjit` command.

    accjit run [-D NAME[=VAL]] [-U NAME] [-I DIR] [--device TYPE] [--info] prog.c [args...]
    accjit run [options] main.F90 [mod.F90 ...] [--] [args...]
    accjit clif [options] prog.c      print the generated Cranelift IR
    accjit ir   [options] prog.c      print the lowered accjit IR
    accjit ptx  [options] prog.c      print the PTX of its kernels for the nvidia device
    accjit info                       device types, threads, versions

The language is the file's: `.f90 .F90 .f .F .f95 .f03 .f08 ...` (either
case) are Fortran, everything else C. A Fortran program may be several
files: the Fortran files right after the first are compiled with it (`--`
ends them; the rest are the program's arguments), and a module that a file
`use`s and that is not given is looked for beside the first file
(`foo.f90`, `foo.F90`, ... or a sibling file defining `module foo`).

`run --info` (or the environment variable ACCJIT_INFO=1) prints the
compile report on stderr before the program runs: each compute region with
its data clauses (implicit ones with why), each loop with the levels it
runs on and why, compile times (`accjit._report`).

`run` exits with main's return value (Fortran: 0, or `stop n`'s n). A
compile error prints the rendered diagnostics on stderr and exits 1.
`exit()` inside the program (Fortran: `stop`, `error stop`, `call exit(n)`)
ends the process with that status, as for a compiled program.
"""

from __future__ import annotations

import argparse
import os
import sys


def _add_compile_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("--device", dest="device", default=None, metavar="TYPE", help="device type (multicore, host, nvidia); default: ACC_DEVICE_TYPE or multicore")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="accjit", description="JIT OpenACC engine: compile and run OpenACC C on the multicore CPU.")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    run = sub.add_parser("run", help="compile and run a C program; exits with main's return value")
    _add_compile_options(run)
    run.add_argument("--info", action="store_true", help="print the compile report (regions, data, loop schedules, compile times) on stderr before running; also ACCJIT_INFO=1")
    run.add_argument("file", help="the C or Fortran source file")
    run.add_argument("args", nargs=argparse.REMAINDER, help="more Fortran source files, then (after --) arguments passed to main")
    for name, what in (("clif", "print the Cranelift IR of every function and kernel"), ("ir", "print the lowered accjit IR")):
        p = sub.add_parser(name, help=what)
        _add_compile_options(p)
        p.add_argument("file", help="the C or Fortran source file")
        p.add_argument("more", nargs="*", help="more Fortran source files of the program")
    p = sub.add_parser("ptx", help="print the PTX of the kernels for the nvidia device (no GPU needed)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("file", help="the C or Fortran source file")
    p.add_argument("more", nargs="*", help="more Fortran source files of the program")
    sub.add_parser("info", help="list device types, thread count and versions")
    return ap


def _split_fortran_files(first, rest):
    """(source files, program arguments) of `run`: a Fortran first file takes
    the Fortran files after it, up to `--` or the first other argument."""
    from . import _core

    files = [first]
    if not _core.is_fortran_file(first):
        return files, rest
    i = 0
    while i < len(rest) and rest[i] != "--" and _core.is_fortran_file(rest[i]):
        files.append(rest[i])
        i += 1
    return files, rest[i:]


def _fortran_sources(files):
    from . import _core

    try:
        return _core.fortran_sources(files)
    except _core.CompileError as e:
        print(f"accjit: {str(e).removeprefix('error: ')}", file=sys.stderr)
        sys.exit(2)


def _compile(args, keep_clif=False, files=None):
    from . import _core
    from ._cmodule import _normalize_defines

    files = files or [args.file, *getattr(args, "more", [])]
    if _core.is_fortran_file(args.file):
        _set_device(args)
        try:
            return _core.compile_fortran(
                _fortran_sources(files),
                device_type=args.device,
                defines=_normalize_defines(args.defines),
                undefines=args.undefines,
                include_dirs=args.include_dirs,
                keep_clif=keep_clif,
            )
        except _core.CompileError as e:
            sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
            sys.exit(1)
    if len(files) > 1:
        print(f"accjit: {args.file}: one C source file at a time (more files are Fortran only)", file=sys.stderr)
        sys.exit(2)
    try:
        with open(args.file, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError as e:
        print(f"accjit: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    _set_device(args)
    try:
        return _core.compile_c(
            text,
            name=args.file,
            device_type=args.device,
            defines=_normalize_defines(args.defines),
            undefines=args.undefines,
            include_dirs=args.include_dirs,
            keep_clif=keep_clif,
        )
    except _core.CompileError as e:
        sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
        sys.exit(1)


def _set_device(args):
    from . import _core

    if args.device:
        # The device type is a runtime setting too: kernels launch on it.
        try:
            _core.set_device_type(args.device)
        except (ValueError, _core.AccError) as e:
            print(f"accjit: --device {args.device}: {e}", file=sys.stderr)
            sys.exit(2)


def _info() -> int:
    import accjit as acc

    print(f"accjit {acc.__version__} ({acc._core.ENGINE_VERSION})")
    print("device types:")
    current = acc.get_device_type()
    for d in acc.device_types():
        mark = "  (current)" if d == current else ""
        print(f"  {d}{mark}")
    print(f"threads: {acc.get_num_threads()} (CPU count {os.cpu_count()})")
    print("back ends: cranelift (host code and multicore kernels), ptx (nvidia kernels)")
    print(f"nvidia devices: {acc.get_num_devices('nvidia')}")
    for var in ("ACC_DEVICE_TYPE", "ACC_DEVICE_NUM", "ACCJIT_NUM_THREADS", "ACC_NUM_CORES"):
        if os.environ.get(var):
            print(f"{var}={os.environ[var]}")
    return 0


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.cmd is None:
        _parser().print_help()
        return 2
    if args.cmd == "info":
        return _info()
    if args.cmd == "clif":
        m = _compile(args, keep_clif=True)
        sys.stdout.write(m.clif())
        return 0
    if args.cmd == "ptx":
        from . import _core
        from ._cmodule import _normalize_defines

        if _core.is_fortran_file(args.file):
            try:
                out = _core.ptx_text_fortran(
                    _fortran_sources([args.file, *args.more]),
                    defines=_normalize_defines(args.defines),
                    undefines=args.undefines,
                    include_dirs=args.include_dirs,
                )
            except _core.CompileError as e:
                sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
                return 1
            sys.stdout.write(out)
            return 0
        if args.more:
            print(f"accjit: {args.file}: one C source file at a time (more files are Fortran only)", file=sys.stderr)
            return 2
        try:
            with open(args.file, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            print(f"accjit: cannot read {args.file}: {e.strerror}", file=sys.stderr)
            return 2
        try:
            out = _core.ptx_text(text, name=args.file, defines=_normalize_defines(args.defines), undefines=args.undefines, include_dirs=args.include_dirs)
        except _core.CompileError as e:
            sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
            return 1
        sys.stdout.write(out)
        return 0
    if args.cmd == "ir":
        m = _compile(args)
        sys.stdout.write(m.ir())
        return 0
    if args.cmd == "run":
        files, prog_args = _split_fortran_files(args.file, args.args)
        m = _compile(args, files=files)
        if prog_args and prog_args[0] == "--":
            prog_args = prog_args[1:]
        if args.info or os.environ.get("ACCJIT_INFO", "") not in ("", "0"):
            from ._report import Report

            print(Report(m.report()), file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            # Not hosted: exit(), abort() and runtime errors end this process,
            # with the program's status, as for a compiled C program.
            status = m.run_main([args.file, *prog_args], hosted=False)
        except KeyboardInterrupt:
            print("accjit: interrupted", file=sys.stderr)
            return 130
        except RuntimeError as e:
            print(f"accjit: {e}", file=sys.stderr)
            return 1
        return status & 0xFF
    return 2


if __name__ == "__main__":
    sys.exit(main())
