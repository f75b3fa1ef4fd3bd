//! The spec's public runtime routines (chapter 3 and the profiling
//! registration of chapter 5) as `extern "C"` functions with the C
//! signatures of `openacc.h`. Each wraps `api` and ends the program through
//! `error::fatal` on error (after the error callbacks).

#![allow(clippy::missing_safety_doc)]

use crate::api;
use crate::consts::*;
use crate::error::or_fatal;
use crate::prof;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::Mutex;

type Ptr = *mut c_void;

fn a(v: c_int) -> i64 {
    v as i64
}

// --- devices -----------------------------------------------------------------

#[no_mangle]
pub extern "C" fn acc_get_num_devices(t: c_int) -> c_int {
    api::get_num_devices(t)
}

#[no_mangle]
pub extern "C" fn acc_set_device_type(t: c_int) {
    or_fatal(api::set_device_type(t))
}

#[no_mangle]
pub extern "C" fn acc_get_device_type() -> c_int {
    api::get_device_type()
}

#[no_mangle]
pub extern "C" fn acc_set_device_num(num: c_int, t: c_int) {
    or_fatal(api::set_device_num(num, t))
}

#[no_mangle]
pub extern "C" fn acc_get_device_num(t: c_int) -> c_int {
    api::get_device_num(t)
}

#[no_mangle]
pub extern "C" fn acc_get_property(num: c_int, t: c_int, prop: c_int) -> usize {
    api::get_property(num, t, prop)
}

/// The returned string lives for the rest of the process.
#[no_mangle]
pub extern "C" fn acc_get_property_string(num: c_int, t: c_int, prop: c_int) -> *const c_char {
    static CACHE: Mutex<Option<HashMap<String, &'static std::ffi::CStr>>> = Mutex::new(None);
    let Some(s) = api::get_property_string(num, t, prop) else { return std::ptr::null() };
    let mut g = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    let c = map.entry(s.clone()).or_insert_with(|| Box::leak(CString::new(s).unwrap_or_default().into_boxed_c_str()));
    c.as_ptr()
}

#[no_mangle]
pub extern "C" fn acc_init(t: c_int) {
    or_fatal(api::init(t))
}

#[no_mangle]
pub extern "C" fn acc_init_device(num: c_int, t: c_int) {
    or_fatal(api::init_device(num, t))
}

#[no_mangle]
pub extern "C" fn acc_shutdown(t: c_int) {
    or_fatal(api::shutdown(t))
}

#[no_mangle]
pub extern "C" fn acc_shutdown_device(num: c_int, t: c_int) {
    or_fatal(api::shutdown_device(num, t))
}

#[no_mangle]
pub extern "C" fn acc_on_device(t: c_int) -> c_int {
    api::on_device(t) as c_int
}

// --- async -------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn acc_async_test(q: c_int) -> c_int {
    or_fatal(api::async_test(a(q))) as c_int
}

#[no_mangle]
pub extern "C" fn acc_async_test_device(q: c_int, num: c_int) -> c_int {
    or_fatal(api::async_test_device(a(q), num)) as c_int
}

#[no_mangle]
pub extern "C" fn acc_async_test_all() -> c_int {
    or_fatal(api::async_test_all()) as c_int
}

#[no_mangle]
pub extern "C" fn acc_async_test_all_device(num: c_int) -> c_int {
    or_fatal(api::async_test_all_device(num)) as c_int
}

#[no_mangle]
pub extern "C" fn acc_wait(q: c_int) {
    or_fatal(api::wait(a(q)))
}

#[no_mangle]
pub extern "C" fn acc_wait_device(q: c_int, num: c_int) {
    or_fatal(api::wait_device(a(q), num))
}

#[no_mangle]
pub extern "C" fn acc_wait_all() {
    or_fatal(api::wait_all())
}

#[no_mangle]
pub extern "C" fn acc_wait_all_device(num: c_int) {
    or_fatal(api::wait_all_device(num))
}

