//! The caching device allocator (as CuPy's memory pool): a freed block is
//! kept for reuse instead of going back to the driver, so data clauses
//! inside a loop do not call `cuMemAlloc`/`cuMemFree` each time (both
//! synchronise the device and cost tens of µs).
//!
//! Sizes are rounded to a class: multiples of [`SMALL_ROUND`] (512 B) up to
//! [`LARGE`] (1 MiB), multiples of [`LARGE_ROUND`] (2 MiB, the driver's own
//! granularity for big blocks) above. A request takes a cached block of its
//! class; a large request also takes the smallest cached block at most 25%
//! bigger. When the driver is out of memory every cached block is returned
//! to it and the allocation is tried once more.
//!
//! The allocator is generic over [`RawDevice`] (the driver calls), so its
//! books are unit-tested without a GPU.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

pub const SMALL_ROUND: usize = 512;
pub const LARGE: usize = 1 << 20;
pub const LARGE_ROUND: usize = 2 << 20;

/// The driver's allocation calls (errors are its raw codes).
pub trait RawDevice {
    type Error;
    fn raw_alloc(&self, bytes: usize) -> Result<usize, Self::Error>;
    fn raw_free(&self, ptr: usize);
    fn is_out_of_memory(e: &Self::Error) -> bool;
}

/// Counters of the allocator (for tests, the selftest and tuning).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Blocks obtained from the driver.
    pub driver_allocs: u64,
    /// Blocks returned to the driver.
    pub driver_frees: u64,
    /// Requests served from the cache.
    pub reuses: u64,
    /// Bytes in cached (free, kept) blocks.
    pub cached_bytes: usize,
    /// Bytes in blocks handed out and not yet freed.
    pub live_bytes: usize,
}

#[derive(Default)]
struct Books {
    /// Class size → cached blocks of that size.
    cached: BTreeMap<usize, Vec<usize>>,
    /// Live block → its class size.
    live: HashMap<usize, usize>,
    stats: PoolStats,
}

/// See the module doc.
#[derive(Default)]
pub struct CachingAllocator {
    books: Mutex<Books>,
}

/// The class (allocated size) of a request of `bytes` (0 counts as 1).
pub fn class_of(bytes: usize) -> usize {
    let b = bytes.max(1);
    if b <= LARGE {
        b.div_ceil(SMALL_ROUND) * SMALL_ROUND
    } else {
        b.div_ceil(LARGE_ROUND).saturating_mul(LARGE_ROUND)
    }
}

