//! Present-table behaviour through the public API: structured and dynamic
//! counts, finalize, partly-present and not-present errors, is_present on
//! sub-ranges, attach counts, map_data, use_device, profiling events.

use accjit_runtime::api::{self, flags::*};
use accjit_runtime::consts::*;
use accjit_runtime::{data, Clause};
use std::sync::{Arc, Mutex};

const SYNC: i64 = acc_async_sync;

fn buf(n: usize) -> (Vec<u8>, usize) {
    let v = vec![7u8; n];
    let p = v.as_ptr() as usize;
    (v, p)
}

#[test]
fn structured_and_dynamic_counts_and_finalize() {
    let (_v, h) = buf(400);
    assert!(!api::is_present(h, 400).unwrap());
    assert_eq!(api::copyin(h, 400, SYNC).unwrap(), h, "shared memory: device address is the host address");
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((0, 1)));
    api::data_enter(Clause::Copy, h, 400, STRUCTURED, SYNC, Some("a[0:100]"), Some("t.c:1")).unwrap();
    api::data_enter(Clause::Present, h + 100, 100, STRUCTURED, SYNC, None, None).unwrap();
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((2, 1)));
    // is_present on sub-ranges
    assert!(api::is_present(h + 10, 10).unwrap());
    assert!(api::is_present(h + 399, 1).unwrap());
    assert!(api::is_present(h + 5, 0).unwrap(), "bytes 0: is the address present");
    assert!(!api::is_present(h + 390, 20).unwrap(), "extends past the entry");
    assert!(!api::is_present(h - 1, 2).unwrap());
    api::data_exit(Clause::Present, h + 100, 100, STRUCTURED, SYNC, None, None).unwrap();
    api::data_exit(Clause::Copy, h, 400, STRUCTURED, SYNC, None, None).unwrap();
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((0, 1)), "dynamic count keeps it present");
    api::copyin(h, 400, SYNC).unwrap();
    api::create(h, 400, SYNC).unwrap();
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((0, 3)));
    api::delete(h, 400, false, SYNC).unwrap();
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((0, 2)));
    // a structured region inside: finalize zeroes only the dynamic count
    api::data_enter(Clause::CopyIn, h, 400, STRUCTURED, SYNC, None, None).unwrap();
    api::copyout(h, 400, true, SYNC).unwrap();
    assert_eq!(api::ref_counts(h, 400).unwrap(), Some((1, 0)));
    assert!(api::is_present(h, 400).unwrap());
    api::data_exit(Clause::CopyIn, h, 400, STRUCTURED, SYNC, None, None).unwrap();
    assert!(!api::is_present(h, 400).unwrap());
    assert_eq!(api::ref_counts(h, 400).unwrap(), None);
}

