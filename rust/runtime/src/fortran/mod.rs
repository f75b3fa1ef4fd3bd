//! The Fortran runtime library: what compiled Fortran calls beyond the
//! OpenACC ABI (names and signatures: `accjit_abi::FORTRAN_ENTRY_POINTS`,
//! docs/fortran.md). It knows nothing of the Fortran front end.
//!
//! - `io.rs`: `print`/`write`/`read` statements item by item (list-directed
//!   and formatted, external units and internal files, `iostat`), with
//!   `format.rs` (format specifications and their walk) and `edit.rs` (the
//!   text of each edit descriptor, byte for byte as gfortran).
//! - `units.rs`: `open`/`close`/`rewind`/`backspace`/`flush` of external files.
//! - `device_log.rs`: `print`/`write` that nvidia device code logged,
//!   replayed after the launch through the entry points of `io.rs`.
//! - `stop.rs`: `stop` / `error stop`, run-time errors the program detects.
//! - `intrinsics.rs`: `random_number`, `random_seed`, `cpu_time`, `system_clock`,
//!   the command line.

pub mod device_log;
pub mod edit;
pub mod format;
pub mod intrinsics;
pub mod io;
pub mod stop;
pub mod units;

/// Name → address of every Fortran runtime entry point, for the JIT linker.
pub fn symbols() -> Vec<(String, usize)> {
    macro_rules! table {
        ($($m:ident :: $f:ident),* $(,)?) => { vec![$((stringify!($f).to_string(), $m::$f as *const () as usize)),*] };
    }
    table!(
        io::__accjit_f_write_begin,
        io::__accjit_f_write_begin_internal,
        io::__accjit_f_write_i64,
        io::__accjit_f_write_f64,
        io::__accjit_f_write_c64,
        io::__accjit_f_write_logical,
        io::__accjit_f_write_str,
        io::__accjit_f_write_end,
        io::__accjit_f_read_begin,
        io::__accjit_f_read_begin_internal,
        io::__accjit_f_read_i64,
        io::__accjit_f_read_f64,
        io::__accjit_f_read_c64,
        io::__accjit_f_read_logical,
        io::__accjit_f_read_str,
        io::__accjit_f_read_end,
        io::__accjit_f_io_nonadvancing,
        io::__accjit_f_io_iostat,
        units::__accjit_f_fileop_begin,
        units::__accjit_f_fileop_spec,
        units::__accjit_f_fileop_end,
        units::__accjit_f_fileop_unit,
        stop::__accjit_f_stop,
        stop::__accjit_f_runtime_error,
        intrinsics::__accjit_f_random_number,
        intrinsics::__accjit_f_random_seed,
        intrinsics::__accjit_f_cpu_time,
        intrinsics::__accjit_f_system_clock,
        intrinsics::__accjit_f_command_argument_count,
        intrinsics::__accjit_f_get_command_argument,
    )
}
