//! Support for generated code that is not OpenACC: the process-wide lock
//! (gang-partial combining, atomics without a native instruction), the
//! thread-local stack for variable-length arrays. (`assert` failure is in
//! `hosted.rs`, with `exit` and `abort`.)
//!
//! The VLA stack is a list of 16-byte-aligned chunks per thread (1 MiB, or
//! larger for a big request); a mark is (chunk index << 40 | offset), so
//! releasing to a mark is O(1) and keeps the chunks for reuse. Chunks are
//! freed when the thread exits.

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering::*};

static LOCK: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// This thread holds `LOCK` (so that a program ended inside a critical
    /// section does not leave the lock taken for the rest of the process).
    static HOLDS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Takes the process-wide lock (spins, then yields).
#[no_mangle]
pub extern "C" fn __accjit_lock() {
    let mut spins = 0u32;
    loop {
        if !LOCK.swap(true, Acquire) {
            HOLDS.with(|h| h.set(true));
            return;
        }
        while LOCK.load(Relaxed) {
            spins += 1;
            if spins < 1000 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

#[no_mangle]
pub extern "C" fn __accjit_unlock() {
    HOLDS.with(|h| h.set(false));
    LOCK.store(false, Release);
}

/// Releases the process-wide lock if this thread holds it.
pub(crate) fn release_lock_if_held() {
    if HOLDS.with(|h| h.replace(false)) {
        LOCK.store(false, Release);
    }
}

const ALIGN: usize = 16;
const CHUNK: usize = 1 << 20;
const OFF_BITS: u32 = 40;

struct Chunk {
    ptr: *mut u8,
    size: usize,
}

#[derive(Default)]
struct Stack {
    chunks: Vec<Chunk>,
    cur: usize,
    off: usize,
}

impl Drop for Stack {
    fn drop(&mut self) {
        self.free_from(0);
    }
}

impl Stack {
    fn alloca(&mut self, bytes: usize) -> *mut u8 {
        let bytes = bytes.max(1).div_ceil(ALIGN) * ALIGN;
        loop {
            if let Some(c) = self.chunks.get(self.cur) {
                if self.off + bytes <= c.size {
                    let p = unsafe { c.ptr.add(self.off) };
                    self.off += bytes;
                    return p;
                }
                if self.chunks.get(self.cur + 1).is_some_and(|n| n.size >= bytes) {
                    self.cur += 1;
                    self.off = 0;
                    continue;
                }
                // Chunks after the current one are unused: replace them by one that fits.
                self.free_from(self.cur + 1);
                if !self.push_chunk(bytes) {
                    return std::ptr::null_mut();
                }
                self.cur += 1;
                self.off = 0;
            } else {
                self.free_from(0);
                if !self.push_chunk(bytes) {
                    return std::ptr::null_mut();
                }
                self.cur = 0;
                self.off = 0;
            }
        }
    }

    fn push_chunk(&mut self, bytes: usize) -> bool {
        let size = bytes.max(CHUNK);
        let Ok(layout) = Layout::from_size_align(size, ALIGN) else { return false };
        let ptr = unsafe { alloc(layout) };
        if ptr.is_null() {
            return false;
        }
        self.chunks.push(Chunk { ptr, size });
        true
    }

    fn free_from(&mut self, i: usize) {
        if i >= self.chunks.len() {
            return;
        }
        for c in self.chunks.drain(i..) {
            if let Ok(l) = Layout::from_size_align(c.size, ALIGN) {
                unsafe { dealloc(c.ptr, l) };
            }
        }
    }

    fn mark(&self) -> i64 {
        ((self.cur as i64) << OFF_BITS) | self.off as i64
    }

    fn release(&mut self, mark: i64) {
        let cur = (mark >> OFF_BITS) as usize;
        let off = (mark & ((1i64 << OFF_BITS) - 1)) as usize;
        if cur < self.chunks.len() || self.chunks.is_empty() {
            self.cur = cur;
            self.off = off;
        }
    }
}

thread_local! {
    static STACK: RefCell<Stack> = RefCell::new(Stack::default());
}

/// 16-byte-aligned memory from the thread-local VLA stack (null when out of memory).
#[no_mangle]
pub extern "C" fn __accjit_alloca(bytes: i64) -> *mut u8 {
    STACK.with(|s| s.borrow_mut().alloca(bytes.max(0) as usize))
}

#[no_mangle]
pub extern "C" fn __accjit_stack_mark() -> i64 {
    STACK.with(|s| s.borrow().mark())
}

#[no_mangle]
pub extern "C" fn __accjit_stack_release(mark: i64) {
    STACK.with(|s| s.borrow_mut().release(mark))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloca_is_aligned_and_released() {
        let m0 = __accjit_stack_mark();
        let a = __accjit_alloca(3);
        let b = __accjit_alloca(17);
        assert_eq!(a as usize % 16, 0);
        assert_eq!(b as usize % 16, 0);
        assert_eq!(b as usize - a as usize, 16);
        unsafe { std::ptr::write_bytes(b, 0xAB, 17) };
        let m1 = __accjit_stack_mark();
        let big = __accjit_alloca(3 << 20); // larger than a chunk
        assert!(!big.is_null());
        assert_eq!(big as usize % 16, 0);
        unsafe { std::ptr::write_bytes(big, 1, 3 << 20) };
        __accjit_stack_release(m1);
        let c = __accjit_alloca(8);
        assert_eq!(c as usize, b as usize + 32, "release must rewind to the mark");
        __accjit_stack_release(m0);
        assert_eq!(__accjit_alloca(1), a, "release to the first mark reuses the memory");
        __accjit_stack_release(m0);
        // Many allocations across chunks, then release all.
        let ptrs: Vec<_> = (0..5000).map(|_| __accjit_alloca(1000)).collect();
        assert!(ptrs.iter().all(|p| !p.is_null() && (*p as usize).is_multiple_of(16)));
        __accjit_stack_release(m0);
        assert_eq!(__accjit_stack_mark(), m0);
    }

    #[test]
    fn lock_excludes() {
        use std::sync::atomic::AtomicU64;
        static N: AtomicU64 = AtomicU64::new(0);
        let hs: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    for _ in 0..10000 {
                        __accjit_lock();
                        let v = N.load(Relaxed);
                        N.store(v + 1, Relaxed);
                        __accjit_unlock();
                    }
                })
            })
            .collect();
        for h in hs {
            h.join().unwrap();
        }
        assert_eq!(N.load(Relaxed), 40000);
    }
}
