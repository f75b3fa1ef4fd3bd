//! Runs generated code on this CPU and compares every lane with a scalar
//! evaluation of the same program (skipped without AVX-512).

use accjit_back_avx512::{available, compile, compile_with, BinOp, Elem, Op, Options, Program, RedOp, UnOp};

/// Executable copy of some code (unmapped on drop).
struct Exec {
    ptr: *mut libc::c_void,
    len: usize,
}

impl Exec {
    fn new(code: &[u8]) -> Exec {
        let len = code.len().div_ceil(4096) * 4096;
        unsafe {
            let ptr = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
            assert_ne!(ptr, libc::MAP_FAILED);
            std::ptr::copy_nonoverlapping(code.as_ptr(), ptr as *mut u8, code.len());
            assert_eq!(libc::mprotect(ptr, len, libc::PROT_READ | libc::PROT_EXEC), 0);
            Exec { ptr, len }
        }
    }
    fn call(&self, bases: &[*mut u8], uniforms: &[u64], start: i64, end: i64, out: &mut [u8]) {
        type F = unsafe extern "sysv64" fn(*const *mut u8, *const u64, i64, i64, *mut u8);
        let f: F = unsafe { std::mem::transmute(self.ptr) };
        unsafe { f(bases.as_ptr(), uniforms.as_ptr(), start, end, out.as_mut_ptr()) }
    }
}

impl Drop for Exec {
    fn drop(&mut self) {
        unsafe { libc::munmap(self.ptr, self.len) };
    }
}

/// A buffer of `n` elements whose end touches a PROT_NONE page, with
/// `front` guard elements before element 0 (filled with a canary).
struct Guarded {
    map: *mut u8,
    maplen: usize,
    data: *mut u8,
}

impl Guarded {
    fn new(bytes: usize, front: usize) -> Guarded {
        let pages = (bytes + front).div_ceil(4096) + 1;
        let maplen = pages * 4096;
        unsafe {
            let map = libc::mmap(std::ptr::null_mut(), maplen, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0) as *mut u8;
            assert_ne!(map as *mut libc::c_void, libc::MAP_FAILED);
            assert_eq!(libc::mprotect(map.add(maplen - 4096) as *mut _, 4096, libc::PROT_NONE), 0);
            let data = map.add(maplen - 4096 - bytes);
            std::ptr::write_bytes(map, 0xA5, maplen - 4096);
            Guarded { map, maplen, data }
        }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        unsafe { libc::munmap(self.map as *mut _, self.maplen) };
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 1.5
    }
}

/// Scalar evaluation of one iteration (`f64` arithmetic rounded to the
/// element type after every op, which is exact IEEE single arithmetic for
/// + - * / sqrt).
fn eval(p: &Program, mem: &mut [Vec<f64>], unis: &[f64], i: usize, accs: &mut [f64]) {
    let round = |x: f64| if p.elem == Elem::F32 { x as f32 as f64 } else { x };
    let mut v = vec![0f64; p.ops.len()];
    for (k, op) in p.ops.iter().enumerate() {
        v[k] = match *op {
            Op::Load { stream } => mem[stream as usize][i],
            Op::Uniform { index } => unis[index as usize],
            Op::Bin { op, a, b } => {
                let (a, b) = (v[a as usize], v[b as usize]);
                round(match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div => a / b,
                })
            }
            Op::Un { op, a } => {
                let a = v[a as usize];
                match op {
                    UnOp::Neg => -a,
                    UnOp::Abs => a.abs(),
                    UnOp::Sqrt => round(a.sqrt()),
                }
            }
            Op::Store { stream, value } => {
                mem[stream as usize][i] = v[value as usize];
                0.0
            }
            Op::Accumulate { acc, value } => {
                let x = v[value as usize];
                accs[acc as usize] = round(if p.accs[acc as usize] == RedOp::Add { accs[acc as usize] + x } else { accs[acc as usize] * x });
                0.0
            }
        };
    }
}

fn run_case(p: &Program, start: i64, end: i64, seed: u64) {
    run_case_with(p, Options::default(), start, end, seed)
}

