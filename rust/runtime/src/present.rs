//! The present table of one device (spec §2.6.7–2.6.8): which host ranges
//! have a device copy, where it is, and its structured and dynamic reference
//! counts; plus the attachment counts of attached pointers.
//!
//! This is the bare data structure (an interval map keyed by host start, and
//! a reverse map by device start; and the fixed device homes of `declare
//! link` globals, where their device copies go when they become present);
//! the actions of §2.7 that use it are in `data.rs`. Entries never overlap; a range is *present* when one entry
//! contains all of it, *partly present* when it overlaps entries without
//! being inside one, *not present* otherwise.

use std::collections::{BTreeMap, HashMap};

/// One device copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub host: usize,
    pub bytes: usize,
    pub dev: usize,
    /// Data constructs, compute constructs, `declare`.
    pub structured: u64,
    /// `enter data`/`exit data` and the data API.
    pub dynamic: u64,
    /// Made by `acc_map_data`: the device memory belongs to the user.
    pub mapped: bool,
}

impl Entry {
    pub fn contains(&self, addr: usize, bytes: usize) -> bool {
        addr >= self.host && addr.wrapping_add(bytes) <= self.host + self.bytes
    }
    /// Device address of host address `addr` inside this entry.
    pub fn dev_of(&self, addr: usize) -> usize {
        self.dev + (addr - self.host)
    }
    pub fn total(&self) -> u64 {
        self.structured + self.dynamic
    }
}

/// Where a host range stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Inside the entry starting at this host address.
    Present(usize),
    /// Overlaps the entry (start, bytes) without being inside it.
    Partly(usize, usize),
    NotPresent,
}

/// An attached pointer: its count and the host target it was attached to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub count: u64,
    pub target: usize,
}

#[derive(Debug, Default)]
pub struct PresentTable {
    entries: BTreeMap<usize, Entry>,
    by_dev: BTreeMap<usize, usize>,
    attached: HashMap<usize, Attachment>,
    /// Entries whose device address differs from the host address.
    remapped: usize,
    /// Host ranges (start → bytes, count) that a region names in
    /// `no_create` (or as a zero-length section) while they are absent: a
    /// kernel may receive their host address without using it (see
    /// [`PresentTable::absent_allowed`]).
    absent: BTreeMap<usize, (usize, u64)>,
    /// Per entry (host start): the variables whose data clauses named it
    /// (`a` of `a[10:20]`), so that a launch can tell which present section
    /// a pointer to the start of its array stands for (see
    /// [`PresentTable::find_section_of`]).
    names: HashMap<usize, Vec<Box<str>>>,
    /// Host ranges (start → bytes, device address) whose device copy, when
    /// a data clause makes them present, lives at a fixed device address:
    /// `declare link` globals on a device whose module has a symbol for
    /// them (routines address the symbol directly; see `nvidia.rs`).
    homes: BTreeMap<usize, (usize, usize)>,
}

impl PresentTable {
    pub fn new() -> PresentTable {
        PresentTable::default()
    }

    /// Classifies `[addr, addr+bytes)`; `bytes` 0 is treated as 1.
    pub fn lookup(&self, addr: usize, bytes: usize) -> Lookup {
        let bytes = bytes.max(1);
        let end = addr.saturating_add(bytes);
        if let Some((_, e)) = self.entries.range(..=addr).next_back() {
            if addr < e.host + e.bytes {
                return if e.contains(addr, bytes) { Lookup::Present(e.host) } else { Lookup::Partly(e.host, e.bytes) };
            }
        }
        match self.entries.range(addr..end).next() {
            Some((_, e)) => Lookup::Partly(e.host, e.bytes),
            None => Lookup::NotPresent,
        }
    }

    pub fn get(&self, host_start: usize) -> Option<&Entry> {
        self.entries.get(&host_start)
    }

    pub fn get_mut(&mut self, host_start: usize) -> Option<&mut Entry> {
        self.entries.get_mut(&host_start)
    }

    /// The entry containing `[addr, addr+bytes)`, if any.
    pub fn find(&self, addr: usize, bytes: usize) -> Option<&Entry> {
        match self.lookup(addr, bytes) {
            Lookup::Present(k) => self.entries.get(&k),
            _ => None,
        }
    }

    /// True when `[addr, addr+bytes)` is covered by present entries, one or
    /// several adjacent ones (`acc_is_present`: "fully present", however it
    /// was mapped); `bytes` 0 is treated as 1.
    pub fn covers(&self, addr: usize, bytes: usize) -> bool {
        let end = addr.saturating_add(bytes.max(1));
        let mut at = addr;
        while at < end {
            match self.entries.range(..=at).next_back() {
                Some((_, e)) if at < e.host + e.bytes => at = e.host + e.bytes,
                _ => return false,
            }
        }
        true
    }

