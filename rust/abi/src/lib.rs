//! The runtime ABI in one table: the `__accjit_*` entry points generated
//! code calls (names and signatures), the data-clause kind numbers and flag
//! bits they take, and the `acc_device_t` codes (docs/runtime-abi.md).
//!
//! `lower` declares its runtime externs from [`ENTRY_POINTS`], the Cranelift
//! back end types its own runtime calls from it, the runtime takes its
//! clause kinds, flags and device codes from here, and tests check that the
//! runtime's `extern "C"` definitions and the bundled `openacc.h` agree.
//! A crate of its own with no dependencies, so that the runtime need not
//! depend on the IR, nor any compiler stage on the runtime.

#![allow(non_upper_case_globals)]

/// The C type of one parameter or result of an entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbiType {
    Void,
    I64,
    /// `void *` (any data pointer the runtime does not read as `i64`s).
    Ptr,
    /// `void **` (attach/detach: the address of a pointer).
    PtrPtr,
    /// `i64 *` (arrays of `i64`: queues, deep-section levels).
    I64Ptr,
    /// `const char *` (NUL-terminated; `name`, `loc`, device-type lists).
    CStr,
    /// `double` (only in [`FORTRAN_ENTRY_POINTS`]: [`ENTRY_POINTS`] are all
    /// 64-bit integer registers).
    F64,
}

/// One runtime entry point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntryPoint {
    pub name: &'static str,
    pub params: &'static [AbiType],
    pub ret: AbiType,
}

use AbiType::*;

const fn entry(name: &'static str, params: &'static [AbiType], ret: AbiType) -> EntryPoint {
    EntryPoint { name, params, ret }
}

/// `kind, addr, bytes, flags, async, name, loc`
const DATA: &[AbiType] = &[I64, Ptr, I64, I64, I64, CStr, CStr];
/// `ptr_addr, flags, async, name, loc`
const ATTACH: &[AbiType] = &[PtrPtr, I64, I64, CStr, CStr];
/// `device_types, devnum, loc`
const INIT: &[AbiType] = &[CStr, I64, CStr];

/// Every runtime entry point generated code calls with a fixed signature
/// (the `__accjit_va_*` printf/scanf shims take the C function's own
/// parameters and are typed from its declaration instead).
pub const ENTRY_POINTS: &[EntryPoint] = &[
    // slot, args, nargs, num_gangs, num_workers, vector_length, async, wait, nwait, flags, loc
    entry("__accjit_launch", &[Ptr, Ptr, I64, I64, I64, I64, I64, I64Ptr, I64, I64, CStr], Void),
    entry("__accjit_data_enter", DATA, Void),
    entry("__accjit_data_exit", DATA, Void),
    // op, kind, base, nlevels, lowers, lengths, sizes, flags, async, name, loc
    entry("__accjit_deep", &[I64, I64, Ptr, I64, I64Ptr, I64Ptr, I64Ptr, I64, I64, CStr, CStr], Void),
    // to_device, addr, bytes, flags, async, name, loc
    entry("__accjit_update", &[I64, Ptr, I64, I64, I64, CStr, CStr], Void),
    // addr, if_present, name, loc
    entry("__accjit_use_device", &[Ptr, I64, CStr, CStr], Ptr),
    entry("__accjit_attach", ATTACH, Void),
    entry("__accjit_detach", ATTACH, Void),
    // devnum, queues, n, async, loc
    entry("__accjit_wait", &[I64, I64Ptr, I64, I64, CStr], Void),
    entry("__accjit_init", INIT, Void),
    entry("__accjit_shutdown", INIT, Void),
    // device_types, devnum, default_async, loc
    entry("__accjit_set", &[CStr, I64, I64, CStr], Void),
    entry("__accjit_lock", &[], Void),
    entry("__accjit_unlock", &[], Void),
    // bytes
    entry("__accjit_alloca", &[I64], Ptr),
    entry("__accjit_stack_mark", &[], I64),
    entry("__accjit_stack_release", &[I64], Void),
];

