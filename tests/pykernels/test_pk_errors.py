"""Errors: what cannot be compiled is refused with acc.CompileError naming this file
and the offending line (with the source line shown), and words that name the construct
or the thing at fault; bad arguments are a TypeError from the dispatcher; runtime data
errors are acc.AccError subclasses. After each error the process goes on: a plain
kernel still compiles and runs (mirrors tests/conformance/errors/).

Each kernel is defined inside its test (an error found when decorating must not break
the module's import), its offending line marked with `# ERR`."""

import numpy as np
import pytest

from pkutil import acc, assert_process_lives_on, compile_error, line_of, rand

GLOBAL_ARRAY = np.arange(10.0)


def plain_python_helper(v):
    return v + 1


def x10():
    return np.arange(1.0, 11.0)


# ---- unsupported constructs ----

def test_lambda():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            f = lambda v: v + 1  # ERR  # noqa: E731
            x[i] = f(x[i])

    compile_error(lambda: k(x10()), k, "# ERR", "lambda")


def test_list_creation():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            t = [x[i], 2.0]  # ERR
            x[i] = t[0]

    compile_error(lambda: k(x10()), k, "# ERR", "list")


def test_dict_creation():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            t = {"a": x[i]}  # ERR
            x[i] = t["a"]

    compile_error(lambda: k(x10()), k, "# ERR", "dict")


def test_set_creation():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            t = {x[i], 2.0}  # ERR
            x[i] = len(t)

    compile_error(lambda: k(x10()), k, "# ERR", "set")


def test_comprehension():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            t = [j * 2 for j in range(3)]  # ERR
            x[i] = t[0]

    compile_error(lambda: k(x10()), k, "# ERR", "comprehension")


def test_try_except():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            try:  # ERR
                x[i] = 1.0 / x[i]
            except ZeroDivisionError:
                x[i] = 0.0

    compile_error(lambda: k(x10()), k, "# ERR", "try")


def test_with_other_than_acc():
    @acc.jit
    def k(x):
        with open("/dev/null") as f:  # ERR
            x[0] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "with")


def test_global_statement():
    @acc.parallel
    def k(x):
        global GLOBAL_ARRAY  # ERR
        for i in acc.loop(x.shape[0]):
            x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "global")


def test_class_definition():
    @acc.jit
    def k(x):
        class Point:  # ERR
            pass
        x[0] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "class")


def test_yield():
    def make():
        @acc.jit
        def k(x):
            for i in range(x.shape[0]):
                yield x[i]  # ERR
        return k

    decorator_error(make, "# ERR", "yield")


def test_f_string():
    @acc.jit
    def k(x):
        s = f"{x[0]}"  # ERR
        x[0] = len(s)

    compile_error(lambda: k(x10()), k, "# ERR", "string")


def test_method_call_on_array():
    @acc.parallel
    def k(x, y):
        for i in acc.loop(x.shape[0]):
            y[i] = x.sum()  # ERR

    compile_error(lambda: k(x10(), x10()), k, "# ERR", "sum")


# ---- indexing ----

def test_negative_literal_index():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x[-1]  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "negative")


def test_slice_in_kernel():
    @acc.parallel
    def k(x, y):
        for i in acc.loop(1, x.shape[0]):
            y[i] = x[0:i]  # ERR

    compile_error(lambda: k(x10(), x10()), k, "# ERR", "slic")


def test_too_many_indices():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i, 0] = 1.0  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "ind")


def test_too_few_indices():
    @acc.parallel
    def k(a, y):
        for i in acc.loop(a.shape[0]):
            y[i] = a[i]  # ERR

    compile_error(lambda: k(np.ones((10, 3)), x10()), k, "# ERR", "ind")


def test_float_index():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i * 0.5]  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "int")


# ---- names and calls ----

def test_unknown_name():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = undefined_thing_42 * 2.0  # ERR  # noqa: F821

    compile_error(lambda: k(x10()), k, "# ERR", "undefined_thing_42")


def test_call_of_a_plain_python_function():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = plain_python_helper(x[i])  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "plain_python_helper", "routine")


def test_call_of_a_compute_function_from_a_kernel():
    @acc.parallel
    def inner(x):
        for i in acc.loop(x.shape[0]):
            x[i] = 0.0

    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = 1.0
        inner(x)  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "inner", "routine")


def test_global_array_must_be_an_argument():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = GLOBAL_ARRAY[i]  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "GLOBAL_ARRAY", "argument")


def test_unknown_math_function():
    import math

    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = math.nosuchfunction(x[i])  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "nosuchfunction")