#[test]
fn exit_data_of_structured_only_data_is_no_action() {
    let (_v, h) = buf(64);
    api::data_enter(Clause::Create, h, 64, STRUCTURED, SYNC, None, None).unwrap();
    // `exit data delete` with dynamic count 0: nothing happens
    api::data_exit(Clause::Delete, h, 64, FINALIZE, SYNC, None, None).unwrap();
    assert_eq!(api::ref_counts(h, 64).unwrap(), Some((1, 0)));
    api::data_exit(Clause::Create, h, 64, STRUCTURED, SYNC, None, None).unwrap();
    assert!(!api::is_present(h, 64).unwrap());
    // exit data of absent data: no action; the API routine: an error
    api::data_exit(Clause::CopyOut, h, 64, 0, SYNC, None, None).unwrap();
    let e = api::copyout(h, 64, false, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
    assert!(e.message.starts_with("acc_copyout:"), "{}", e.message);
    let e = api::delete(h, 64, true, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
}

#[test]
fn not_present_and_partly_present_errors() {
    let (_v, h) = buf(200);
    let e = api::data_enter(Clause::Present, h, 200, STRUCTURED, SYNC, Some("a[0:n]"), Some("prog.c:12")).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
    assert_eq!(e.var.as_deref(), Some("a[0:n]"));
    assert_eq!(e.loc.as_deref(), Some("prog.c:12"));
    assert_eq!(e.host_range, Some((h, h + 200)));
    assert!(e.to_string().ends_with("(variable 'a[0:n]' at prog.c:12)"), "{e}");

    api::copyin(h, 100, SYNC).unwrap();
    for clause in [Clause::CopyIn, Clause::Copy, Clause::Create, Clause::Present, Clause::CopyOut, Clause::NoCreate] {
        let e = api::data_enter(clause, h + 50, 100, STRUCTURED, SYNC, Some("a[50:100]"), None).unwrap_err();
        assert_eq!(e.code, acc_error_partly_present, "{clause:?}");
        assert_eq!(e.host_range, Some((h + 50, h + 150)));
    }
    let e = api::copyin(h + 90, 20, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_partly_present);
    let e = api::copyout(h, 150, false, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_partly_present);
    let e = api::update(false, h + 99, 2, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_partly_present);
    // partly present stays an error at a directive's exit too
    let e = api::data_exit(Clause::CopyOut, h + 50, 100, 0, SYNC, None, None).unwrap_err();
    assert_eq!(e.code, acc_error_partly_present);
    // the failed actions changed nothing
    assert_eq!(api::ref_counts(h, 100).unwrap(), Some((0, 1)));
    api::delete(h, 100, false, SYNC).unwrap();
    assert!(!api::is_present(h, 1).unwrap());
}

#[test]
fn no_create_present_update_and_api_argument_errors() {
    let (_v, h) = buf(32);
    // no_create of absent data: host address, nothing made present
    assert_eq!(api::data_enter(Clause::NoCreate, h, 32, STRUCTURED, SYNC, None, None).unwrap(), h);
    assert!(!api::is_present(h, 32).unwrap());
    api::data_exit(Clause::NoCreate, h, 32, STRUCTURED, SYNC, None, None).unwrap();
    // update of absent data: error, or nothing with if_present
    assert_eq!(api::update(true, h, 32, SYNC).unwrap_err().code, acc_error_not_present);
    api::update_directive(false, h, 32, IF_PRESENT, SYNC, Some("x"), None).unwrap();
    assert_eq!(api::update_directive(false, h, 32, 0, SYNC, Some("x"), None).unwrap_err().var.as_deref(), Some("x"));
    // null pointers
    assert_eq!(api::copyin(0, 8, SYNC).unwrap_err().code, acc_error_invalid_null_pointer);
    assert_eq!(api::copyin(0, 0, SYNC).unwrap(), 0);
    assert_eq!(api::data_enter(Clause::Copy, 0, 8, STRUCTURED, SYNC, None, None).unwrap(), 0, "a null pointer in a clause is no action");
    // invalid async values
    assert_eq!(api::copyin(h, 32, -7).unwrap_err().code, acc_error_invalid_async);
    assert!(!api::is_present(h, 32).unwrap());
    // bytes 0 in the API means 1
    api::copyin(h, 0, SYNC).unwrap();
    assert!(api::is_present(h, 1).unwrap());
    assert!(!api::is_present(h, 2).unwrap());
    api::delete(h, 0, false, SYNC).unwrap();
    assert!(!api::is_present(h, 1).unwrap());
    // legacy present_or_ names go through the same path
    assert_eq!(accjit_runtime::capi::acc_pcopyin(h as *mut _, 32) as usize, h);
    assert_eq!(api::ref_counts(h, 32).unwrap(), Some((0, 1)));
    accjit_runtime::capi::acc_delete_finalize(h as *mut _, 32);
    assert!(!api::is_present(h, 32).unwrap());
}

#[test]
fn zero_modifier_zeroes_new_copies_only() {
    let (v, h) = buf(16);
    api::data_enter(Clause::Create, h, 16, STRUCTURED | ZERO, SYNC, None, None).unwrap();
    assert!(v.iter().all(|b| *b == 0));
    api::data_exit(Clause::Create, h, 16, STRUCTURED, SYNC, None, None).unwrap();
    let (v, h) = buf(16);
    api::copyin(h, 16, SYNC).unwrap();
    api::data_enter(Clause::CopyOut, h, 16, STRUCTURED | ZERO, SYNC, None, None).unwrap();
    assert!(v.iter().all(|b| *b == 7), "already present: no new copy, nothing zeroed");
    api::data_exit(Clause::CopyOut, h, 16, STRUCTURED, SYNC, None, None).unwrap();
    api::delete(h, 16, false, SYNC).unwrap();
}

#[test]
fn attach_counts() {
    #[repr(C)]
    struct S {
        n: i64,
        p: *mut f64,
    }
    let mut target = vec![1.0f64; 8];
    let mut s = S { n: 8, p: target.as_mut_ptr() };
    let sp = &mut s as *mut S as usize;
    let pp = &mut s.p as *mut *mut f64 as usize;
    // pointer not present: no action
    api::attach(pp, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 0);
    api::copyin(sp, std::mem::size_of::<S>(), SYNC).unwrap();
    // target not present: no action
    api::attach(pp, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 0);
    api::copyin(target.as_ptr() as usize, 64, SYNC).unwrap();
    api::attach(pp, SYNC).unwrap();
    api::attach(pp, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 2);
    assert_eq!(s.p, target.as_mut_ptr(), "shared memory: the host pointer is untouched");
    api::detach(pp, false, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 1);
    api::attach(pp, SYNC).unwrap();
    api::detach(pp, true, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 0, "detach finalize: immediate detach");
    // attach clause at a structured entry, detach at its exit
    api::data_enter(Clause::Attach, pp, 8, STRUCTURED, SYNC, None, None).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 1);
    api::data_exit(Clause::Attach, pp, 8, STRUCTURED, SYNC, None, None).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 0);
    assert_eq!(api::attach(0, SYNC).unwrap_err().code, acc_error_invalid_null_pointer);
    // deleting the struct drops its attachment records
    api::attach(pp, SYNC).unwrap();
    api::delete(sp, std::mem::size_of::<S>(), false, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 0);
    api::delete(target.as_ptr() as usize, 64, false, SYNC).unwrap();
    assert_eq!(s.n, 8);
}

