"""Runtime settings: the device type new compilations target, the multicore
thread count, the number of devices of a type and the device types this build
can compile for. The data API (``acc.copyin``, ``acc.data``, waits, device
selection, …) is in ``_data``."""

from __future__ import annotations

from . import _core
from ._core import (  # noqa: F401
    get_device_type,
    get_num_devices,
    get_num_threads,
    set_device_type,
    set_num_threads,
)

__all__ = [
    "set_device_type",
    "get_device_type",
    "set_num_threads",
    "get_num_threads",
    "get_num_devices",
    "device_types",
]


def device_types() -> list:
    """Device types this build can compile for."""
    return list(_core.DEVICE_TYPES)