fn run_case_with(p: &Program, opts: Options, start: i64, end: i64, seed: u64) {
    let code = compile_with(p, opts).unwrap_or_else(|e| panic!("{e:?}\n{p}"));
    let exec = Exec::new(&code.bytes);
    let size = p.elem.size() as usize;
    let n = end.max(start).max(0) as usize;
    let mut rng = Rng(seed | 1);
    let mut model: Vec<Vec<f64>> =
        (0..p.streams).map(|_| (0..n).map(|_| rng.next()).map(|x| if p.elem == Elem::F32 { x as f32 as f64 } else { x }).collect()).collect();
    let unis: Vec<f64> = (0..p.uniforms).map(|_| rng.next()).map(|x| if p.elem == Elem::F32 { x as f32 as f64 } else { x }).collect();
    let front = 256;
    let bufs: Vec<Guarded> = (0..p.streams).map(|_| Guarded::new(n * size, front)).collect();
    for (b, m) in bufs.iter().zip(&model) {
        for (i, &x) in m.iter().enumerate() {
            unsafe {
                match p.elem {
                    Elem::F32 => (b.data as *mut f32).add(i).write_unaligned(x as f32),
                    Elem::F64 => (b.data as *mut f64).add(i).write_unaligned(x),
                }
            }
        }
    }
    let bases: Vec<*mut u8> = bufs.iter().map(|b| b.data).collect();
    let ubits: Vec<u64> = unis.iter().map(|&x| if p.elem == Elem::F32 { (x as f32).to_bits() as u64 } else { x.to_bits() }).collect();
    let mut out = vec![0u8; 64 * p.accs.len() + 64];
    out[64 * p.accs.len()..].fill(0x5A);
    exec.call(&bases, &ubits, start, end, &mut out);

    let lanes = p.elem.lanes() as usize;
    // The model: lane l of the accumulator folds iterations i ≡ l (mod L)
    // in one of the unrolled copies; compare the fold of all lanes instead.
    let mut want_acc: Vec<f64> = p.accs.iter().map(|&o| if o == RedOp::Add { 0.0 } else { 1.0 }).collect();
    let mut per_iter = vec![Vec::new(); p.accs.len()];
    for i in start.max(0) as usize..end.max(0) as usize {
        let mut a: Vec<f64> = p.accs.iter().map(|&o| if o == RedOp::Add { 0.0 } else { 1.0 }).collect();
        eval(p, &mut model, &unis, i, &mut a);
        for j in 0..p.accs.len() {
            per_iter[j].push(a[j]);
            want_acc[j] = if p.accs[j] == RedOp::Add { want_acc[j] + a[j] } else { want_acc[j] * a[j] };
        }
    }
    for (s, (b, m)) in bufs.iter().zip(&model).enumerate() {
        for (i, &x) in m.iter().enumerate() {
            let got = unsafe {
                match p.elem {
                    Elem::F32 => (b.data as *const f32).add(i).read_unaligned() as f64,
                    Elem::F64 => (b.data as *const f64).add(i).read_unaligned(),
                }
            };
            assert_eq!(got.to_bits(), x.to_bits(), "stream {s} element {i} (start {start}, end {end}): got {got}, want {x}\n{p}");
        }
        let guard = unsafe { std::slice::from_raw_parts(b.data.sub(front), front) };
        assert!(guard.iter().all(|&x| x == 0xA5), "stream {s}: written before element 0");
    }
    assert!(out[64 * p.accs.len()..].iter().all(|&x| x == 0x5A), "written past the accumulators");
    for j in 0..p.accs.len() {
        let lanes_v: Vec<f64> = (0..lanes)
            .map(|l| unsafe {
                match p.elem {
                    Elem::F32 => (out.as_ptr().add(64 * j) as *const f32).add(l).read_unaligned() as f64,
                    Elem::F64 => (out.as_ptr().add(64 * j) as *const f64).add(l).read_unaligned(),
                }
            })
            .collect();
        let got = lanes_v.iter().fold(if p.accs[j] == RedOp::Add { 0.0 } else { 1.0 }, |a, &x| if p.accs[j] == RedOp::Add { a + x } else { a * x });
        let tol = 1e-4 * (1.0 + per_iter[j].iter().map(|x| x.abs()).sum::<f64>()) * if p.elem == Elem::F32 { 1.0 } else { 1e-8 };
        let tol = if p.accs[j] == RedOp::Mul { tol.max(1e-4 * want_acc[j].abs()) } else { tol };
        assert!((got - want_acc[j]).abs() <= tol, "acc{j} (start {start}, end {end}): got {got}, want {}", want_acc[j]);
        if end <= start {
            assert!(lanes_v.iter().all(|&x| x == if p.accs[j] == RedOp::Add { 0.0 } else { 1.0 }), "identity expected");
        }
    }
}