/// The entry point called `name`.
pub fn entry_point(name: &str) -> Option<&'static EntryPoint> {
    ENTRY_POINTS.iter().find(|e| e.name == name)
}

// --- Fortran runtime ---------------------------------------------------------

/// `unit, fmt, fmt_len, loc`: `unit` 6 (or -1, `*`) is stdout, 0 stderr, 5
/// stdin; a null `fmt` or `fmt_len` 0 is list-directed (`print *`,
/// `write(*,*)`), else `fmt` is the format's text with its parentheses
/// (`(I5, F8.3)`), not NUL-terminated.
const F_IO_BEGIN: &[AbiType] = &[I64, Ptr, I64, CStr];
/// `buf, buf_len, fmt, fmt_len, loc`: internal I/O on a character variable.
const F_IO_BEGIN_INTERNAL: &[AbiType] = &[Ptr, I64, Ptr, I64, CStr];

/// The Fortran runtime library: I/O statements, `stop`, and the intrinsic
/// subroutines with state (docs/fortran.md). Separate from [`ENTRY_POINTS`]
/// because these take `double`s; the front end declares each as an
/// ordinary extern with this signature (IR `i64`/`f64`/pointers) and the
/// JIT resolves it by name like every runtime symbol.
///
/// One I/O statement is a `*_begin`, its options (`__accjit_f_io_*`), one
/// call per item (in order), then `*_end`, all on the same thread (an item
/// may itself do I/O: statements nest); `*_end` returns the statement's
/// `iostat` (0, -1 end of file, > 0 an error, gfortran's numbers). Unless
/// the statement called `__accjit_f_io_iostat` (it has `iostat=`), an error
/// (a bad format, unreadable input, end of file) ends the program with
/// gfortran's message and exit status 2, as gfortran does; after an error
/// the statement's remaining items are ignored.
/// `kind_bytes` is the item's kind (1, 2, 4, 8 for integers and logicals;
/// 4 or 8 for reals and complex: a `real(4)` value is passed widened to
/// `double` and printed with `float`'s precision).
pub const FORTRAN_ENTRY_POINTS: &[EntryPoint] = &[
    entry(F_WRITE_BEGIN, F_IO_BEGIN, Void),
    entry(F_WRITE_BEGIN_INTERNAL, F_IO_BEGIN_INTERNAL, Void),
    // v, kind_bytes
    entry(F_WRITE_I64, &[I64, I64], Void),
    entry(F_WRITE_F64, &[F64, I64], Void),
    // re, im, kind_bytes
    entry(F_WRITE_C64, &[F64, F64, I64], Void),
    // v (nonzero: .true.), kind_bytes
    entry(F_WRITE_LOGICAL, &[I64, I64], Void),
    // p, len
    entry(F_WRITE_STR, &[Ptr, I64], Void),
    // -> iostat
    entry(F_WRITE_END, &[], I64),
    entry(F_READ_BEGIN, F_IO_BEGIN, Void),
    entry(F_READ_BEGIN_INTERNAL, F_IO_BEGIN_INTERNAL, Void),
    // p (an integer of kind_bytes), kind_bytes
    entry(F_READ_I64, &[Ptr, I64], Void),
    // p (a real of kind_bytes), kind_bytes
    entry(F_READ_F64, &[Ptr, I64], Void),
    // p (two reals of kind_bytes), kind_bytes
    entry(F_READ_C64, &[Ptr, I64], Void),
    // p (a logical of kind_bytes), kind_bytes
    entry(F_READ_LOGICAL, &[Ptr, I64], Void),
    // p, len (blank-padded)
    entry(F_READ_STR, &[Ptr, I64], Void),
    // -> iostat
    entry(F_READ_END, &[], I64),
    // Statement options between `*_begin` and the first item:
    // `advance='no'` (no record end at `*_end`).
    entry(F_IO_NONADVANCING, &[], Void),
    // `iostat=` (also `err=`/`end=`): errors do not end the program, `*_end` returns them.
    entry(F_IO_IOSTAT, &[], Void),
    // op ("open", "close", "rewind", "backspace", "endfile", "flush"), unit, loc:
    // a file-positioning or connection statement begins (units.rs in the runtime)
    entry(F_FILEOP_BEGIN, &[CStr, I64, CStr], Void),
    // key (lower case: file, status, action, position, form, access, newunit...), val, val_len
    entry(F_FILEOP_SPEC, &[CStr, Ptr, I64], Void),
    // wants_iostat -> iostat (without iostat=, an error ends the program as gfortran's)
    entry(F_FILEOP_END, &[I64], I64),
    // -> the unit the last open connected (`newunit=`)
    entry(F_FILEOP_UNIT, &[], I64),
    // code, quiet, is_error, msg, msg_len: `stop`/`error stop` with an
    // integer code (msg null), a message (msg, msg_len), or neither (msg
    // null, msg_len -1: `stop` exits 0 silently); never returns.
    entry(F_STOP, &[I64, I64, I64, Ptr, I64], Void),
    // msg, msg_len, loc: a run-time error of the Fortran program (an
    // allocate of an allocated array...): gfortran's `At line N of file F` /
    // `Fortran runtime error: msg` on stderr, exit status 2; never returns.
    entry(F_RUNTIME_ERROR, &[Ptr, I64, CStr], Void),
    // -> the number of command arguments (`command_argument_count()`)
    entry(F_COMMAND_ARGUMENT_COUNT, &[], I64),
    // n, value (null or value_len bytes, blank-padded), value_len, length (null or an
    // i32), status (null or an i32: 0, -1 value too short, 1 no such argument):
    // `get_command_argument(n [, value] [, length] [, status])`; argument 0 is the program
    entry(F_GET_COMMAND_ARGUMENT, &[I64, Ptr, I64, Ptr, Ptr], Void),
    // p (n reals of kind_bytes), n, kind_bytes: uniform in [0, 1)
    entry(F_RANDOM_NUMBER, &[Ptr, I64, I64], Void),
    // size_out (null or an i32), put (null or put_n i32s), put_n, get (null or get_n i32s), get_n
    entry(F_RANDOM_SEED, &[Ptr, Ptr, I64, Ptr, I64], Void),
    // out (a real of kind_bytes), kind_bytes
    entry(F_CPU_TIME, &[Ptr, I64], Void),
    // count, count_kind, rate, rate_kind, max, max_kind: each pointer null
    // when absent; kinds are integer kinds 4/8, or -4/-8 for a real `count_rate`
    entry(F_SYSTEM_CLOCK, &[Ptr, I64, Ptr, I64, Ptr, I64], Void),
];

