"""The Python-kernel conformance suite (issue 10): shared fixtures and helpers.

Every test here runs once per device type of the selected set, with
``acc.set_device_type(device)`` around it (the dispatcher keys its
specialisations on the device current at call time):

    ACCJIT_PYKERNELS_DEVICES   comma list (default: $ACC_DEVICE_TYPE if set,
                               else "multicore,host,nvidia")

``nvidia`` runs only where ``acc.get_num_devices("nvidia") > 0``; elsewhere its
cases are skipped. Without the decorators (a build of accjit that predates
Python kernels) the whole suite is skipped.

Inputs are random (``np.random.default_rng(seed)``), never all zeros; results
are compared with NumPy or with the same function run as plain Python
(``fn.py_func``), never with hard-coded values.
"""

import os

import numpy as np
import pytest

acc = pytest.importorskip("accjit")




def selected_devices():
    env = os.environ.get("ACCJIT_PYKERNELS_DEVICES") or os.environ.get("ACC_DEVICE_TYPE")
    if env:
        return [d.strip() for d in env.split(",") if d.strip()]
    return ["multicore", "host", "nvidia"]


@pytest.fixture(params=selected_devices(), autouse=True)
def device(request):
    """The device type every kernel of the test is compiled for and runs on."""
    dev = request.param
    if dev == "nvidia" and acc.get_num_devices("nvidia") == 0:
        pytest.skip("no nvidia device")
    old = acc.get_device_type()
    acc.set_device_type(dev)
    try:
        yield dev
    finally:
        acc.wait()
        acc.set_device_type(old)


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: random, never zeros, reproducible."""
    seed = sum(map(ord, request.node.originalname or request.node.name)) * 7919 % (2**31)
    return np.random.default_rng(seed)