const LENGTHS: &[i64] = &[0, 1, 2, 15, 16, 17, 31, 33, 63, 64, 65, 127, 1000, 1001];

fn each_case(p: &Program) {
    if !available() {
        eprintln!("skipped: this CPU has no AVX-512");
        return;
    }
    for (k, &n) in LENGTHS.iter().enumerate() {
        run_case(p, 0, n, 1 + k as u64);
        run_case(p, 3, n + 3, 100 + k as u64);
    }
    run_case(p, 9, 5, 7);
    // Non-temporal stores where the program allows them: the aligned head
    // peeled from every misalignment, and the plain path after it.
    let nt = Options { nontemporal: true };
    if compile_with(p, nt).is_ok() {
        for (k, &n) in LENGTHS.iter().enumerate() {
            for start in [0, 1, 5, 15] {
                run_case_with(p, nt, start, n + start, 200 + 7 * k as u64 + start as u64);
            }
        }
        run_case_with(p, nt, 9, 5, 7);
    }
}

#[test]
fn nontemporal_needs_one_write_only_store() {
    let nt = Options { nontemporal: true };
    assert!(compile_with(&saxpy(Elem::F32), nt).is_err(), "saxpy loads the stream it stores");
    let copy = Program { elem: Elem::F64, streams: 2, uniforms: 0, accs: vec![], ops: vec![Op::Load { stream: 1 }, Op::Store { stream: 0, value: 0 }] };
    // EVEX (0x62, three payload bytes) + opcode 0x2B: vmovntps/pd.
    let movnt = |b: &[u8]| b.windows(5).any(|w| w[0] == 0x62 && w[4] == 0x2B);
    assert!(movnt(&compile_with(&copy, nt).unwrap().bytes));
    assert!(!movnt(&compile(&copy).unwrap().bytes));
    each_case(&copy);
    let two = Program {
        elem: Elem::F32,
        streams: 3,
        uniforms: 0,
        accs: vec![],
        ops: vec![Op::Load { stream: 2 }, Op::Store { stream: 0, value: 0 }, Op::Store { stream: 1, value: 0 }],
    };
    assert!(compile_with(&two, nt).is_err());
}

use Op::*;

fn saxpy(elem: Elem) -> Program {
    // y = a * x + y
    Program {
        elem,
        streams: 2,
        uniforms: 1,
        accs: vec![],
        ops: vec![
            Uniform { index: 0 },
            Load { stream: 0 },
            Bin { op: BinOp::Mul, a: 0, b: 1 },
            Load { stream: 1 },
            Bin { op: BinOp::Add, a: 2, b: 3 },
            Store { stream: 1, value: 4 },
        ],
    }
}

#[test]
fn saxpy_f32_and_f64() {
    each_case(&saxpy(Elem::F32));
    each_case(&saxpy(Elem::F64));
}

#[test]
fn every_operation() {
    for elem in [Elem::F32, Elem::F64] {
        // z = sqrt(|x|) / (y - u0) ; w = -(x*y) + w ; then w reloaded and stored to z2
        let p = Program {
            elem,
            streams: 4,
            uniforms: 2,
            accs: vec![],
            ops: vec![
                Load { stream: 0 },                   // 0 x
                Un { op: UnOp::Abs, a: 0 },           // 1
                Un { op: UnOp::Sqrt, a: 1 },          // 2
                Load { stream: 1 },                   // 3 y
                Uniform { index: 0 },                 // 4
                Bin { op: BinOp::Sub, a: 3, b: 4 },   // 5
                Bin { op: BinOp::Div, a: 2, b: 5 },   // 6
                Store { stream: 2, value: 6 },        // z
                Bin { op: BinOp::Mul, a: 0, b: 3 },   // 8
                Un { op: UnOp::Neg, a: 8 },           // 9
                Load { stream: 3 },                   // 10 w
                Bin { op: BinOp::Add, a: 9, b: 10 },  // 11
                Store { stream: 3, value: 11 },       // w
                Load { stream: 3 },                   // 13: sees the store
                Uniform { index: 1 },                 // 14
                Bin { op: BinOp::Mul, a: 13, b: 14 }, // 15
                Store { stream: 0, value: 15 },       // x = w * u1
            ],
        };
        each_case(&p);
    }
}

