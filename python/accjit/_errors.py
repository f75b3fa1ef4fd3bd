"""The exceptions accjit raises (all defined in the compiled core).

- ``CompileError``: a source failed to compile (``.file``, ``.line``, ``.col``,
  ``.rendered``).
- ``AccError``: an OpenACC runtime error (``.code``, ``.code_name``, ``.var``,
  ``.host_range``, ``.loc``), raised by the data API and by a C function whose
  program hit a runtime error; one subclass per common ``acc_error_*`` code.
- ``ProgramExit`` (``RuntimeError``): a called C function ran ``exit(code)``;
  ``.code`` is the status. ``ProgramAbort`` (``RuntimeError``): it called
  ``abort()`` or an ``assert`` failed; ``.message`` says which.

A C program that ends early this way ends only itself: the Python process,
the runtime and the present table go on (the structured data regions the
call had entered are released; ``enter data`` references stay).
"""

from ._core import (  # noqa: F401
    AccError,
    CompileError,
    DeviceTypeUnavailableError,
    InvalidArgumentError,
    InvalidAsyncError,
    InvalidNullPointerError,
    NotPresentError,
    OutOfMemoryError,
    PartlyPresentError,
    ProgramAbort,
    ProgramExit,
)

__all__ = [
    "CompileError",
    "AccError",
    "NotPresentError",
    "PartlyPresentError",
    "InvalidAsyncError",
    "InvalidArgumentError",
    "InvalidNullPointerError",
    "OutOfMemoryError",
    "DeviceTypeUnavailableError",
    "ProgramExit",
    "ProgramAbort",
]
