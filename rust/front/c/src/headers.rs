//! The C headers accjit ships (`rust/front/c/include/*.h`, embedded at build
//! time): `#include <stdio.h>` resolves here when no `-I` directory has the
//! file. Declarations follow glibc's x86-64 LP64 ABI because calls bind to the
//! process's own libc and libm (via dlsym) at JIT-link time.
//!
//! # Builtins the headers use (the parser must implement these)
//!
//! | builtin | used by | meaning |
//! |---|---|---|
//! | `__builtin_inff()` | math.h `INFINITY`, `HUGE_VALF` | `float` +infinity |
//! | `__builtin_huge_val()` | math.h `HUGE_VAL`, `HUGE_VALL` | `double` +infinity |
//! | `__builtin_nanf("")` | math.h `NAN` | `float` quiet NaN (the argument is always `""`) |
//! | `__builtin_isnan(x)` | math.h `isnan`, `fpclassify`, `isunordered` | `int`, any floating `x` |
//! | `__builtin_isinf(x)` | math.h `isinf`, `fpclassify` | `int`: nonzero for ±inf |
//! | `__builtin_isfinite(x)` | math.h `isfinite` | `int` |
//! | `__builtin_isnormal(x)` | math.h `isnormal`, `fpclassify` | `int` |
//! | `__builtin_signbit(x)` | math.h `signbit` | `int`: nonzero when the sign bit is set |
//! | `__builtin_offsetof(type, member)` | stddef.h `offsetof` | `size_t` constant; `member` may be `a.b` or `a[2]` |
//! | `__builtin_creal(z)`, `__builtin_cimag(z)` | complex.h `creal*`, `cimag*` | the part, in `z`'s element type |
//! | `__builtin_conj(z)` | complex.h `conj*` | complex conjugate, `z`'s type |
//! | `__builtin_complex_i()` | complex.h `_Complex_I`, `I` | `float _Complex` 0+1i |
//! | `__builtin_va_start(ap, last)`, `__builtin_va_arg(ap, type)`, `__builtin_va_end(ap)`, `__builtin_va_copy(d, s)` | stdarg.h | on accjit's `va_list` (`struct __accjit_va_list[1]`, declared by stdarg.h and stdio.h; see `parse/varargs.rs`) |
//! | `_Alignas` | stdalign.h `alignas` | up to the type's own alignment |
//!
//! Other things the headers need from the parser: `_Complex` (complex.h),
//! `_Bool` (stdbool.h), `_Static_assert` (assert.h's `static_assert`, only if
//! used), `enum` with negative values (openacc.h's `acc_device_current`),
//! unions and function-pointer typedefs (openacc.h's profiling interface).
//!
//! # Functions the runtime must provide
//!
//! `__accjit_assert_fail(const char *expr, const char *file, int line)` (assert.h),
//! every routine of openacc.h, the routines of omp.h, the variadic shims for
//! printf & co., open and fcntl, and the `vprintf` family on accjit's `va_list`.
//! Everything else is libc/libm. Notes for the back end: complex.h functions
//! pass `double _Complex` in two SSE registers and `float _Complex` packed in
//! one (x86-64 SysV); stdlib.h's `div`/`ldiv` return small structs in
//! registers; math.h maps every `*l` function to its double version because
//! accjit's `long double` is `double` (libm's `*l` expect x87 80-bit values).

/// Name and contents of each bundled header.
const HEADERS: &[(&str, &str)] = &[
    ("assert.h", include_str!("../include/assert.h")),
    ("complex.h", include_str!("../include/complex.h")),
    ("ctype.h", include_str!("../include/ctype.h")),
    ("errno.h", include_str!("../include/errno.h")),
    ("fcntl.h", include_str!("../include/fcntl.h")),
    ("float.h", include_str!("../include/float.h")),
    ("inttypes.h", include_str!("../include/inttypes.h")),
    ("iso646.h", include_str!("../include/iso646.h")),
    ("limits.h", include_str!("../include/limits.h")),
    ("locale.h", include_str!("../include/locale.h")),
    ("math.h", include_str!("../include/math.h")),
    ("omp.h", include_str!("../include/omp.h")),
    ("openacc.h", include_str!("../include/openacc.h")),
    ("sched.h", include_str!("../include/sched.h")),
    ("setjmp.h", include_str!("../include/setjmp.h")),
    ("signal.h", include_str!("../include/signal.h")),
    ("stdalign.h", include_str!("../include/stdalign.h")),
    ("stdarg.h", include_str!("../include/stdarg.h")),
    ("stdbool.h", include_str!("../include/stdbool.h")),
    ("stddef.h", include_str!("../include/stddef.h")),
    ("stdint.h", include_str!("../include/stdint.h")),
    ("stdio.h", include_str!("../include/stdio.h")),
    ("stdlib.h", include_str!("../include/stdlib.h")),
    ("stdnoreturn.h", include_str!("../include/stdnoreturn.h")),
    ("string.h", include_str!("../include/string.h")),
    ("sys/resource.h", include_str!("../include/sys/resource.h")),
    ("sys/stat.h", include_str!("../include/sys/stat.h")),
    ("sys/time.h", include_str!("../include/sys/time.h")),
    ("sys/types.h", include_str!("../include/sys/types.h")),
    ("tgmath.h", include_str!("../include/tgmath.h")),
    ("time.h", include_str!("../include/time.h")),
    ("unistd.h", include_str!("../include/unistd.h")),
    ("wchar.h", include_str!("../include/wchar.h")),
];

/// The text of bundled header `name` (as written in `#include <name>`).
pub fn bundled(name: &str) -> Option<&'static str> {
    HEADERS.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// The names of all bundled headers, sorted.
pub fn names() -> Vec<&'static str> {
    HEADERS.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup() {
        assert!(bundled("stdio.h").unwrap().contains("typedef struct _IO_FILE FILE;"));
        assert!(bundled("sys/time.h").unwrap().contains("gettimeofday"));
        assert!(bundled("nosuch.h").is_none());
        let n = names();
        assert!(n.windows(2).all(|w| w[0] < w[1]), "sorted");
        for h in ["stdio.h", "stdlib.h", "math.h", "time.h", "string.h", "limits.h", "float.h", "complex.h", "stdbool.h", "stddef.h", "stdint.h", "openacc.h"] {
            assert!(n.contains(&h), "{} missing", h);
        }
    }
}