#[test]
fn map_data_moves_bytes_to_the_mapped_memory() {
    let mut host = vec![1u32, 2, 3, 4];
    let h = host.as_mut_ptr() as usize;
    let d = api::malloc(16).unwrap();
    api::map_data(h, d, 16).unwrap();
    assert_eq!(api::deviceptr(h + 4).unwrap(), d + 4);
    assert_eq!(api::hostptr(d + 8).unwrap(), h + 8);
    assert_eq!(api::map_data(h, d, 16).unwrap_err().code, acc_error_present);
    api::update(true, h, 16, SYNC).unwrap();
    let dv = unsafe { std::slice::from_raw_parts(d as *const u32, 4) };
    assert_eq!(dv, &[1, 2, 3, 4]);
    unsafe { *(d as *mut u32) = 99 };
    api::update(false, h, 4, SYNC).unwrap();
    assert_eq!(host[0], 99);
    assert_eq!(api::use_device(h + 4, false).unwrap(), d + 4);
    api::unmap_data(h).unwrap();
    assert!(!api::is_present(h, 16).unwrap());
    assert_eq!(api::deviceptr(h).unwrap(), 0);
    assert_eq!(api::hostptr(d).unwrap(), 0);
    api::free(d).unwrap();
}

#[test]
fn use_device_requires_presence() {
    let (_v, h) = buf(8);
    let d = accjit_runtime::device::current_device().unwrap();
    let ctx = data::Ctx::directive(Some("p"), Some("u.c:3"), acc_construct_host_data);
    assert_eq!(data::use_device(d, h, false, ctx).unwrap_err().code, acc_error_not_present);
    assert_eq!(data::use_device(d, h, true, ctx).unwrap(), h);
    api::copyin(h, 8, SYNC).unwrap();
    assert_eq!(data::use_device(d, h + 3, false, ctx).unwrap(), h + 3);
    assert_eq!(data::use_device(d, 0, false, ctx).unwrap(), 0);
    api::delete(h, 8, false, SYNC).unwrap();
}

#[test]
fn memcpy_routines() {
    let src = vec![5u8; 32];
    let mut dst = vec![0u8; 32];
    let d = api::malloc(32).unwrap();
    api::memcpy_to_device(d, src.as_ptr() as usize, 32, SYNC).unwrap();
    let d2 = api::malloc(32).unwrap();
    api::memcpy_device(d2, d, 32, SYNC).unwrap();
    api::memcpy_from_device(dst.as_mut_ptr() as usize, d2, 32, 3).unwrap();
    api::wait(3).unwrap();
    assert_eq!(dst, src);
    assert_eq!(api::memcpy_to_device(0, 1, 4, SYNC).unwrap_err().code, acc_error_invalid_null_pointer);
    api::memcpy_to_device(0, 0, 0, SYNC).unwrap();
    api::free(d).unwrap();
    api::free(d2).unwrap();
    // d2d between present data on device 0
    let (a, ha) = buf(16);
    let (mut b, hb) = buf(16);
    b.iter_mut().for_each(|x| *x = 1);
    api::copyin(ha, 16, SYNC).unwrap();
    assert_eq!(api::memcpy_d2d(hb, ha, 16, 0, 0, SYNC).unwrap_err().code, acc_error_not_present);
    api::copyin(hb, 16, SYNC).unwrap();
    api::memcpy_d2d(hb, ha, 16, 0, 0, SYNC).unwrap();
    assert_eq!(a, b);
    api::delete(ha, 16, false, SYNC).unwrap();
    api::delete(hb, 16, false, SYNC).unwrap();
}

#[test]
fn data_events_reach_the_recorder() {
    let (_v, h) = buf(48);
    type Seen = Vec<(String, usize, Option<String>, Option<String>)>;
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let s2 = seen.clone();
    accjit_runtime::set_recorder(Some(Box::new(move |e| {
        if e.host_ptr == h {
            s2.lock().unwrap().push((e.name().to_string(), e.bytes, e.var.map(String::from), e.loc.map(String::from)));
        }
    })));
    api::data_enter(Clause::Copy, h, 48, STRUCTURED, SYNC, Some("x[0:12]"), Some("e.c:5")).unwrap();
    api::data_exit(Clause::Copy, h, 48, STRUCTURED, SYNC, Some("x[0:12]"), Some("e.c:9")).unwrap();
    accjit_runtime::set_recorder(None);
    let names: Vec<String> = seen.lock().unwrap().iter().map(|e| e.0.clone()).collect();
    assert_eq!(names, ["alloc", "create", "enqueue_upload_start", "enqueue_upload_end", "enqueue_download_start", "enqueue_download_end", "delete", "free"]);
    let first = &seen.lock().unwrap()[0];
    assert_eq!((first.1, first.2.as_deref(), first.3.as_deref()), (48, Some("x[0:12]"), Some("e.c:5")));
}