def test_unknown_attribute():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x.nosuchattr  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "nosuchattr")


def test_routine_wrong_argument_count():
    @acc.routine
    def two(a, b):
        return a + b

    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = two(x[i])  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "two")


# ---- types ----

def test_write_to_read_only_array():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = 1.0  # ERR

    x = x10()
    x.flags.writeable = False
    compile_error(lambda: k(x), k, "# ERR", "x", "read")
    np.testing.assert_array_equal(x, x10())


def test_float_into_int_local_names_both_types():
    @acc.parallel
    def k(x, y):
        for i in acc.loop(x.shape[0]):
            s = 0
            s = x[i] * 0.5  # ERR
            y[i] = s

    compile_error(lambda: k(x10(), x10()), k, "# ERR", "int64", "float64", "s")


def test_complex_into_float_local():
    @acc.parallel
    def k(x, z):
        for i in acc.loop(x.shape[0]):
            t = x[i]
            t = z[i] * 2.0  # ERR
            x[i] = t

    compile_error(lambda: k(x10(), np.ones(10, dtype=np.complex128)), k, "# ERR", "complex128", "float64")


def test_complex_into_float_array():
    @acc.parallel
    def k(x, z):
        for i in acc.loop(x.shape[0]):
            x[i] = z[i]  # ERR

    compile_error(lambda: k(x10(), np.ones(10, dtype=np.complex128)), k, "# ERR", "complex")


def test_return_of_a_region_local():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            inside = x[i]
        return inside  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "inside")


def test_bitwise_on_floats():
    @acc.parallel
    def k(x, y):
        for i in acc.loop(x.shape[0]):
            y[i] = x[i] & 1  # ERR

    compile_error(lambda: k(x10(), x10()), k, "# ERR", "&")


# ---- directive errors ----

def test_seq_with_gang():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0], seq=True, gang=True):  # ERR
            x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "gang")


def test_collapse_deeper_than_the_nest():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0], collapse=2):  # ERR
            x[i] = 1.0

    e = compile_error(lambda: k(x10()), k, "# ERR", "collapse")
    assert e is not None


def test_unknown_loop_clause():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0], vectr=4):  # ERR
            x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "vectr")


def test_unknown_reduction_operator():
    @acc.parallel
    def k(x):
        s = 0.0
        for i in acc.loop(x.shape[0], reduction={"%": "s"}):  # ERR
            s += x[i]
        return s

    compile_error(lambda: k(x10()), k, "# ERR", "reduction")


def test_reduction_of_an_unknown_variable():
    @acc.parallel
    def k(x):
        s = 0.0
        for i in acc.loop(x.shape[0], reduction={"+": "nosuchvar"}):  # ERR
            s += x[i]
        return s

    compile_error(lambda: k(x10()), k, "# ERR", "nosuchvar")


def test_acc_loop_outside_a_for():
    @acc.parallel
    def k(x):
        r = acc.loop(x.shape[0])  # ERR
        for i in r:
            x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "loop")


def test_atomic_wrong_arguments():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            acc.atomic.add(x, i)  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "atomic")


def decorator_error(make, fn_marker_src, *words):
    """A bad decorator clause: refused when decorating (TypeError/ValueError naming it)
    or at the first call (CompileError at the def line)."""
    try:
        k = make()
    except (TypeError, ValueError) as e:
        for w in words:
            assert w.lower() in str(e).lower(), str(e)
        assert_process_lives_on()
        return
    compile_error(lambda: k(x10()), k, fn_marker_src, *words)


def test_num_gangs_on_serial():
    def make():
        @acc.serial(num_gangs=4)
        def k(x):  # ERR
            for i in range(x.shape[0]):
                x[i] = 1.0
        return k

    decorator_error(make, "# ERR", "num_gangs")


def test_unknown_decorator_clause():
    def make():
        @acc.parallel(num_gang=4)
        def k(x):  # ERR
            for i in acc.loop(x.shape[0]):
                x[i] = 1.0
        return k

    decorator_error(make, "# ERR", "num_gang")


def test_default_none_with_unlisted_array():
    @acc.parallel(default="none")
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = 1.0  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "x", "default")



# ---- clause and nesting rules (mirror tests/conformance/errors/) ----

def test_device_type_group_with_a_data_clause():
    def make():
        @acc.parallel(device_type={"*": {"copy": ["x"]}})  # ERR: reported at the decorator's clause
        def k(x):
            for i in acc.loop(x.shape[0]):
                x[i] = 1.0
        return k

    decorator_error(make, "# ERR", "copy", "device type")


