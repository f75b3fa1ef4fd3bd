//! The driver's only contact with the runtime crate: kernel slots and the
//! symbol table the JIT linker binds. Kept in one file so that the rest of the
//! driver does not change when the runtime's Rust API does.
//!
//! TEMPORARY: the runtime crate has not published `KernelSlot` yet; this
//! stand-in keeps the driver building and is replaced when it lands.

use accjit_ir::Kernel;
use std::sync::atomic::{AtomicUsize, Ordering};

pub struct Slot {
    inner: Box<AtomicUsize>,
}

impl Slot {
    pub fn for_kernel(_kernel: &Kernel) -> Slot {
        Slot { inner: Box::new(AtomicUsize::new(0)) }
    }
    pub fn addr(&self) -> usize {
        &*self.inner as *const AtomicUsize as usize
    }
    pub fn set_host_fn(&self, addr: usize) {
        self.inner.store(addr, Ordering::Release);
    }
}

pub fn symbols() -> Vec<(String, usize)> {
    Vec::new()
}