    /// Adds an entry; the caller has checked that the range is not present.
    pub fn insert(&mut self, e: Entry) {
        if e.dev != e.host {
            self.remapped += 1;
        }
        self.by_dev.insert(e.dev, e.host);
        self.entries.insert(e.host, e);
    }

    /// Records that a data clause on variable `var` named the entry at `host_start`.
    pub fn name_entry(&mut self, host_start: usize, var: &str) {
        let v = self.names.entry(host_start).or_default();
        if v.len() < 8 && !v.iter().any(|n| &**n == var) {
            v.push(var.into());
        }
    }

    /// The section a pointer `addr` into no present data stands for: the
    /// first entry above `addr` (or the one ending at `addr`) that a data
    /// clause on variable `var` named. `copyin(a[10:20])` makes present
    /// `a + 10` onwards while the kernel receives `a`; its device pointer is
    /// the section's device address less the same offset (the bias GCC and
    /// nvc give such pointers), and the kernel's accesses `a[10..30]` land
    /// in the device copy.
    pub fn find_section_of(&self, addr: usize, var: &str) -> Option<&Entry> {
        let named = |e: &&Entry| self.names.get(&e.host).is_some_and(|ns| ns.iter().any(|n| &**n == var));
        if let Some((_, e)) = self.entries.range(..addr).next_back() {
            if e.host + e.bytes == addr && named(&e) {
                return Some(e);
            }
        }
        self.entries.range(addr..).map(|(_, e)| e).find(named)
    }

    /// Removes an entry and the attachment records of pointers inside it.
    pub fn remove(&mut self, host_start: usize) -> Option<Entry> {
        let e = self.entries.remove(&host_start)?;
        self.names.remove(&host_start);
        if e.dev != e.host {
            self.remapped -= 1;
        }
        if self.by_dev.get(&e.dev) == Some(&e.host) {
            self.by_dev.remove(&e.dev);
        }
        if !self.attached.is_empty() {
            self.attached.retain(|p, _| !(*p >= e.host && *p < e.host + e.bytes));
        }
        Some(e)
    }

    /// Removes every entry (shutdown), returning them.
    pub fn drain(&mut self) -> Vec<Entry> {
        self.by_dev.clear();
        self.absent.clear();
        self.names.clear();
        self.attached.clear();
        self.remapped = 0;
        std::mem::take(&mut self.entries).into_values().collect()
    }

    /// Host address of device address `dev`, if it lies in a device copy.
    pub fn host_of(&self, dev: usize) -> Option<usize> {
        let (_, host) = self.by_dev.range(..=dev).next_back()?;
        let e = self.entries.get(host)?;
        (dev < e.dev + e.bytes.max(1)).then(|| e.host + (dev - e.dev))
    }

    /// A region names absent `[addr, addr+bytes)` in `no_create` (or as a
    /// zero-length section): until [`PresentTable::release_absent`], a
    /// launch may pass host addresses inside it through untranslated — the
    /// spec lets such a region name the data as long as it does not access
    /// it (§2.7.10), so it is no not-present error on a discrete device.
    pub fn allow_absent(&mut self, addr: usize, bytes: usize) {
        let e = self.absent.entry(addr).or_insert((bytes, 0));
        e.0 = e.0.max(bytes);
        e.1 += 1;
    }

    /// Ends one [`PresentTable::allow_absent`] of the range starting at `addr`.
    pub fn release_absent(&mut self, addr: usize) {
        if let Some(e) = self.absent.get_mut(&addr) {
            e.1 -= 1;
            if e.1 == 0 {
                self.absent.remove(&addr);
            }
        }
    }

    /// True when `addr` lies in a range allowed by [`PresentTable::allow_absent`].
    pub fn absent_allowed(&self, addr: usize) -> bool {
        self.absent.range(..=addr).next_back().is_some_and(|(s, (b, _))| addr < s + (*b).max(1))
    }

    /// Range `[host, host+bytes)` gets its device copy at `dev` whenever
    /// it becomes present (see `homes`).
    pub fn set_home(&mut self, host: usize, bytes: usize, dev: usize) {
        self.homes.insert(host, (bytes, dev));
    }

    /// Forgets the home of the range starting at `host`.
    pub fn remove_home(&mut self, host: usize) {
        self.homes.remove(&host);
    }

    /// Forgets every home (the modules holding them are gone).
    pub fn clear_homes(&mut self) {
        self.homes.clear();
    }

    /// The fixed device address of `[addr, addr+bytes)`, if it lies in a home.
    pub fn home_of(&self, addr: usize, bytes: usize) -> Option<usize> {
        let (&h, &(b, d)) = self.homes.range(..=addr).next_back()?;
        (addr + bytes <= h + b).then(|| d + (addr - h))
    }