impl CachingAllocator {
    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A block of at least `bytes` (256-byte aligned, as the driver's).
    pub fn alloc<D: RawDevice>(&self, raw: &D, bytes: usize) -> Result<usize, D::Error> {
        let class = class_of(bytes);
        let mut b = self.books();
        let found = if class <= LARGE {
            b.cached.get(&class).filter(|v| !v.is_empty()).map(|_| class)
        } else {
            let most = class.saturating_add(class / 4);
            b.cached.range(class..=most).find(|(_, v)| !v.is_empty()).map(|(&c, _)| c)
        };
        if let Some(c) = found {
            if let Some(p) = b.cached.get_mut(&c).and_then(Vec::pop) {
                b.stats.reuses += 1;
                b.stats.cached_bytes -= c;
                b.stats.live_bytes += c;
                b.live.insert(p, c);
                return Ok(p);
            }
        }
        let p = match raw.raw_alloc(class) {
            Ok(p) => p,
            Err(e) if D::is_out_of_memory(&e) && b.stats.cached_bytes > 0 => {
                Self::release_cached(&mut b, raw);
                raw.raw_alloc(class)?
            }
            Err(e) => return Err(e),
        };
        b.stats.driver_allocs += 1;
        b.stats.live_bytes += class;
        b.live.insert(p, class);
        Ok(p)
    }

    /// Returns a block to the cache. False when `ptr` is not a live block
    /// of this allocator (nothing happens then).
    pub fn free(&self, ptr: usize) -> bool {
        let mut b = self.books();
        match b.live.remove(&ptr) {
            Some(class) => {
                b.stats.live_bytes -= class;
                b.stats.cached_bytes += class;
                b.cached.entry(class).or_default().push(ptr);
                true
            }
            None => false,
        }
    }

    /// The size class of a live block.
    pub fn size_of(&self, ptr: usize) -> Option<usize> {
        self.books().live.get(&ptr).copied()
    }

    /// Returns every cached block to the driver.
    pub fn trim<D: RawDevice>(&self, raw: &D) {
        Self::release_cached(&mut self.books(), raw);
    }

    fn release_cached<D: RawDevice>(b: &mut Books, raw: &D) {
        for (_, blocks) in std::mem::take(&mut b.cached) {
            for p in blocks {
                raw.raw_free(p);
                b.stats.driver_frees += 1;
            }
        }
        b.stats.cached_bytes = 0;
    }

    /// Forgets every block without freeing it (their context was destroyed).
    pub fn forget_all(&self) {
        let mut b = self.books();
        b.cached.clear();
        b.live.clear();
        b.stats.cached_bytes = 0;
        b.stats.live_bytes = 0;
    }

    pub fn stats(&self) -> PoolStats {
        self.books().stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    /// A fake device with `capacity` bytes.
    struct Fake {
        next: Cell<usize>,
        capacity: usize,
        used: Cell<usize>,
        blocks: RefCell<HashMap<usize, usize>>,
    }

    impl Fake {
        fn new(capacity: usize) -> Fake {
            Fake { next: Cell::new(1 << 32), capacity, used: Cell::new(0), blocks: RefCell::default() }
        }
    }

    impl RawDevice for Fake {
        type Error = &'static str;
        fn raw_alloc(&self, bytes: usize) -> Result<usize, &'static str> {
            if self.used.get() + bytes > self.capacity {
                return Err("oom");
            }
            let p = self.next.get();
            self.next.set(p + bytes.next_multiple_of(256));
            self.used.set(self.used.get() + bytes);
            self.blocks.borrow_mut().insert(p, bytes);
            Ok(p)
        }
        fn raw_free(&self, ptr: usize) {
            let bytes = self.blocks.borrow_mut().remove(&ptr).expect("double free or unknown block");
            self.used.set(self.used.get() - bytes);
        }
        fn is_out_of_memory(e: &&'static str) -> bool {
            *e == "oom"
        }
    }

    #[test]
    fn classes_round_small_to_512_and_large_to_2mib() {
        assert_eq!(class_of(0), 512);
        assert_eq!(class_of(1), 512);
        assert_eq!(class_of(512), 512);
        assert_eq!(class_of(513), 1024);
        assert_eq!(class_of(LARGE), LARGE);
        assert_eq!(class_of(LARGE + 1), LARGE_ROUND);
        assert_eq!(class_of(5 << 20), 6 << 20);
    }

    #[test]
    fn freed_blocks_are_reused_without_the_driver() {
        let dev = Fake::new(1 << 30);
        let a = CachingAllocator::default();
        let p = a.alloc(&dev, 1000).unwrap();
        assert!(a.free(p));
        for _ in 0..10 {
            let q = a.alloc(&dev, 1000).unwrap();
            assert_eq!(q, p);
            assert!(a.free(q));
        }
        let s = a.stats();
        assert_eq!((s.driver_allocs, s.reuses, s.driver_frees), (1, 10, 0));
        assert_eq!((s.cached_bytes, s.live_bytes), (1024, 0));
        // A different class does not take it.
        let r = a.alloc(&dev, 5000).unwrap();
        assert_ne!(r, p);
        assert_eq!(a.stats().driver_allocs, 2);
        assert!(!a.free(12345), "unknown blocks are refused");
    }

    #[test]
    fn large_requests_take_a_cached_block_at_most_a_quarter_bigger() {
        let dev = Fake::new(1 << 30);
        let a = CachingAllocator::default();
        let big = a.alloc(&dev, 10 << 20).unwrap();
        a.free(big);
        // 9 MiB → class 10 MiB: exact.
        assert_eq!(a.alloc(&dev, 9 << 20).unwrap(), big);
        a.free(big);
        // 7 MiB → class 8 MiB; 10 MiB is within 25%: taken.
        assert_eq!(a.alloc(&dev, 7 << 20).unwrap(), big);
        a.free(big);
        // 3 MiB → class 4 MiB; 10 MiB is too big: a new block.
        let small = a.alloc(&dev, 3 << 20).unwrap();
        assert_ne!(small, big);
        assert_eq!(a.stats().driver_allocs, 2);
    }

    #[test]
    fn out_of_memory_releases_the_cache_and_retries() {
        let dev = Fake::new(8 << 20);
        let a = CachingAllocator::default();
        let p = a.alloc(&dev, 6 << 20).unwrap();
        a.free(p);
        assert_eq!(a.stats().cached_bytes, 6 << 20);
        // 4 MiB does not fit beside the cached 6 MiB (and 6 MiB is more
        // than 25% bigger than 4): the cache goes back and it fits.
        let q = a.alloc(&dev, 4 << 20).unwrap();
        let s = a.stats();
        assert_eq!((s.driver_frees, s.cached_bytes, s.live_bytes), (1, 0, 4 << 20));
        assert!(dev.blocks.borrow().contains_key(&q));
        // Truly out of memory: the error comes back, the books are intact.
        assert_eq!(a.alloc(&dev, 16 << 20), Err("oom"));
        assert_eq!(a.stats().live_bytes, 4 << 20);
    }

    #[test]
    fn trim_and_forget() {
        let dev = Fake::new(1 << 30);
        let a = CachingAllocator::default();
        let ps: Vec<usize> = (0..5).map(|i| a.alloc(&dev, 100 * (i + 1)).unwrap()).collect();
        for &p in &ps[..3] {
            a.free(p);
        }
        a.trim(&dev);
        assert_eq!(a.stats().driver_frees, 3);
        assert_eq!(dev.blocks.borrow().len(), 2);
        assert_eq!(a.size_of(ps[4]), Some(512));
        a.forget_all();
        assert_eq!(a.size_of(ps[4]), None);
        assert!(!a.free(ps[4]));
        assert_eq!(a.stats().live_bytes, 0);
    }
}
