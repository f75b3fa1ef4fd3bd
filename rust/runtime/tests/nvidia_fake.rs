//! The nvidia device (`nvidia.rs`) over the fake libcuda of
//! `tests/fake_cuda/libcuda.c` (host memory as device memory, kernels
//! `saxpy`, `poke`, `bump_table`, `ends`, `logs` emulated by name; see `cuda_fake.rs`), in
//! a child process whose `LD_LIBRARY_PATH` finds it: discovery, the
//! current device, data clauses on its memory, a launch of a slot's PTX
//! form with translated arguments, the not-present error, a declared
//! global bound to the module's symbol, properties and streams, a kernel
//! that ends the program (exit, abort, assert in device code), Fortran
//! output that device code logged, replayed after the launch, and a
//! faulting kernel after which the device works again. Skipped when no C
//! compiler runs.

use accjit_runtime::api::{self, flags::*};
use accjit_runtime::consts::*;
use accjit_runtime::{data, device, hosted, Clause, KernelSlot, LaunchOpts, PtxForm, PtxGlobalRef, PtxModuleText, PARAM_DEVICE_ADDR, PARAM_VALUE};
use std::path::PathBuf;
use std::process::Command;

mod fake_cuda;

const CHILD_ENV: &str = "ACCJIT_FAKE_NVIDIA_CHILD";
const SYNC: i64 = acc_async_sync;

fn build_fake() -> Option<PathBuf> {
    fake_cuda::build("nvidia", &[])
}

#[test]
fn nvidia_device_on_a_fake_driver() {
    let Some(dir) = build_fake() else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let cache = dir.join("cache");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "fake_nvidia_child", "--nocapture", "--test-threads=1"])
        .env("LD_LIBRARY_PATH", &dir)
        .env("ACCJIT_CACHE_DIR", &cache)
        .env(CHILD_ENV, "1")
        .env_remove("ACC_DEVICE_TYPE")
        .output()
        .expect("cannot rerun the test binary");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the nvidia device over the fake driver failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    // The Fortran output the `logs` kernel logged, replayed once, each statement whole.
    assert_eq!(stdout.matches("fake log  42\n").count(), 1, "{stdout}");
    assert_eq!(stdout.matches(" T           7\n").count(), 1, "{stdout}");
    assert!(!stdout.contains("lost"), "{stdout}");
    assert!(stderr.contains("kernel logs: 3 Fortran output statements of device code lost: the device's log of"), "{stderr}");
}

/// One record of `accjit_abi::device_io_log` as device code writes it:
/// `args` are value bits, or texts (`Err`) as a count and the bytes.
fn log_record(out: &mut Vec<u8>, entry: &str, thread: u64, args: &[Result<u64, &[u8]>]) {
    use accjit_abi::device_io_log as log;
    let id = log::LOGGED.iter().position(|&n| n == entry).unwrap() as u32;
    let mut body = vec![];
    for a in args {
        match a {
            Ok(v) => body.extend_from_slice(&v.to_le_bytes()),
            Err(t) => {
                body.extend_from_slice(&(t.len() as u64).to_le_bytes());
                body.extend_from_slice(t);
                body.resize(body.len().div_ceil(8) * 8, 0);
            }
        }
    }
    out.extend_from_slice(&id.to_le_bytes());
    out.extend_from_slice(&((log::RECORD_HEAD + body.len()) as u32).to_le_bytes());
    out.extend_from_slice(&thread.to_le_bytes());
    out.extend_from_slice(&body);
}

/// A failed assert's expression and file, as the program's host globals.
static ASSERT_EXPR: &[u8] = b"x > 0\0";
static ASSERT_FILE: &[u8] = b"fake.c\0";

const PTX: &str = "\
.version 7.8
.target sm_80
.address_size 64
.visible .global .align 4 .b8 selftest_table[16];
.visible .global .align 4 .b8 other_table[32];
.visible .global .align 8 .b8 __accjit_end[32];
.visible .global .align 4 .b8 linked[64];
.visible .global .align 1 .b8 assert_expr[6];
.visible .global .align 1 .b8 assert_file[7];
.visible .global .align 1 .b8 assert_raw[6];
.visible .entry saxpy(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3) { ret; }
.visible .entry poke(.param .u64 p0) { ret; }
.visible .entry bump_table() { ret; }
.visible .entry ends(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3) { ret; }
";

