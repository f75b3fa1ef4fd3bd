//! Device memory behind one trait, so that discrete back ends (CUDA, OpenCL)
//! plug in later: [`Memory`] allocates, frees and copies; the present table
//! and the data actions above it never touch device memory directly.
//!
//! [`SharedMemory`] is the implementation of the host and multicore devices:
//! device memory *is* host memory. Making host data present allocates
//! nothing (the device address is the host address) and copies between a
//! host range and its own device copy do nothing; only copies between
//! different addresses (`acc_memcpy_*`, `acc_map_data` onto `acc_malloc`
//! memory) move bytes.
//!
//! Free memory (`acc_property_free_memory`) on a shared-memory device is the
//! device's own books: the machine's physical memory
//! (`acc_property_memory`) less the bytes this device holds, that is every
//! device copy that data clauses, `enter data` and `acc_copyin`/`acc_create`
//! made present and every `acc_malloc` block. It falls by exactly what a
//! program allocates and rises by exactly what it frees, so a program that
//! checks free memory around an allocation sees it move; other processes'
//! use of the machine does not enter it (it would make the value jump for
//! reasons the program cannot see).

use crate::consts::acc_error_out_of_memory;
use crate::error::{AccError, AccResult};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Device memory of one device. Addresses are `usize` device addresses.
pub trait Memory: Send + Sync {
    /// True when device addresses are host addresses (no copies needed for
    /// data made present in place).
    fn is_shared(&self) -> bool;
    /// Device memory for a device copy of `bytes` at host address `host`
    /// (shared memory: `host` itself).
    fn alloc_copy(&self, host: usize, bytes: usize) -> AccResult<usize>;
    /// Frees what `alloc_copy` returned.
    fn free_copy(&self, dev: usize, host: usize, bytes: usize);
    /// `acc_malloc`: fresh device memory (null for 0 bytes).
    fn malloc(&self, bytes: usize) -> AccResult<usize>;
    /// `acc_free`.
    fn free(&self, dev: usize);
    /// Host → device.
    ///
    /// # Safety
    /// Both ranges must be valid for `bytes`.
    unsafe fn copy_to(&self, dev: usize, host: *const u8, bytes: usize);
    /// Device → host.
    ///
    /// # Safety
    /// Both ranges must be valid for `bytes`.
    unsafe fn copy_from(&self, host: *mut u8, dev: usize, bytes: usize);
    /// Device → device on this device.
    ///
    /// # Safety
    /// Both ranges must be valid for `bytes`.
    unsafe fn copy_within(&self, dst: usize, src: usize, bytes: usize);
    /// Fills device memory with zero bytes.
    ///
    /// # Safety
    /// The range must be valid for `bytes`.
    unsafe fn zero(&self, dev: usize, bytes: usize);
    /// Total and free bytes (for `acc_get_property`).
    fn memory_info(&self) -> (usize, usize);
    /// True when `addr` lies in a live `malloc` block (a device address a
    /// program got from `acc_malloc`); false when unknown.
    fn owns(&self, _addr: usize) -> bool {
        false
    }
    /// The first failure of an operation above that has no error return
    /// (copies, fills, frees) since the last call; the data actions report
    /// it as their error.
    fn take_error(&self) -> Option<AccError> {
        None
    }
    /// The device lost all its memory (a GPU context recreated after a
    /// fault): forget the blocks and bytes held.
    fn lost(&self) {}
}

/// Host memory used as device memory (host and multicore devices).
#[derive(Debug, Default)]
pub struct SharedMemory {
    /// Bytes the device holds: present device copies and `acc_malloc` blocks.
    held: AtomicUsize,
    /// Live `acc_malloc` blocks and their sizes (`acc_free` passes only the address).
    blocks: Mutex<HashMap<usize, usize>>,
}

impl SharedMemory {
    fn blocks(&self) -> std::sync::MutexGuard<'_, HashMap<usize, usize>> {
        self.blocks.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn release(&self, bytes: usize) {
        let _ = self.held.fetch_update(Relaxed, Relaxed, |h| Some(h.saturating_sub(bytes)));
    }
}

impl Memory for SharedMemory {
    fn is_shared(&self) -> bool {
        true
    }

    fn alloc_copy(&self, host: usize, bytes: usize) -> AccResult<usize> {
        self.held.fetch_add(bytes, Relaxed);
        Ok(host)
    }

    fn free_copy(&self, _dev: usize, _host: usize, bytes: usize) {
        self.release(bytes);
    }

    fn malloc(&self, bytes: usize) -> AccResult<usize> {
        if bytes == 0 {
            return Ok(0);
        }
        let p = unsafe { libc::malloc(bytes) } as usize;
        if p == 0 {
            return Err(AccError::new(acc_error_out_of_memory, format!("acc_malloc: cannot allocate {bytes} bytes")));
        }
        self.blocks().insert(p, bytes);
        self.held.fetch_add(bytes, Relaxed);
        Ok(p)
    }

    fn free(&self, dev: usize) {
        if dev != 0 {
            if let Some(bytes) = self.blocks().remove(&dev) {
                self.release(bytes);
            }
            unsafe { libc::free(dev as *mut libc::c_void) }
        }
    }

    unsafe fn copy_to(&self, dev: usize, host: *const u8, bytes: usize) {
        if dev != host as usize && bytes > 0 {
            std::ptr::copy(host, dev as *mut u8, bytes);
        }
    }

    unsafe fn copy_from(&self, host: *mut u8, dev: usize, bytes: usize) {
        if dev != host as usize && bytes > 0 {
            std::ptr::copy(dev as *const u8, host, bytes);
        }
    }

