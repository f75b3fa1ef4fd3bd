//! Execution modes and data locality of a kernel body (OpenACC 3.3 §1.2,
//! checklist §6.3): the facts a back end that maps gangs, workers and vector
//! lanes onto separate hardware threads (PTX, OpenCL) needs, computed once by
//! `lower`'s `modes` pass and kept on [`Kernel::exec`](crate::Kernel) so that
//! no back end recomputes them. The multicore back end may ignore them.
//!
//! Statements are named by [`StmtId`]: their preorder position in the kernel
//! body as [`visit_stmts`] numbers them (a statement before the statements of
//! its nested blocks, blocks in source order). The numbering holds as long as
//! the body is not edited after the pass ran.

use crate::module::{Block, LocalId, Stmt, StmtKind};

/// A statement of a kernel body, numbered in preorder by [`visit_stmts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

impl StmtId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Which levels of parallelism are partitioned where a statement runs. A
/// kernel body starts gang-redundant, worker-single and vector-single; an
/// `AccLoop` partitions its body over the levels it names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExecMode {
    /// Bit `d - 1` set: gang-partitioned along grid dimension `d` (GP_d);
    /// clear: gang-redundant along it (GR_d).
    pub gang: u8,
    /// Worker-partitioned (WP); false: worker-single (WS).
    pub worker: bool,
    /// Vector-partitioned (VP); false: vector-single (VS).
    pub vector: bool,
}

impl ExecMode {
    /// Gang-redundant in every grid dimension.
    pub fn gang_redundant(self) -> bool {
        self.gang == 0
    }
    pub fn worker_single(self) -> bool {
        !self.worker
    }
    pub fn vector_single(self) -> bool {
        !self.vector
    }
    /// Run by one executor among several of its gang (one worker, or one lane
    /// of a worker): side effects need predication here.
    pub fn single(self) -> bool {
        !self.worker || !self.vector
    }
    /// The mode inside a loop partitioned over the given levels.
    pub fn enter(self, gang_dim: Option<u8>, worker: bool, vector: bool) -> ExecMode {
        ExecMode { gang: self.gang | gang_dim.map_or(0, |d| 1 << (d.clamp(1, 3) - 1)), worker: self.worker || worker, vector: self.vector || vector }
    }
    /// Where a local bound in this mode lives.
    pub fn locality(self) -> Locality {
        if self.vector {
            Locality::Lane
        } else if self.worker {
            Locality::Worker
        } else {
            Locality::Gang
        }
    }
}

/// Who shares one copy of a local.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Locality {
    /// Private to one vector lane (one device thread).
    Lane,
    /// Shared by the lanes of one worker.
    Worker,
    /// Shared by the workers and lanes of one gang (parameters, locals bound
    /// in gang-redundant or gang-partitioned, worker-single code).
    Gang,
}

/// The values that cross from single-mode code into partitioned code: at an
/// entry (an `AccLoop` that activates workers or vector lanes, or a statement
/// calling a `routine gang`/`worker`/`vector` function from a mode single at
/// the worker or vector level, which every worker and lane of the gang must
/// enter), the locals the entry reads (a loop: in its bounds and body; a call
/// statement: in its own expressions) that are bound outside it and written
/// somewhere in a mode single at a level the entry activates. The executors
/// the entry activates see them only if the one that wrote them broadcasts
/// them (shared memory, shuffles) first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broadcast {
    /// The `AccLoop` statement, or the statement calling the routine.
    pub entry: StmtId,
    /// Workers become active that were single before the entry.
    pub worker: bool,
    /// Vector lanes become active that were single before the entry.
    pub vector: bool,
    /// Sorted, without duplicates.
    pub locals: Vec<LocalId>,
}

/// Execution modes and locality of a kernel body (see the module comment).
/// Empty (the default) for a kernel the pass has not seen, as in hand-made IR.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecInfo {
    /// Per statement (`StmtId`), the mode it runs in. An `AccLoop` statement
    /// runs in the mode outside it (its bounds are evaluated there); its
    /// body's statements run in the partitioned mode.
    pub modes: Vec<ExecMode>,
    /// Per local (`LocalId`), who shares its storage.
    pub locality: Vec<Locality>,
    /// One per entry into partitioned code (see [`Broadcast`]), sorted by
    /// entry (entries with nothing to broadcast have empty `locals`).
    pub broadcasts: Vec<Broadcast>,
    /// Statements running in a single mode (`ExecMode::single`) whose own
    /// expressions have effects beyond the executor's locals: stores through
    /// pointers or to globals, calls of `seq` routines and other functions,
    /// atomics. The executors that are not the single one skip them (they are
    /// predicated on the levels single in the statement's mode). Calls of
    /// partitioned routines are entries (`broadcasts`), not side effects:
    /// a statement listed in both runs its call in every executor and its
    /// other effects in one. Sorted.
    pub side_effects: Vec<StmtId>,
}

impl ExecInfo {
    pub fn mode(&self, s: StmtId) -> ExecMode {
        self.modes[s.index()]
    }
    pub fn locality(&self, l: LocalId) -> Locality {
        self.locality[l.index()]
    }
    /// The broadcast set of an entry into partitioned code.
    pub fn broadcast(&self, entry: StmtId) -> Option<&Broadcast> {
        self.broadcasts.iter().find(|b| b.entry == entry)
    }
    pub fn has_side_effect(&self, s: StmtId) -> bool {
        self.side_effects.binary_search(&s).is_ok()
    }
}

/// The blocks nested directly in a statement, in source order.
pub fn nested_blocks(s: &Stmt) -> Vec<&Block> {
    match &s.kind {
        StmtKind::If(_, t, e) => vec![t, e],
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) | StmtKind::Privates(_, b) => vec![b],
        StmtKind::For { init, body, .. } => vec![init, body],
        StmtKind::Switch(_, cases) => cases.iter().map(|c| &c.body).collect(),
        StmtKind::AccLoop(l) => vec![&l.body],
        StmtKind::Compute(c) => vec![&c.body],
        StmtKind::Data(d) => vec![&d.body],
        StmtKind::HostData(h) => vec![&h.body],
        _ => vec![],
    }
}

/// Visit every statement of `b` in preorder with its [`StmtId`] (the
/// numbering `ExecInfo` uses), starting at 0.
pub fn visit_stmts<'a>(b: &'a Block, f: &mut impl FnMut(StmtId, &'a Stmt)) {
    fn go<'a>(b: &'a Block, next: &mut u32, f: &mut impl FnMut(StmtId, &'a Stmt)) {
        for s in &b.stmts {
            f(StmtId(*next), s);
            *next += 1;
            for nb in nested_blocks(s) {
                go(nb, next, f);
            }
        }
    }
    go(b, &mut 0, f)
}

/// The number of statements in `b`, nested ones included.
pub fn count_stmts(b: &Block) -> usize {
    let mut n = 0;
    visit_stmts(b, &mut |_, _| n += 1);
    n
}