fn form(module: &std::sync::Arc<PtxModuleText>, entry: &str, params: usize, vector: u32) -> PtxForm {
    PtxForm::new(module.clone(), entry.into(), vec![0; params], vector, 1, None, 1, None)
}

#[test]
#[ignore = "child of nvidia_device_on_a_fake_driver"]
fn fake_nvidia_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through nvidia_device_on_a_fake_driver");
    assert!(accjit_runtime::cuda::available(), "the fake libcuda was not loaded");
    assert_eq!(api::get_num_devices(acc_device_nvidia), 1);
    api::set_device_type(acc_device_nvidia).unwrap();
    let dev = device::current_device().unwrap();
    assert_eq!(dev.ty, device::DeviceType::Nvidia);
    assert!(!dev.mem.is_shared());
    assert_eq!(api::get_property(0, acc_device_nvidia, acc_property_shared_memory_support), 0);
    assert!(api::get_property(0, acc_device_nvidia, acc_property_memory) > 0);
    assert_eq!(api::get_property_string(0, acc_device_nvidia, acc_property_name).as_deref(), Some("Fake CUDA device"));

    // Free memory moves by exactly what the program allocates and frees.
    let free = || api::get_property(0, acc_device_nvidia, acc_property_free_memory);
    let f0 = free();
    assert!(f0 > 0 && f0 <= api::get_property(0, acc_device_nvidia, acc_property_memory));
    let m = api::malloc(1 << 20).unwrap();
    assert_eq!(free(), f0 - (1 << 20));
    let mut w = vec![0u8; 4096];
    api::copyin(w.as_mut_ptr() as usize, 4096, SYNC).unwrap();
    assert_eq!(free(), f0 - (1 << 20) - 4096);
    api::free(m).unwrap();
    api::delete(w.as_mut_ptr() as usize, 4096, false, SYNC).unwrap();
    assert_eq!(free(), f0);

    // A declared global: the module's symbol becomes its device copy.
    let mut table = [10u32, 20, 30, 40];
    let th = table.as_mut_ptr() as usize;
    // Another, of which `declare` made a section present before the module loads.
    let mut other = [1u32, 2, 3, 4, 5, 6, 7, 8];
    let oh = other.as_mut_ptr() as usize;
    // A `declare link` global: its symbol is where a data clause puts it.
    let mut linked: Vec<u32> = (0..16).map(|i| 100 + i).collect();
    let lh = linked.as_mut_ptr() as usize;
    let module = PtxModuleText::new(
        PTX.into(),
        vec![
            PtxGlobalRef { symbol: "selftest_table".into(), host: th, bytes: 16, declared: true, link: false },
            PtxGlobalRef { symbol: "other_table".into(), host: oh, bytes: 32, declared: true, link: false },
            PtxGlobalRef { symbol: "linked".into(), host: lh, bytes: 64, declared: false, link: true },
            // A failed assert's texts: string literals, globals that device code names.
            PtxGlobalRef { symbol: "assert_expr".into(), host: ASSERT_EXPR.as_ptr() as usize, bytes: 6, declared: false, link: false },
            PtxGlobalRef { symbol: "assert_file".into(), host: ASSERT_FILE.as_ptr() as usize, bytes: 7, declared: false, link: false },
        ],
    );
    let decl = data::Ctx::directive(Some("other_table[2:4]"), None, acc_construct_data);
    let before = data::enter(dev, Clause::CopyIn, oh + 8, 16, STRUCTURED, SYNC, decl).unwrap();
    let sevens = [7u32; 4];
    api::memcpy_to_device(before, sevens.as_ptr() as usize, 16, SYNC).unwrap();

    // saxpy on present data: y = a x + y on the device copies.
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 13) as f32 * 0.25).collect();
    let mut y: Vec<f32> = (0..n).map(|i| 1.0 + (i % 7) as f32).collect();
    let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| 2.5f32.mul_add(*a, *b)).collect();
    let slot = KernelSlot::new("saxpy".into(), vec![PARAM_VALUE, PARAM_VALUE, PARAM_DEVICE_ADDR, PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["n".into(), "a".into(), "x".into(), "y".into()]);
    slot.set_ptx(form(&module, "saxpy", 4, 128));
    let (xh, yh) = (x.as_ptr() as usize, y.as_mut_ptr() as usize);
    let ctx = |name| data::Ctx::directive(Some(name), Some("fake.c:1"), acc_construct_parallel);
    let xd = data::enter(dev, Clause::CopyIn, xh, 4 * n, STRUCTURED, SYNC, ctx("x[0:n]")).unwrap();
    data::enter(dev, Clause::Copy, yh, 4 * n, STRUCTURED, SYNC, ctx("y[0:n]")).unwrap();
    assert_ne!(xd, xh, "device memory of its own");
    let bits = 2.5f32.to_bits() as u64;
    let mut args = [n as u64, bits, xh as u64, yh as u64];
    accjit_runtime::launch(&slot, &mut args, &LaunchOpts { loc: Some("fake.c:2"), ..LaunchOpts::default() }).unwrap();
    assert_eq!(args[2], xd as u64, "arguments translated to device addresses");
    assert_ne!(y, want, "the host copy is untouched until copyout");
    data::exit(dev, Clause::CopyIn, xh, 4 * n, STRUCTURED, SYNC, ctx("x[0:n]")).unwrap();
    data::exit(dev, Clause::Copy, yh, 4 * n, STRUCTURED, SYNC, ctx("y[0:n]")).unwrap();
    assert!(y == want, "saxpy on the device copies");

    // Not present: an error naming the variable, nothing launched.
    let mut args = [n as u64, bits, xh as u64, yh as u64];
    let e = accjit_runtime::launch(&slot, &mut args, &LaunchOpts { loc: Some("fake.c:3"), ..LaunchOpts::default() }).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
    assert_eq!(e.var.as_deref(), Some("x"));
    assert_eq!(e.loc.as_deref(), Some("fake.c:3"));

    // The global: present through the symbol, initialised from the host, updated by a kernel.
    assert!(api::is_present(th, 16).unwrap(), "loading the program's module (its first launch) made the declared global present");
    assert_ne!(api::deviceptr(oh + 8).unwrap(), before, "the section moved into the module's symbol");
    assert!(!api::is_present(oh, 4).unwrap(), "only the declared section is present");
    assert_eq!(api::ref_counts(oh + 8, 16).unwrap(), Some((1, 0)), "with its counts");
    api::update(false, oh + 8, 16, SYNC).unwrap();
    assert_eq!(other, [1, 2, 7, 7, 7, 7, 7, 8], "with its device bytes");
    let bump = KernelSlot::new("bump_table".into(), vec![], None);
    bump.set_ptx(form(&module, "bump_table", 0, 4));
    accjit_runtime::launch(&bump, &mut [], &LaunchOpts::default()).unwrap();
    assert_eq!(api::ref_counts(th, 16).unwrap(), Some((1, 0)));
    api::update(false, th, 16, SYNC).unwrap();
    assert_eq!(table, [11, 21, 31, 41], "the kernel's symbol is the global's device copy");
    table[2] = 100;
    api::update(true, th + 8, 4, SYNC).unwrap();
    accjit_runtime::launch(&bump, &mut [], &LaunchOpts::default()).unwrap();
    api::update(false, th, 16, SYNC).unwrap();
    assert_eq!(table, [12, 22, 101, 42], "update device reaches the symbol");

    // declare link: nothing present after the module loaded; a data clause
    // puts the global (or a section) into the module's symbol, which the
    // routines address, without allocating; its exit copies back and leaves
    // the symbol in place.
    assert!(!api::is_present(lh, 64).unwrap(), "a link global is not present until a data clause names it");
    let sym = accjit_runtime::cuda::gpu(0).unwrap().load_module(PTX).unwrap().global("linked").unwrap().0;
    let f_before = free();
    let lctx = ctx("linked[4:8]");
    let d = data::enter(dev, Clause::Copy, lh + 16, 32, STRUCTURED, SYNC, lctx).unwrap();
    assert_eq!(d, sym + 16, "the section lives in the symbol at its offset");
    assert_eq!(free(), f_before, "no device memory allocated for it");
    // The "device" (host memory in the fake): the symbol holds the section.
    let on_device = unsafe { std::slice::from_raw_parts_mut(sym as *mut u32, 16) };
    assert_eq!(&on_device[4..12], &linked[4..12]);
    on_device[5] = 7;
    data::exit(dev, Clause::Copy, lh + 16, 32, STRUCTURED, SYNC, lctx).unwrap();
    assert_eq!(linked[5], 7, "copied back from the symbol");
    assert!(!api::is_present(lh + 16, 32).unwrap());
    // Again, the whole global: the same symbol.
    assert_eq!(api::copyin(lh, 64, SYNC).unwrap(), sym);
    api::delete(lh, 64, false, SYNC).unwrap();
    assert_eq!(free(), f_before);

    // Streams: async copies on a queue, waits, the CUDA stream handles.
    let mut z = vec![3i32; 4096];
    let zh = z.as_mut_ptr() as usize;
    api::copyin(zh, 4 * 4096, 3).unwrap();
    assert_ne!(accjit_runtime::nvidia::cuda_stream(3).unwrap(), 0);
    api::wait(3).unwrap();
    assert!(api::async_test(3).unwrap());
    z.iter_mut().for_each(|v| *v = 0);
    api::copyout(zh, 4 * 4096, false, 3).unwrap();
    api::wait_all().unwrap();
    assert!(z.iter().all(|&v| v == 3));

    // A fault: an error naming the kernel and its line; then the device is reset and works.
    let poke = KernelSlot::new("poke".into(), vec![PARAM_VALUE], None);
    poke.set_ptx(form(&module, "poke", 1, 1));
    let e = accjit_runtime::launch(&poke, &mut [16], &LaunchOpts { loc: Some("fake.c:9"), ..LaunchOpts::default() }).unwrap_err();
    assert_eq!(e.code, acc_error_execution, "{e}");
    assert!(e.message.contains("poke"), "{e}");
    assert_eq!(e.loc.as_deref(), Some("fake.c:9"));
    assert!(!api::is_present(th, 16).unwrap(), "the reset dropped the present table");
    let mut y2: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    let want2: Vec<f32> = x.iter().zip(&y2).map(|(a, b)| 2.5f32.mul_add(*a, *b)).collect();
    let y2h = y2.as_mut_ptr() as usize;
    data::enter(dev, Clause::CopyIn, xh, 4 * n, STRUCTURED, SYNC, ctx("x[0:n]")).unwrap();
    data::enter(dev, Clause::Copy, y2h, 4 * n, STRUCTURED, SYNC, ctx("y[0:n]")).unwrap();
    let mut args = [n as u64, bits, xh as u64, y2h as u64];
    accjit_runtime::launch(&slot, &mut args, &LaunchOpts::default()).unwrap();
    data::exit(dev, Clause::CopyIn, xh, 4 * n, STRUCTURED, SYNC, ctx("x[0:n]")).unwrap();
    data::exit(dev, Clause::Copy, y2h, 4 * n, STRUCTURED, SYNC, ctx("y[0:n]")).unwrap();
    assert!(y2 == want2, "the device works after the fault");

    // A kernel that ends the program (exit, abort, a failed assert in device
    // code): the launch completes, then the call ends with the outcome, as
    // on the CPU devices; the record is cleared for the next launch.
    let ends: &'static KernelSlot = Box::leak(KernelSlot::new("ends".into(), vec![PARAM_VALUE; 4], None));
    ends.set_ptx(form(&module, "ends", 4, 1).ending_program(true));
    let hosted_launch = |args: [u64; 4], async_: i64| {
        let (tx, rx) = std::sync::mpsc::channel();
        let t = std::thread::spawn(move || {
            let deliver: hosted::Deliver = Box::new(move |o| tx.send(Some(o)).unwrap());
            hosted::run_hosted(deliver, move || {
                let mut a = args;
                accjit_runtime::launch(ends, &mut a, &LaunchOpts { async_, ..LaunchOpts::default() }).unwrap();
            });
        });
        // A parked thread (the program ended) never joins; one that returned
        // dropped the sender.
        match rx.recv_timeout(std::time::Duration::from_secs(20)) {
            Ok(o) => o,
            Err(_) => {
                t.join().unwrap();
                None
            }
        }
    };
    assert_eq!(hosted_launch([0, 0, 0, 0], SYNC), None, "nothing ended");
    assert_eq!(hosted_launch([1, 7, 0, 0], 2), Some(hosted::Outcome::Exit(7)), "exit(7), asynchronous launch");
    assert_eq!(hosted_launch([0, 0, 0, 0], SYNC), None, "the record was cleared");
    assert_eq!(hosted_launch([2, 0, 0, 0], SYNC), Some(hosted::Outcome::Abort("abort() called".into())));
    // The texts are the device addresses of the module's string symbols
    // (globals 5 and 6 of the fake's module, by their order in the PTX).
    let o = hosted_launch([3, 0, 5, 6], SYNC);
    assert_eq!(o, Some(hosted::Outcome::Abort("fake.c:12: Assertion `x > 0' failed.".into())));
    // A text in a global the program does not know (no host copy) is read
    // from the device, byte by byte where a 16-byte piece would run past
    // the global's end (which the driver refuses).
    let o = hosted_launch([3, 0, 5, 7], SYNC);
    assert_eq!(o, Some(hosted::Outcome::Abort("raw.c:12: Assertion `x > 0' failed.".into())));
    // Addresses in no symbol of the module are read from the device.
    let (expr, file) = (c"y < 1", c"other.c");
    let o = hosted_launch([3, 0, expr.as_ptr() as u64, file.as_ptr() as u64], SYNC);
    assert_eq!(o, Some(hosted::Outcome::Abort("other.c:12: Assertion `y < 1' failed.".into())));

    // Fortran print in device code (accjit_abi::device_io_log): the
    // records two device threads logged, interleaved, are replayed after
    // the launch through the Fortran runtime, each thread's statement
    // whole; the log is emptied (a second launch replays nothing again)
    // and dropped records are reported on stderr.
    {
        use accjit_abi::device_io_log as log;
        use accjit_abi::{F_WRITE_BEGIN, F_WRITE_END, F_WRITE_I64, F_WRITE_LOGICAL, F_WRITE_STR};
        let text = format!(
            ".version 7.8\n.target sm_80\n.address_size 64\n.visible .global .align 8 .b8 {}[{}];\n.visible .global .align 8 .b8 {}[{}];\n.visible .global .align 8 .b8 {}[{}];\n.visible .entry logs(.param .u64 p0, .param .u64 p1, .param .u64 p2) {{ ret; }}\n",
            accjit_abi::device_end::SYMBOL,
            accjit_abi::device_end::BYTES,
            log::HEADER,
            log::HEADER_BYTES,
            log::SYMBOL,
            log::CAPACITY
        );
        let log_module = PtxModuleText::new(text, vec![]);
        let logs: &'static KernelSlot = Box::leak(KernelSlot::new("logs".into(), vec![PARAM_VALUE; 3], None));
        logs.set_ptx(form(&log_module, "logs", 3, 1).ending_program(true));
        let mut rec = vec![];
        let loc: &[u8] = b"fake.f90:3";
        log_record(&mut rec, F_WRITE_BEGIN, 1, &[Ok(6), Err(b"(A,I4)"), Ok(6), Err(loc)]);
        log_record(&mut rec, F_WRITE_BEGIN, 2 << 32, &[Ok(-1i64 as u64), Err(b""), Ok(0), Err(loc)]);
        log_record(&mut rec, F_WRITE_STR, 1, &[Err(b"fake log"), Ok(8)]);
        // the unused rest of a thread's region: a pad record
        rec.extend_from_slice(&log::PAD.to_le_bytes());
        rec.extend_from_slice(&16u32.to_le_bytes());
        rec.extend_from_slice(&[0xee; 8]);
        log_record(&mut rec, F_WRITE_LOGICAL, 2 << 32, &[Ok(1), Ok(4)]);
        log_record(&mut rec, F_WRITE_I64, 1, &[Ok(42), Ok(4)]);
        log_record(&mut rec, F_WRITE_I64, 2 << 32, &[Ok(7), Ok(4)]);
        log_record(&mut rec, F_WRITE_END, 2 << 32, &[]);
        log_record(&mut rec, F_WRITE_END, 1, &[]);
        let mut a = [rec.as_ptr() as u64, rec.len() as u64, 0];
        accjit_runtime::launch(logs, &mut a, &LaunchOpts::default()).unwrap();
        let mut a = [rec.as_ptr() as u64, 0, 3];
        accjit_runtime::launch(logs, &mut a, &LaunchOpts::default()).unwrap();
        drop(log_module);
    }

    // if(false)/self: the native form on the calling thread, host data.
    unsafe extern "C" fn twice(args: *const u64, _g: i64, _n: i64) {
        let y = *args.add(3) as *mut f32;
        for i in 0..*args as usize {
            *y.add(i) *= 2.0;
        }
    }
    slot.set_host_fn(twice as *const () as usize);
    let mut args = [n as u64, bits, xh as u64, y2h as u64];
    accjit_runtime::launch(&slot, &mut args, &LaunchOpts { local: true, ..LaunchOpts::default() }).unwrap();
    assert_eq!(y2[1], want2[1] * 2.0);
    drop(module);
}
