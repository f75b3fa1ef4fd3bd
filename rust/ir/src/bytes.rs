//! A small little-endian byte codec for what the engine keeps on disk (the
//! program images of the Cranelift back end, the driver's program-cache
//! entries). Writing never fails; every read is checked and gives `None`
//! on truncated or malformed input, so a damaged file is a cache miss,
//! never a panic. Lengths and counts are `u64`.

/// Appends values to a byte vector.
#[derive(Default)]
pub struct ByteWriter(pub Vec<u8>);

impl ByteWriter {
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn bool(&mut self, v: bool) {
        self.u8(v as u8);
    }
    /// Length-prefixed bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
    }
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    /// A flag byte, then the value when there is one.
    pub fn opt(&mut self, v: Option<u64>) {
        match v {
            None => self.u8(0),
            Some(v) => {
                self.u8(1);
                self.u64(v);
            }
        }
    }
}

/// Reads what a [`ByteWriter`] wrote, front to back.
pub struct ByteReader<'a>(pub &'a [u8]);

impl<'a> ByteReader<'a> {
    /// The next `n` bytes as they are.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        (self.0.len() >= n).then(|| {
            let (a, b) = self.0.split_at(n);
            self.0 = b;
            a
        })
    }
    pub fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }
    pub fn u32(&mut self) -> Option<u32> {
        self.take(4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes)
    }
    pub fn u64(&mut self) -> Option<u64> {
        self.take(8).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes)
    }
    pub fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
    pub fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n)
    }
    pub fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
    pub fn opt(&mut self) -> Option<Option<u64>> {
        Some(if self.bool()? { Some(self.u64()?) } else { None })
    }
    /// A count of items each at least `min` bytes long: `None` when that
    /// many could not fit in what is left (a corrupt count allocates nothing).
    pub fn count(&mut self, min: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.saturating_mul(min) <= self.0.len()).then_some(n)
    }
    /// Nothing left.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation_is_none() {
        let mut w = ByteWriter::default();
        w.u8(7);
        w.u32(0xdead_beef);
        w.u64(u64::MAX - 1);
        w.bool(true);
        w.str("héllo");
        w.opt(Some(42));
        w.opt(None);
        w.u64(3);
        let bytes = w.0;
        let mut r = ByteReader(&bytes);
        assert_eq!(r.u8(), Some(7));
        assert_eq!(r.u32(), Some(0xdead_beef));
        assert_eq!(r.u64(), Some(u64::MAX - 1));
        assert_eq!(r.bool(), Some(true));
        assert_eq!(r.string().as_deref(), Some("héllo"));
        assert_eq!(r.opt(), Some(Some(42)));
        assert_eq!(r.opt(), Some(None));
        assert_eq!(r.count(1), None, "3 items cannot fit in 0 bytes");
        assert!(r.is_empty());
        for cut in 0..bytes.len() {
            let mut r = ByteReader(&bytes[..cut]);
            let whole = (|| Some((r.u8()?, r.u32()?, r.u64()?, r.bool()?, r.string()?, r.opt()?, r.opt()?, r.u64()?)))();
            assert!(whole.is_none(), "cut at {cut}");
        }
    }
}