pub const F_WRITE_BEGIN: &str = "__accjit_f_write_begin";
pub const F_WRITE_BEGIN_INTERNAL: &str = "__accjit_f_write_begin_internal";
pub const F_WRITE_I64: &str = "__accjit_f_write_i64";
pub const F_WRITE_F64: &str = "__accjit_f_write_f64";
pub const F_WRITE_C64: &str = "__accjit_f_write_c64";
pub const F_WRITE_LOGICAL: &str = "__accjit_f_write_logical";
pub const F_WRITE_STR: &str = "__accjit_f_write_str";
pub const F_WRITE_END: &str = "__accjit_f_write_end";
pub const F_READ_BEGIN: &str = "__accjit_f_read_begin";
pub const F_READ_BEGIN_INTERNAL: &str = "__accjit_f_read_begin_internal";
pub const F_READ_I64: &str = "__accjit_f_read_i64";
pub const F_READ_F64: &str = "__accjit_f_read_f64";
pub const F_READ_C64: &str = "__accjit_f_read_c64";
pub const F_READ_LOGICAL: &str = "__accjit_f_read_logical";
pub const F_READ_STR: &str = "__accjit_f_read_str";
pub const F_READ_END: &str = "__accjit_f_read_end";
pub const F_IO_NONADVANCING: &str = "__accjit_f_io_nonadvancing";
pub const F_IO_IOSTAT: &str = "__accjit_f_io_iostat";
pub const F_FILEOP_BEGIN: &str = "__accjit_f_fileop_begin";
pub const F_FILEOP_SPEC: &str = "__accjit_f_fileop_spec";
pub const F_FILEOP_END: &str = "__accjit_f_fileop_end";
pub const F_FILEOP_UNIT: &str = "__accjit_f_fileop_unit";
pub const F_STOP: &str = "__accjit_f_stop";
pub const F_RUNTIME_ERROR: &str = "__accjit_f_runtime_error";
pub const F_COMMAND_ARGUMENT_COUNT: &str = "__accjit_f_command_argument_count";
pub const F_GET_COMMAND_ARGUMENT: &str = "__accjit_f_get_command_argument";
pub const F_RANDOM_NUMBER: &str = "__accjit_f_random_number";
pub const F_RANDOM_SEED: &str = "__accjit_f_random_seed";
pub const F_CPU_TIME: &str = "__accjit_f_cpu_time";
pub const F_SYSTEM_CLOCK: &str = "__accjit_f_system_clock";