#[no_mangle]
pub extern "C" fn acc_wait_async(q: c_int, async_: c_int) {
    or_fatal(api::wait_async(a(q), a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_wait_device_async(q: c_int, async_: c_int, num: c_int) {
    or_fatal(api::wait_device_async(a(q), a(async_), num))
}

#[no_mangle]
pub extern "C" fn acc_wait_all_async(async_: c_int) {
    or_fatal(api::wait_all_async(a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_wait_all_device_async(async_: c_int, num: c_int) {
    or_fatal(api::wait_all_device_async(a(async_), num))
}

unsafe fn wait_list(count: c_int, qs: *const c_int) -> Vec<i64> {
    if count <= 0 || qs.is_null() {
        return Vec::new();
    }
    std::slice::from_raw_parts(qs, count as usize).iter().map(|q| *q as i64).collect()
}

#[no_mangle]
pub unsafe extern "C" fn acc_wait_any(count: c_int, qs: *const c_int) -> c_int {
    if count < 0 {
        crate::error::fatal(&crate::AccError::new(acc_error_invalid_argument, format!("acc_wait_any: invalid argument: count {count} is negative")));
    }
    or_fatal(api::wait_any(&wait_list(count, qs)))
}

#[no_mangle]
pub unsafe extern "C" fn acc_wait_any_device(count: c_int, qs: *const c_int, num: c_int) -> c_int {
    if count < 0 {
        crate::error::fatal(&crate::AccError::new(acc_error_invalid_argument, format!("acc_wait_any_device: invalid argument: count {count} is negative")));
    }
    or_fatal(api::wait_any_device(&wait_list(count, qs), num))
}

#[no_mangle]
pub extern "C" fn acc_get_default_async() -> c_int {
    api::get_default_async() as c_int
}

#[no_mangle]
pub extern "C" fn acc_set_default_async(async_: c_int) {
    or_fatal(api::set_default_async(a(async_)))
}

/// 1.0 name of `acc_wait`.
#[no_mangle]
pub extern "C" fn acc_async_wait(q: c_int) {
    acc_wait(q)
}

/// 1.0 name of `acc_wait_all`.
#[no_mangle]
pub extern "C" fn acc_async_wait_all() {
    acc_wait_all()
}

// --- memory ------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn acc_malloc(bytes: usize) -> Ptr {
    or_fatal(api::malloc(bytes)) as Ptr
}

#[no_mangle]
pub extern "C" fn acc_free(p: Ptr) {
    or_fatal(api::free(p as usize))
}

#[no_mangle]
pub extern "C" fn acc_copyin(h: Ptr, bytes: usize) -> Ptr {
    or_fatal(api::copyin(h as usize, bytes, acc_async_sync)) as Ptr
}

#[no_mangle]
pub extern "C" fn acc_copyin_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::copyin(h as usize, bytes, a(async_)));
}

#[no_mangle]
pub extern "C" fn acc_create(h: Ptr, bytes: usize) -> Ptr {
    or_fatal(api::create(h as usize, bytes, acc_async_sync)) as Ptr
}

#[no_mangle]
pub extern "C" fn acc_create_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::create(h as usize, bytes, a(async_)));
}

/// Legacy (2.0) name; since 2.5 `acc_copyin` is present-or-copyin.
#[no_mangle]
pub extern "C" fn acc_present_or_copyin(h: Ptr, bytes: usize) -> Ptr {
    acc_copyin(h, bytes)
}

#[no_mangle]
pub extern "C" fn acc_pcopyin(h: Ptr, bytes: usize) -> Ptr {
    acc_copyin(h, bytes)
}

/// Legacy (2.0) name; since 2.5 `acc_create` is present-or-create.
#[no_mangle]
pub extern "C" fn acc_present_or_create(h: Ptr, bytes: usize) -> Ptr {
    acc_create(h, bytes)
}

#[no_mangle]
pub extern "C" fn acc_pcreate(h: Ptr, bytes: usize) -> Ptr {
    acc_create(h, bytes)
}

#[no_mangle]
pub extern "C" fn acc_copyout(h: Ptr, bytes: usize) {
    or_fatal(api::copyout(h as usize, bytes, false, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_copyout_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::copyout(h as usize, bytes, false, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_copyout_finalize(h: Ptr, bytes: usize) {
    or_fatal(api::copyout(h as usize, bytes, true, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_copyout_finalize_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::copyout(h as usize, bytes, true, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_delete(h: Ptr, bytes: usize) {
    or_fatal(api::delete(h as usize, bytes, false, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_delete_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::delete(h as usize, bytes, false, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_delete_finalize(h: Ptr, bytes: usize) {
    or_fatal(api::delete(h as usize, bytes, true, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_delete_finalize_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::delete(h as usize, bytes, true, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_update_device(h: Ptr, bytes: usize) {
    or_fatal(api::update(true, h as usize, bytes, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_update_device_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::update(true, h as usize, bytes, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_update_self(h: Ptr, bytes: usize) {
    or_fatal(api::update(false, h as usize, bytes, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_update_self_async(h: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::update(false, h as usize, bytes, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_map_data(h: Ptr, d: Ptr, bytes: usize) {
    or_fatal(api::map_data(h as usize, d as usize, bytes))
}

#[no_mangle]
pub extern "C" fn acc_unmap_data(h: Ptr) {
    or_fatal(api::unmap_data(h as usize))
}

#[no_mangle]
pub extern "C" fn acc_deviceptr(h: Ptr) -> Ptr {
    or_fatal(api::deviceptr(h as usize)) as Ptr
}

#[no_mangle]
pub extern "C" fn acc_hostptr(d: Ptr) -> Ptr {
    or_fatal(api::hostptr(d as usize)) as Ptr
}

#[no_mangle]
pub extern "C" fn acc_is_present(h: Ptr, bytes: usize) -> c_int {
    or_fatal(api::is_present(h as usize, bytes)) as c_int
}

#[no_mangle]
pub extern "C" fn acc_memcpy_to_device(dst: Ptr, src: Ptr, bytes: usize) {
    or_fatal(api::memcpy_to_device(dst as usize, src as usize, bytes, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_to_device_async(dst: Ptr, src: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::memcpy_to_device(dst as usize, src as usize, bytes, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_from_device(dst: Ptr, src: Ptr, bytes: usize) {
    or_fatal(api::memcpy_from_device(dst as usize, src as usize, bytes, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_from_device_async(dst: Ptr, src: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::memcpy_from_device(dst as usize, src as usize, bytes, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_device(dst: Ptr, src: Ptr, bytes: usize) {
    or_fatal(api::memcpy_device(dst as usize, src as usize, bytes, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_device_async(dst: Ptr, src: Ptr, bytes: usize, async_: c_int) {
    or_fatal(api::memcpy_device(dst as usize, src as usize, bytes, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_d2d(dst: Ptr, src: Ptr, bytes: usize, dst_num: c_int, src_num: c_int) {
    or_fatal(api::memcpy_d2d(dst as usize, src as usize, bytes, dst_num, src_num, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_memcpy_d2d_async(dst: Ptr, src: Ptr, bytes: usize, dst_num: c_int, src_num: c_int, async_: c_int) {
    or_fatal(api::memcpy_d2d(dst as usize, src as usize, bytes, dst_num, src_num, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_attach(p: *mut Ptr) {
    or_fatal(api::attach(p as usize, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_attach_async(p: *mut Ptr, async_: c_int) {
    or_fatal(api::attach(p as usize, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_detach(p: *mut Ptr) {
    or_fatal(api::detach(p as usize, false, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_detach_async(p: *mut Ptr, async_: c_int) {
    or_fatal(api::detach(p as usize, false, a(async_)))
}

#[no_mangle]
pub extern "C" fn acc_detach_finalize(p: *mut Ptr) {
    or_fatal(api::detach(p as usize, true, acc_async_sync))
}

#[no_mangle]
pub extern "C" fn acc_detach_finalize_async(p: *mut Ptr, async_: c_int) {
    or_fatal(api::detach(p as usize, true, a(async_)))
}

// --- Appendix A platform routines ----------------------------------------------
// The current nvidia device's CUDA handles and streams (`nvidia.rs`); no
// OpenCL device exists yet.

/// The current nvidia device's `CUdevice` (as a pointer-sized value; null elsewhere).
#[no_mangle]
pub extern "C" fn acc_get_current_cuda_device() -> Ptr {
    crate::nvidia::cuda_handles().0 as Ptr
}

/// The current nvidia device's `CUcontext` (its primary context; null elsewhere).
#[no_mangle]
pub extern "C" fn acc_get_current_cuda_context() -> Ptr {
    crate::nvidia::cuda_handles().1 as Ptr
}

/// The CUDA stream (`CUstream`) of queue `async` on the current nvidia
/// device; null on other devices.
#[no_mangle]
pub extern "C" fn acc_get_cuda_stream(async_: c_int) -> Ptr {
    crate::nvidia::cuda_stream(a(async_)).unwrap_or(0) as Ptr
}

/// Makes queue `async` of the current nvidia device use `stream`: 1 on
/// success, 0 when the current device is not an nvidia device or the
/// argument is invalid.
#[no_mangle]
pub extern "C" fn acc_set_cuda_stream(async_: c_int, stream: Ptr) -> c_int {
    crate::nvidia::set_cuda_stream(a(async_), stream as usize).is_ok() as c_int
}

#[no_mangle]
pub extern "C" fn acc_get_current_opencl_device() -> Ptr {
    std::ptr::null_mut()
}

#[no_mangle]
pub extern "C" fn acc_get_current_opencl_context() -> Ptr {
    std::ptr::null_mut()
}

#[no_mangle]
pub extern "C" fn acc_get_opencl_queue(_async: c_int) -> Ptr {
    std::ptr::null_mut()
}

/// No effect: the current device has no OpenCL queues.
#[no_mangle]
pub extern "C" fn acc_set_opencl_queue(_async: c_int, _queue: Ptr) {}

// --- profiling registration (§5.3–5.4) -----------------------------------------

#[no_mangle]
pub unsafe extern "C" fn acc_prof_register(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    prof::register(ev, cb.map_or(0, |f| f as usize), info)
}

#[no_mangle]
pub unsafe extern "C" fn acc_prof_unregister(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    prof::unregister(ev, cb.map_or(0, |f| f as usize), info)
}

/// OpenACC 3.3 name of `acc_prof_register`.
#[no_mangle]
pub unsafe extern "C" fn acc_callback_register(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    acc_prof_register(ev, cb, info)
}

#[no_mangle]
pub unsafe extern "C" fn acc_callback_unregister(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    acc_prof_unregister(ev, cb, info)
}

/// Spelling used in the 3.3 text (§5.5.1).
#[no_mangle]
pub unsafe extern "C" fn acc_register(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    acc_prof_register(ev, cb, info)
}

#[no_mangle]
pub unsafe extern "C" fn acc_unregister(ev: c_int, cb: prof::acc_prof_callback, info: c_int) {
    acc_prof_unregister(ev, cb, info)
}

/// No inquiry functions are defined (§5.3.1): always null.
#[no_mangle]
pub unsafe extern "C" fn acc_prof_lookup(_name: *const c_char) -> prof::acc_query_fn {
    None
}