    /// True when some device copy lives at another address than its host data.
    pub fn has_remapped(&self) -> bool {
        self.remapped > 0
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.values()
    }

    pub fn attachment(&self, ptr_addr: usize) -> Option<Attachment> {
        self.attached.get(&ptr_addr).copied()
    }

    pub fn set_attachment(&mut self, ptr_addr: usize, a: Option<Attachment>) {
        match a {
            Some(a) if a.count > 0 => {
                self.attached.insert(ptr_addr, a);
            }
            _ => {
                self.attached.remove(&ptr_addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(host: usize, bytes: usize) -> Entry {
        Entry { host, bytes, dev: host, structured: 0, dynamic: 1, mapped: false }
    }

    #[test]
    fn lookup_classifies_sub_ranges() {
        let mut t = PresentTable::new();
        t.insert(entry(1000, 100));
        t.insert(entry(1100, 50));
        assert_eq!(t.lookup(1000, 100), Lookup::Present(1000));
        assert_eq!(t.lookup(1010, 10), Lookup::Present(1000));
        assert_eq!(t.lookup(1099, 1), Lookup::Present(1000));
        assert_eq!(t.lookup(1099, 0), Lookup::Present(1000));
        assert_eq!(t.lookup(1100, 50), Lookup::Present(1100));
        // spans two entries: partly present
        assert_eq!(t.lookup(1090, 20), Lookup::Partly(1000, 100));
        // starts before the first entry
        assert_eq!(t.lookup(990, 20), Lookup::Partly(1000, 100));
        assert_eq!(t.lookup(900, 100), Lookup::NotPresent);
        assert_eq!(t.lookup(1150, 10), Lookup::NotPresent);
        assert_eq!(t.lookup(1140, 20), Lookup::Partly(1100, 50));
    }

    #[test]
    fn covers_spans_adjacent_entries() {
        let mut t = PresentTable::new();
        t.insert(entry(1000, 100));
        t.insert(entry(1100, 50));
        t.insert(entry(1200, 10));
        assert!(t.covers(1000, 150));
        assert!(t.covers(1090, 20));
        assert!(t.covers(1149, 0));
        assert!(!t.covers(1000, 151), "a gap after 1150");
        assert!(!t.covers(999, 2));
        assert!(!t.covers(1140, 70));
        assert!(t.covers(1200, 10));
        assert!(!t.covers(1210, 0));
    }

    #[test]
    fn remove_drops_attachments_inside() {
        let mut t = PresentTable::new();
        t.insert(entry(1000, 100));
        t.set_attachment(1008, Some(Attachment { count: 1, target: 5000 }));
        t.set_attachment(2000, Some(Attachment { count: 1, target: 5000 }));
        t.remove(1000);
        assert_eq!(t.attachment(1008), None);
        assert!(t.attachment(2000).is_some());
        assert!(t.is_empty());
    }

    #[test]
    fn host_of_maps_device_addresses_back() {
        let mut t = PresentTable::new();
        t.insert(Entry { host: 1000, bytes: 100, dev: 9000, structured: 0, dynamic: 1, mapped: true });
        assert!(t.has_remapped());
        assert_eq!(t.host_of(9010), Some(1010));
        assert_eq!(t.host_of(9100), None);
        assert_eq!(t.host_of(8999), None);
        assert_eq!(t.find(1050, 10).map(|e| e.dev_of(1050)), Some(9050));
        t.remove(1000);
        assert!(!t.has_remapped());
    }

    #[test]
    fn homes_give_fixed_device_addresses_inside_them_only() {
        let mut t = PresentTable::new();
        assert_eq!(t.home_of(1000, 8), None);
        t.set_home(1000, 400, 50_000);
        t.set_home(2000, 16, 70_000);
        assert_eq!(t.home_of(1000, 400), Some(50_000), "the whole global");
        assert_eq!(t.home_of(1100, 40), Some(50_100), "a section at its offset");
        assert_eq!(t.home_of(1390, 10), Some(50_390));
        assert_eq!(t.home_of(1390, 11), None, "past the end");
        assert_eq!(t.home_of(999, 8), None, "before the start");
        assert_eq!(t.home_of(1500, 8), None, "between homes");
        assert_eq!(t.home_of(2004, 4), Some(70_004));
        // Entries come and go; homes stay until removed.
        t.insert(Entry { host: 1100, bytes: 40, dev: 50_100, structured: 1, dynamic: 0, mapped: true });
        t.drain();
        assert_eq!(t.home_of(1100, 40), Some(50_100));
        t.remove_home(1000);
        assert_eq!(t.home_of(1100, 40), None);
        t.clear_homes();
        assert_eq!(t.home_of(2004, 4), None);
    }
}