/// The Fortran runtime entry point called `name`.
pub fn fortran_entry_point(name: &str) -> Option<&'static EntryPoint> {
    FORTRAN_ENTRY_POINTS.iter().find(|e| e.name == name)
}

/// `__accjit_launch`'s `flags` bit: the kernel runs on the calling thread
/// only (no gang parallelism).
pub const LAUNCH_LOCAL: i64 = 1;

/// `__accjit_set`'s `default_async` when the directive has no
/// `default_async` clause.
pub const SET_UNSET: i64 = i64::MIN;

/// How a kernel on a discrete device (the GPU) ends the program: `exit`,
/// `_Exit`/`_exit`, `abort` or a failed `assert` in device code record the
/// end in the module's global `SYMBOL` (the first to do so wins, by
/// compare-and-swap on `KIND`) and end their own thread; the runtime reads
/// the record when the launch has completed and ends the program with it,
/// as a gang of a multicore launch does. Layout (little endian):
pub mod device_end {
    /// The `.global` of the PTX module, `BYTES` long, zero-initialised.
    pub const SYMBOL: &str = "__accjit_end";
    pub const BYTES: usize = 32;
    /// u32: one of `NONE`, `EXIT`, `ABORT`, `ASSERT`.
    pub const KIND: usize = 0;
    /// i32: `exit`'s status.
    pub const CODE: usize = 4;
    /// u64: device address of a failed `assert`'s expression text.
    pub const EXPR: usize = 8;
    /// u64: device address of its file name.
    pub const FILE: usize = 16;
    /// i64: its line.
    pub const LINE: usize = 24;
    pub const NONE: u32 = 0;
    pub const EXIT: u32 = 1;
    pub const ABORT: u32 = 2;
    pub const ASSERT: u32 = 3;
}