def test_tile_size_not_a_constant():
    @acc.parallel
    def k(x, n):
        for i in acc.loop(x.shape[0], tile=(n,)):  # ERR
            x[i] = 1.0

    compile_error(lambda: k(x10(), 3), k, "# ERR", "tile", "constant")


def test_update_directive_inside_a_region():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            acc.update_self(x)  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "update_self", "compute region")


def test_gang_loop_inside_a_gang_loop():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0], gang=True):
            for j in acc.loop(3, gang=True):  # ERR
                x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "gang", "nested")


def test_gang_loop_inside_a_vector_loop():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0], vector=True):
            for j in acc.loop(3, gang=True):  # ERR
                x[i] = 1.0

    compile_error(lambda: k(x10()), k, "# ERR", "level")


def test_gang_loop_in_a_vector_routine():
    @acc.routine("vector")
    def fill_row(x, i):
        for j in acc.loop(3, gang=True):  # ERR
            x[i] = 1.0

    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            fill_row(x, i)

    compile_error(lambda: k(x10()), fill_row, "# ERR", "gang", "routine vector")


def test_async_queue_not_an_integer():
    @acc.jit
    def k(x):
        acc.wait(async_=1.5)  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "async_", "integer", "float64")


def test_atomic_capture_block_of_one_statement():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            with acc.atomic("capture"):
                x[i] += 1  # ERR

    compile_error(lambda: k(x10()), k, "# ERR", "capture", "two statements")


def test_returning_the_loop_variable():
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = 1.0
        return i  # ERR

    e = compile_error(lambda: k(x10()), k, "# ERR", "`i`", "inside the compute region", "initialise it")
    assert f":{line_of(k, 'for i in')}:" in e.rendered  # the note points at the first assignment


def test_atomic_on_a_float16_array():
    @acc.parallel
    def k(x, h):
        for i in acc.loop(x.shape[0]):
            acc.atomic.add(h, 0, x[i])  # ERR

    compile_error(lambda: k(x10(), np.zeros(1, np.float16)), k, "# ERR", "float16", "atomic")

# ---- argument errors (the dispatcher) ----

@pytest.mark.parametrize("bad", ["object", "str", "datetime"])
def test_unsupported_array_dtypes(bad):
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            x[i] = x[i]

    arr = {"float16": np.ones(4, dtype=np.float16), "object": np.array([1, "a", None, 2.0], dtype=object),
           "str": np.array(["a", "b"]), "datetime": np.array(["2020-01-01"], dtype="datetime64[D]")}[bad]
    with pytest.raises(TypeError) as e:
        k(arr)
    assert (bad if bad != "str" else "<U") in str(e.value) or str(arr.dtype) in str(e.value)
    assert_process_lives_on()


def test_string_and_none_arguments():
    @acc.parallel
    def k(x, a):
        for i in acc.loop(x.shape[0]):
            x[i] = a

    with pytest.raises(TypeError):
        k(x10(), "abc")
    with pytest.raises(TypeError):
        k(x10(), None)
    assert_process_lives_on()


def test_wrong_argument_count():
    @acc.parallel
    def k(x, a):
        for i in acc.loop(x.shape[0]):
            x[i] = a

    with pytest.raises(TypeError):
        k(x10())
    with pytest.raises(TypeError):
        k(x10(), 1.0, 2.0)
    x = x10()
    k(x, 3.0)
    np.testing.assert_array_equal(x, np.full(10, 3.0))


def test_error_then_same_kernel_with_good_types_compiles(rng):
    @acc.parallel
    def k(x, y):
        for i in acc.loop(x.shape[0]):
            y[i] = x[i] // 2

    with pytest.raises((acc.CompileError, TypeError)):
        k(np.ones(4, dtype=np.complex128), np.ones(4, dtype=np.complex128))  # // of complex
    x = rand(rng, 50, "int64")
    y = np.zeros_like(x)
    k(x, y)
    np.testing.assert_array_equal(y, x // 2)


def test_error_location_line_is_exact():
    """The line reported is the offending one, not the def or the loop."""
    @acc.parallel
    def k(x):
        for i in acc.loop(x.shape[0]):
            a = x[i]
            b = a * 2.0
            x[i] = b + nope_name  # ERR  # noqa: F821

    e = compile_error(lambda: k(x10()), k, "# ERR", "nope_name")
    assert getattr(e, "line", line_of(k, "# ERR")) == line_of(k, "# ERR")
    assert "x[i] = b + nope_name" in (getattr(e, "rendered", "") or str(e))