#[test]
fn reductions() {
    for elem in [Elem::F32, Elem::F64] {
        // s += x*y ; p *= (1 + x*u0) ; t -= y (as + neg)
        let p = Program {
            elem,
            streams: 2,
            uniforms: 2,
            accs: vec![RedOp::Add, RedOp::Mul, RedOp::Add],
            ops: vec![
                Load { stream: 0 },
                Load { stream: 1 },
                Bin { op: BinOp::Mul, a: 0, b: 1 },
                Accumulate { acc: 0, value: 2 },
                Uniform { index: 0 },
                Bin { op: BinOp::Mul, a: 0, b: 4 },
                Uniform { index: 1 },
                Bin { op: BinOp::Add, a: 5, b: 6 },
                Accumulate { acc: 1, value: 7 },
                Un { op: UnOp::Neg, a: 1 },
                Accumulate { acc: 2, value: 9 },
            ],
        };
        each_case(&p);
    }
}

#[test]
fn many_streams_and_high_registers() {
    for elem in [Elem::F32, Elem::F64] {
        // out = sum of 8 streams, each times its own uniform; 9 streams.
        let mut ops = vec![];
        let mut acc = None;
        for s in 0..8u32 {
            ops.push(Load { stream: s });
            ops.push(Uniform { index: s });
            let l = ops.len() as u32;
            ops.push(Bin { op: BinOp::Mul, a: l - 2, b: l - 1 });
            let m = ops.len() as u32 - 1;
            acc = Some(match acc {
                None => m,
                Some(a) => {
                    ops.push(Bin { op: BinOp::Add, a, b: m });
                    ops.len() as u32 - 1
                }
            });
        }
        ops.push(Store { stream: 8, value: acc.unwrap() });
        each_case(&Program { elem, streams: 9, uniforms: 8, accs: vec![], ops });
    }
}

#[test]
fn wide_live_ranges_use_many_registers() {
    // 24 loads live at once, then summed: temporaries reach zmm23.
    let mut ops: Vec<Op> = (0..24).map(|_| Load { stream: 0 }).collect();
    let mut a = 0u32;
    for k in 1..24u32 {
        ops.push(Bin { op: BinOp::Add, a, b: k });
        a = ops.len() as u32 - 1;
    }
    ops.push(Store { stream: 1, value: a });
    each_case(&Program { elem: Elem::F32, streams: 2, uniforms: 0, accs: vec![], ops });
}

#[test]
fn bad_programs_are_declined() {
    let bad = [
        Program { elem: Elem::F32, streams: 1, uniforms: 0, accs: vec![], ops: vec![Load { stream: 1 }] },
        Program { elem: Elem::F32, streams: 1, uniforms: 0, accs: vec![], ops: vec![Bin { op: BinOp::Add, a: 0, b: 0 }] },
        Program {
            elem: Elem::F32,
            streams: 1,
            uniforms: 0,
            accs: vec![],
            ops: vec![Load { stream: 0 }, Store { stream: 0, value: 0 }, Store { stream: 0, value: 1 }],
        },
        Program { elem: Elem::F32, streams: 10, uniforms: 0, accs: vec![], ops: vec![] },
        Program { elem: Elem::F32, streams: 1, uniforms: 40, accs: vec![], ops: vec![] },
        Program {
            elem: Elem::F32,
            streams: 1,
            uniforms: 0,
            accs: vec![],
            ops: (0..40).map(|_| Load { stream: 0 }).chain((1..40).map(|k| Bin { op: BinOp::Add, a: 0, b: k })).collect(),
        },
    ];
    for p in &bad {
        assert!(compile(p).is_err(), "accepted:\n{p}");
    }
}
