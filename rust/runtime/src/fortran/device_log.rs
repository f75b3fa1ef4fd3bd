//! Fortran output that device code of a discrete device logged
//! (`accjit_abi::device_io_log`: one record per call of an output entry
//! point, with its arguments' bits and texts), replayed on the calling
//! host thread through the same entry points as host code calls, so the
//! bytes are the host's. The records of all device threads come
//! interleaved; each thread's statement (`*_begin` .. its `*_end`, nested
//! ones within) is replayed whole when its end record is reached, so the
//! statements come out in the order they ended on the device (threads
//! running at once have no defined order, as on the CPU devices); pad
//! records (the unused rest of a thread's region) are skipped. A
//! statement whose records did not all fit in the log is not replayed; a
//! warning on stderr says how many were lost.

use super::io;
use accjit_abi::device_io_log as log;
use accjit_abi::AbiType;
use std::collections::HashMap;
use std::ffi::CString;

/// One logged argument.
enum Arg {
    Bits(u64),
    Text(Vec<u8>),
}

/// One logged call.
struct Call {
    entry: &'static str,
    args: Vec<Arg>,
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The record at the start of `b`: (its thread and call, None for a pad
/// record; its size), None at the end of the records (a zero size, a short
/// or malformed record).
fn record(b: &[u8]) -> Option<(Option<(u64, Call)>, usize)> {
    let id = u32_at(b, 0)?;
    let size = u32_at(b, 4)? as usize;
    if id == log::PAD && size >= 8 && size.is_multiple_of(8) && size <= b.len() {
        return Some((None, size));
    }
    let entry = *log::LOGGED.get(id as usize)?;
    if size < log::RECORD_HEAD || !size.is_multiple_of(8) || size > b.len() {
        return None;
    }
    let thread = u64_at(b, 8)?;
    let params = accjit_abi::fortran_entry_point(entry)?.params;
    let mut at = log::RECORD_HEAD;
    let mut args = vec![];
    for p in params {
        let v = u64_at(&b[..size], at)?;
        at += 8;
        args.push(match p {
            AbiType::Ptr | AbiType::CStr => {
                let n = (v as usize).min(log::MAX_TEXT);
                let text = b[..size].get(at..at + n)?.to_vec();
                at += n.div_ceil(8) * 8;
                Arg::Text(text)
            }
            _ => Arg::Bits(v),
        });
    }
    Some((Some((thread, Call { entry, args })), size))
}

impl Call {
    fn bits(&self, k: usize) -> u64 {
        match self.args.get(k) {
            Some(Arg::Bits(v)) => *v,
            _ => 0,
        }
    }

    fn text(&self, k: usize) -> &[u8] {
        match self.args.get(k) {
            Some(Arg::Text(t)) => t,
            _ => &[],
        }
    }

    /// Makes the call on this thread.
    fn run(&self) {
        use accjit_abi::*;
        let f = |k| f64::from_bits(self.bits(k));
        let i = |k| self.bits(k) as i64;
        match self.entry {
            F_WRITE_BEGIN => {
                let fmt = self.text(1);
                let loc = CString::new(self.text(3).iter().copied().filter(|&c| c != 0).collect::<Vec<u8>>()).unwrap_or_default();
                // SAFETY: `fmt` is `fmt.len()` bytes, `loc` NUL-terminated, both alive for the call
                unsafe { io::__accjit_f_write_begin(i(0), fmt.as_ptr(), fmt.len() as i64, loc.as_ptr()) }
            }
            F_WRITE_I64 => io::__accjit_f_write_i64(i(0), i(1)),
            F_WRITE_F64 => io::__accjit_f_write_f64(f(0), i(1)),
            F_WRITE_C64 => io::__accjit_f_write_c64(f(0), f(1), i(2)),
            F_WRITE_LOGICAL => io::__accjit_f_write_logical(i(0), i(1)),
            F_WRITE_STR => {
                let t = self.text(0);
                // SAFETY: `t` is `t.len()` bytes
                unsafe { io::__accjit_f_write_str(t.as_ptr(), t.len() as i64) }
            }
            F_WRITE_END => {
                io::__accjit_f_write_end();
            }
            F_IO_NONADVANCING => io::__accjit_f_io_nonadvancing(),
            F_IO_IOSTAT => io::__accjit_f_io_iostat(),
            _ => {}
        }
    }

    fn begins(&self) -> bool {
        self.entry == accjit_abi::F_WRITE_BEGIN
    }

    fn ends(&self) -> bool {
        self.entry == accjit_abi::F_WRITE_END
    }
}

/// The log's records `bytes` as whole statements, in the order they
/// ended (each its thread's calls from `*_begin` to the matching `*_end`),
/// and the number of statements begun whose end is missing.
fn statements(bytes: &[u8]) -> (Vec<Vec<Call>>, usize) {
    // per device thread: (statements begun and not ended, its calls so far)
    let mut open: HashMap<u64, (usize, Vec<Call>)> = HashMap::new();
    let mut done = vec![];
    let mut at = 0;
    while let Some((rec, size)) = record(&bytes[at..]) {
        at += size;
        let Some((thread, call)) = rec else { continue };
        let (depth, calls) = open.entry(thread).or_default();
        if call.begins() {
            *depth += 1;
        } else if call.ends() {
            *depth = depth.saturating_sub(1);
        }
        calls.push(call);
        if *depth == 0 {
            done.extend(open.remove(&thread).map(|(_, calls)| calls));
        }
    }
    (done, open.values().filter(|(d, _)| *d > 0).count())
}

/// Replays the log's records `bytes` (its first `min(used, capacity)`
/// bytes) after a launch of `kernel`; `dropped` statements found no room.
pub fn replay(bytes: &[u8], dropped: u64, capacity: usize, kernel: &str) {
    let (done, unfinished) = statements(bytes);
    for calls in &done {
        calls.iter().for_each(Call::run);
    }
    let lost = dropped + unfinished as u64;
    if lost > 0 {
        crate::hosted::flush_c_stdio();
        eprintln!(
            "accjit: warning: kernel {kernel}: {lost} Fortran output statements of device code lost: the device's log of {capacity} bytes was full ({} printed)",
            done.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as the device writes it.
    fn rec(out: &mut Vec<u8>, entry: &str, thread: u64, args: &[Arg]) {
        let id = log::LOGGED.iter().position(|&n| n == entry).unwrap() as u32;
        let mut body = vec![];
        for a in args {
            match a {
                Arg::Bits(v) => body.extend_from_slice(&v.to_le_bytes()),
                Arg::Text(t) => {
                    body.extend_from_slice(&(t.len() as u64).to_le_bytes());
                    body.extend_from_slice(t);
                    body.resize(body.len().div_ceil(8) * 8, 0xee);
                }
            }
        }
        out.extend_from_slice(&id.to_le_bytes());
        out.extend_from_slice(&((log::RECORD_HEAD + body.len()) as u32).to_le_bytes());
        out.extend_from_slice(&thread.to_le_bytes());
        out.extend_from_slice(&body);
    }

    #[test]
    fn records_decode_with_their_texts_and_bits() {
        use accjit_abi::*;
        let mut b = vec![];
        rec(&mut b, F_WRITE_BEGIN, 7, &[Arg::Bits(-1i64 as u64), Arg::Text(b"(I3)".to_vec()), Arg::Bits(4), Arg::Text(b"t.f90:3".to_vec())]);
        rec(&mut b, F_WRITE_F64, 7, &[Arg::Bits(2.5f64.to_bits()), Arg::Bits(8)]);
        b.extend_from_slice(&[0u8; 16]);
        let (Some((thread, c)), size) = record(&b).unwrap() else { panic!("a pad") };
        assert_eq!((thread, c.entry, c.bits(0) as i64, c.text(1), c.bits(2), c.text(3)), (7, F_WRITE_BEGIN, -1, &b"(I3)"[..], 4, &b"t.f90:3"[..]));
        assert_eq!(size, 16 + 8 + (8 + 8) + 8 + (8 + 8), "texts padded to 8 bytes");
        let (Some((_, c)), size2) = record(&b[size..]).unwrap() else { panic!("a pad") };
        assert_eq!((c.entry, f64::from_bits(c.bits(0)), c.bits(1)), (F_WRITE_F64, 2.5, 8));
        assert!(record(&b[size + size2..]).is_none(), "a zero size ends the records");
        assert!(record(&b[..size - 8]).is_none(), "a record cut short is not read");
    }

    #[test]
    fn statements_of_interleaved_threads_come_out_whole() {
        use accjit_abi::*;
        let mut b = vec![];
        let begin = |b: &mut Vec<u8>, t| rec(b, F_WRITE_BEGIN, t, &[Arg::Bits(6), Arg::Text(vec![]), Arg::Bits(0), Arg::Text(b"x.f90:1".to_vec())]);
        begin(&mut b, 1);
        begin(&mut b, 2);
        rec(&mut b, F_WRITE_I64, 2, &[Arg::Bits(20), Arg::Bits(4)]);
        // the rest of a region: skipped
        b.extend_from_slice(&log::PAD.to_le_bytes());
        b.extend_from_slice(&24u32.to_le_bytes());
        b.extend_from_slice(&[0xee; 16]);
        rec(&mut b, F_WRITE_I64, 1, &[Arg::Bits(10), Arg::Bits(4)]);
        begin(&mut b, 2); // nested in thread 2's statement (an item's function prints)
        rec(&mut b, F_WRITE_END, 2, &[]);
        rec(&mut b, F_WRITE_END, 1, &[]);
        rec(&mut b, F_WRITE_I64, 2, &[Arg::Bits(21), Arg::Bits(4)]);
        rec(&mut b, F_WRITE_END, 2, &[]);
        begin(&mut b, 3);
        rec(&mut b, F_WRITE_I64, 3, &[Arg::Bits(30), Arg::Bits(4)]);
        // thread 3's end was dropped: its statement is not replayed
        let (done, unfinished) = statements(&b);
        let seen: Vec<Vec<(&str, i64)>> = done.iter().map(|calls| calls.iter().map(|c| (c.entry, c.bits(0) as i64)).collect()).collect();
        let (w, i, e) = (F_WRITE_BEGIN, F_WRITE_I64, F_WRITE_END);
        assert_eq!(seen, vec![vec![(w, 6), (i, 10), (e, 0)], vec![(w, 6), (i, 20), (w, 6), (e, 0), (i, 21), (e, 0)]]);
        assert_eq!(unfinished, 1);
    }
}