/// How Fortran `print`/`write` in device code reaches the host from a
/// discrete device (the GPU): each call of a logged entry point
/// ([`LOGGED`](device_io_log::LOGGED)) appends a record to the module's
/// global `SYMBOL`, and the runtime, when the launch has completed, replays
/// the records through the same entry points on the host, each statement
/// (`*_begin` to its `*_end`) of one device thread together, so that the
/// bytes are the host's. A thread writes its records into a region of the
/// log it claimed (an atomic add on the header's `USED`): a statement's
/// `*_begin` claims a new one of `REGION` bytes (more for a larger record),
/// a record that does not fit in the rest claims another; the unused rest
/// of a region is a `PAD` record. A claim past `CAPACITY` fails: the
/// statement is dropped (`DROPPED` counts the statements whose `*_begin`
/// found no room; one cut later never has its `*_end`), so the statements
/// that fit come out whole. `*_end` returns 0 on the device (an error is
/// known only at the replay). Layout (little endian):
pub mod device_io_log {
    /// The `.global` header, `HEADER_BYTES` long, zero-initialised.
    pub const HEADER: &str = "__accjit_io_log_head";
    pub const HEADER_BYTES: usize = 16;
    /// u64: bytes claimed so far (runs past `CAPACITY` once a claim failed).
    pub const USED: usize = 0;
    /// u64: statements dropped for want of room.
    pub const DROPPED: usize = 8;
    /// The `.global` of the records, `CAPACITY` bytes.
    pub const SYMBOL: &str = "__accjit_io_log";
    pub const CAPACITY: usize = 16 << 20;
    /// Bytes a statement's first claim takes at least.
    pub const REGION: usize = 256;
    /// A record: u32 the entry (index in `LOGGED`, or `PAD`), u32 the
    /// record's bytes (a multiple of 8; 0 ends the records), u64 the device
    /// thread (linear block index << 32 | linear thread index in the
    /// block); then per parameter of the entry (`FORTRAN_ENTRY_POINTS`'
    /// signature): `I64`/`F64` 8 bytes of value bits; `Ptr` (the bytes of
    /// the `I64` length after it) and `CStr` (up to its NUL) a u64 byte
    /// count, then the bytes, zero-padded to 8. A `PAD` record is only its
    /// entry and size (at least 8 bytes): skipped.
    pub const RECORD_HEAD: usize = 16;
    pub const PAD: u32 = u32::MAX;
    /// Bytes of one text a record carries at most (longer ones are cut).
    pub const MAX_TEXT: usize = 4096;
    /// The entry points device code logs; a record's entry is an index in
    /// this list (append only: cached PTX holds the indices).
    pub const LOGGED: &[&str] = &[
        super::F_WRITE_BEGIN,
        super::F_WRITE_I64,
        super::F_WRITE_F64,
        super::F_WRITE_C64,
        super::F_WRITE_LOGICAL,
        super::F_WRITE_STR,
        super::F_WRITE_END,
        super::F_IO_NONADVANCING,
        super::F_IO_IOSTAT,
    ];
}

/// `__accjit_deep`'s `op`.
pub mod deep_op {
    pub const ENTER: i64 = 0;
    pub const EXIT: i64 = 1;
    pub const UPDATE_SELF: i64 = 2;
    pub const UPDATE_DEVICE: i64 = 3;
}

/// The `flags` bits of the data entry points.
pub mod flags {
    /// Data/compute construct or declare (else enter/exit data or the API).
    pub const STRUCTURED: i64 = 1;
    pub const FINALIZE: i64 = 2;
    pub const IF_PRESENT: i64 = 4;
    pub const READONLY: i64 = 8;
    pub const ZERO: i64 = 16;
}

/// The data-clause kind numbers (`kind` of `__accjit_data_enter`/`_exit`
/// and `__accjit_deep`), with the clause's spelling.
pub mod clause {
    pub const COPY: i64 = 0;
    pub const COPYIN: i64 = 1;
    pub const COPYOUT: i64 = 2;
    pub const CREATE: i64 = 3;
    pub const NO_CREATE: i64 = 4;
    pub const PRESENT: i64 = 5;
    pub const DEVICEPTR: i64 = 6;
    pub const ATTACH: i64 = 7;
    pub const DETACH: i64 = 8;
    pub const DELETE: i64 = 9;
    pub const LINK: i64 = 10;
    pub const DEVICE_RESIDENT: i64 = 11;
    pub const USE_DEVICE: i64 = 12;
    pub const UPDATE_SELF: i64 = 13;
    pub const UPDATE_DEVICE: i64 = 14;

    /// Every kind with its spelling, in number order.
    pub const ALL: [(i64, &str); 15] = [
        (COPY, "copy"),
        (COPYIN, "copyin"),
        (COPYOUT, "copyout"),
        (CREATE, "create"),
        (NO_CREATE, "no_create"),
        (PRESENT, "present"),
        (DEVICEPTR, "deviceptr"),
        (ATTACH, "attach"),
        (DETACH, "detach"),
        (DELETE, "delete"),
        (LINK, "link"),
        (DEVICE_RESIDENT, "device_resident"),
        (USE_DEVICE, "use_device"),
        (UPDATE_SELF, "update self"),
        (UPDATE_DEVICE, "update device"),
    ];
}