    unsafe fn copy_within(&self, dst: usize, src: usize, bytes: usize) {
        if dst != src && bytes > 0 {
            std::ptr::copy(src as *const u8, dst as *mut u8, bytes);
        }
    }

    unsafe fn zero(&self, dev: usize, bytes: usize) {
        std::ptr::write_bytes(dev as *mut u8, 0, bytes);
    }

    fn memory_info(&self) -> (usize, usize) {
        let total = unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE).max(0) as usize;
            libc::sysconf(libc::_SC_PHYS_PAGES).max(0) as usize * page
        };
        (total, total.saturating_sub(self.held.load(Relaxed)))
    }
}

/// Host memory standing in for a discrete device: every device copy and
/// `acc_malloc` block is a separate allocation at its own address, filled
/// with a junk pattern, and copies always move bytes. Kernels run natively
/// on it still see only what the data actions copied, so it checks the
/// data environment's copy logic (which copies happen, to which address)
/// without a GPU (`tests/discrete.rs`).
#[derive(Debug, Default)]
pub struct SeparateMemory {
    held: AtomicUsize,
    /// Live `acc_malloc` blocks: start → bytes.
    blocks: Mutex<std::collections::BTreeMap<usize, usize>>,
}

/// Fills fresh blocks of [`SeparateMemory`], so that a missing copy shows.
pub const JUNK: u8 = 0xA5;

impl SeparateMemory {
    fn block(&self, bytes: usize) -> AccResult<usize> {
        let p = unsafe { libc::malloc(bytes.max(1)) } as usize;
        if p == 0 {
            return Err(AccError::new(acc_error_out_of_memory, format!("cannot allocate {bytes} bytes")));
        }
        unsafe { std::ptr::write_bytes(p as *mut u8, JUNK, bytes) };
        self.held.fetch_add(bytes, Relaxed);
        Ok(p)
    }
}

impl Memory for SeparateMemory {
    fn is_shared(&self) -> bool {
        false
    }
    fn alloc_copy(&self, _host: usize, bytes: usize) -> AccResult<usize> {
        self.block(bytes)
    }
    fn free_copy(&self, dev: usize, _host: usize, bytes: usize) {
        let _ = self.held.fetch_update(Relaxed, Relaxed, |h| Some(h.saturating_sub(bytes)));
        unsafe { libc::free(dev as *mut libc::c_void) }
    }
    fn malloc(&self, bytes: usize) -> AccResult<usize> {
        if bytes == 0 {
            return Ok(0);
        }
        let p = self.block(bytes)?;
        self.blocks.lock().unwrap_or_else(|p| p.into_inner()).insert(p, bytes);
        Ok(p)
    }
    fn free(&self, dev: usize) {
        if let Some(bytes) = self.blocks.lock().unwrap_or_else(|p| p.into_inner()).remove(&dev) {
            let _ = self.held.fetch_update(Relaxed, Relaxed, |h| Some(h.saturating_sub(bytes)));
        }
        unsafe { libc::free(dev as *mut libc::c_void) }
    }
    fn owns(&self, addr: usize) -> bool {
        let b = self.blocks.lock().unwrap_or_else(|p| p.into_inner());
        b.range(..=addr).next_back().is_some_and(|(s, n)| addr < s + n)
    }
    unsafe fn copy_to(&self, dev: usize, host: *const u8, bytes: usize) {
        std::ptr::copy(host, dev as *mut u8, bytes);
    }
    unsafe fn copy_from(&self, host: *mut u8, dev: usize, bytes: usize) {
        std::ptr::copy(dev as *const u8, host, bytes);
    }
    unsafe fn copy_within(&self, dst: usize, src: usize, bytes: usize) {
        std::ptr::copy(src as *const u8, dst as *mut u8, bytes);
    }
    unsafe fn zero(&self, dev: usize, bytes: usize) {
        std::ptr::write_bytes(dev as *mut u8, 0, bytes);
    }
    fn memory_info(&self) -> (usize, usize) {
        let total = 1 << 34;
        (total, total - self.held.load(Relaxed).min(total))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_memory_is_identity_and_copies_between_distinct_ranges() {
        let m = SharedMemory::default();
        let mut a = [1u8, 2, 3, 4];
        let host = a.as_mut_ptr() as usize;
        assert_eq!(m.alloc_copy(host, 4).unwrap(), host);
        let d = m.malloc(4).unwrap();
        assert_ne!(d, 0);
        unsafe {
            m.copy_to(d, a.as_ptr(), 4);
            a = [0; 4];
            m.copy_from(a.as_mut_ptr(), d, 4);
        }
        assert_eq!(a, [1, 2, 3, 4]);
        m.free(d);
        assert_eq!(m.malloc(0).unwrap(), 0);
        let (total, free) = m.memory_info();
        assert!(total > 0 && free <= total);
    }

    #[test]
    fn free_memory_moves_with_allocations() {
        let m = SharedMemory::default();
        let (total, free0) = m.memory_info();
        assert_eq!(free0, total);
        let d = m.malloc(1 << 20).unwrap();
        assert_eq!(m.memory_info().1, free0 - (1 << 20));
        let mut a = [0u8; 4096];
        m.alloc_copy(a.as_mut_ptr() as usize, a.len()).unwrap();
        assert_eq!(m.memory_info().1, free0 - (1 << 20) - 4096);
        m.free(d);
        assert_eq!(m.memory_info().1, free0 - 4096);
        m.free_copy(a.as_mut_ptr() as usize, a.as_mut_ptr() as usize, a.len());
        assert_eq!(m.memory_info().1, free0);
        assert_eq!(m.memory_info().0, total);
    }
}