// --- acc_device_t (OpenACC 3.3 §3.1) ----------------------------------------
pub const acc_device_current: i32 = -1;
pub const acc_device_none: i32 = 0;
pub const acc_device_default: i32 = 1;
pub const acc_device_host: i32 = 2;
pub const acc_device_not_host: i32 = 3;
pub const acc_device_nvidia: i32 = 4;
pub const acc_device_radeon: i32 = 5;
pub const acc_device_opencl: i32 = 6;
/// accjit's own: the multicore CPU device (the default).
pub const acc_device_multicore: i32 = 7;

/// Every `acc_device_t` value with its name less the `acc_device_` prefix.
pub const DEVICE_TYPES: [(&str, i32); 9] = [
    ("current", acc_device_current),
    ("none", acc_device_none),
    ("default", acc_device_default),
    ("host", acc_device_host),
    ("not_host", acc_device_not_host),
    ("nvidia", acc_device_nvidia),
    ("radeon", acc_device_radeon),
    ("opencl", acc_device_opencl),
    ("multicore", acc_device_multicore),
];

/// The `acc_device_t` code of a device-type name as a `device_type` clause
/// or `acc_on_device` argument spells it (`host`, `acc_device_host`, any
/// case); `*` is `default`. `current` is not a type a program names.
pub fn device_type_code(name: &str) -> Option<i32> {
    let n = name.trim().trim_start_matches("acc_device_").to_ascii_lowercase();
    let n = if n == "*" { "default" } else { n.as_str() };
    DEVICE_TYPES.iter().find(|(k, c)| *k == n && *c != acc_device_current).map(|&(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_point_names_are_unique_runtime_names() {
        for (i, e) in ENTRY_POINTS.iter().enumerate() {
            assert!(e.name.starts_with("__accjit_"), "{}", e.name);
            assert!(ENTRY_POINTS[..i].iter().all(|o| o.name != e.name), "{} twice", e.name);
            assert_eq!(entry_point(e.name), Some(e));
            assert!(!e.params.contains(&Void), "{}: a void parameter", e.name);
        }
        assert_eq!(entry_point("__accjit_nothing"), None);
    }

    #[test]
    fn fortran_entry_points_are_unique_and_apart_from_the_others() {
        for (i, e) in FORTRAN_ENTRY_POINTS.iter().enumerate() {
            assert!(e.name.starts_with("__accjit_f_"), "{}", e.name);
            assert!(FORTRAN_ENTRY_POINTS[..i].iter().all(|o| o.name != e.name), "{} twice", e.name);
            assert_eq!(fortran_entry_point(e.name), Some(e));
            assert_eq!(entry_point(e.name), None, "{} in both tables", e.name);
            assert!(!e.params.contains(&Void), "{}: a void parameter", e.name);
        }
        // the back ends pass every ENTRY_POINTS argument in an integer register
        assert!(ENTRY_POINTS.iter().all(|e| !e.params.contains(&F64) && e.ret != F64));
    }

    #[test]
    fn clause_kinds_are_numbered_in_order() {
        for (i, (k, name)) in clause::ALL.iter().enumerate() {
            assert_eq!(*k, i as i64, "{name}");
        }
    }

    #[test]
    fn device_type_names_resolve_to_their_codes() {
        assert_eq!(device_type_code("host"), Some(acc_device_host));
        assert_eq!(device_type_code(" acc_device_NVIDIA "), Some(acc_device_nvidia));
        assert_eq!(device_type_code("*"), Some(acc_device_default));
        assert_eq!(device_type_code("multicore"), Some(acc_device_multicore));
        assert_eq!(device_type_code("current"), None);
        assert_eq!(device_type_code("xeonphi"), None);
    }
}
