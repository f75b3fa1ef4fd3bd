//! The text builder of one PTX function body: virtual registers by class
//! (declared together at the top of the body once the body is complete),
//! fresh labels, and instruction lines.
//!
//! Registers are named by class: `%p` predicates, `%r` 32-bit integers
//! (every C integer type of at most 32 bits lives in one, normalised to its
//! own width and signedness), `%rd` 64-bit integers and addresses, `%f`
//! floats and `%fd` doubles. PTX registers are virtual and may be assigned
//! any number of times, so a register-resident local is one fixed register.

use crate::ty::PtxTy;

/// Register classes, in declaration order.
const CLASSES: [(PtxTy, &str); 6] = [(PtxTy::Pred, "%p"), (PtxTy::B16, "%h"), (PtxTy::B32, "%r"), (PtxTy::B64, "%rd"), (PtxTy::F32, "%f"), (PtxTy::F64, "%fd")];

#[derive(Default)]
pub struct Emitter {
    /// Instruction lines of the body (indented, newline-terminated).
    pub body: String,
    /// Registers used per class (`CLASSES` order); numbering starts at 1.
    counts: [u32; 6],
    labels: u32,
}

fn class_index(ty: PtxTy) -> usize {
    let rc = ty.reg_class();
    CLASSES.iter().position(|(c, _)| *c == rc).unwrap_or(2)
}

impl Emitter {
    /// A fresh register able to hold a value of `ty`.
    pub fn reg(&mut self, ty: PtxTy) -> String {
        let i = class_index(ty);
        self.counts[i] += 1;
        format!("{}{}", CLASSES[i].1, self.counts[i])
    }

    /// A fresh label name (without the colon).
    pub fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__{}", self.labels)
    }

    /// One instruction or directive (without indentation or newline).
    pub fn line(&mut self, text: &str) {
        self.body.push_str("    ");
        self.body.push_str(text);
        self.body.push('\n');
    }

    /// Place `label` here.
    pub fn place(&mut self, label: &str) {
        self.body.push_str(label);
        self.body.push_str(":\n");
    }

    /// The `.reg` declarations of every register used so far.
    pub fn decls(&self) -> String {
        let mut s = String::new();
        for (i, (ty, prefix)) in CLASSES.iter().enumerate() {
            if self.counts[i] > 0 {
                s.push_str(&format!("    .reg .{} {}<{}>;\n", ty.name(), prefix, self.counts[i] + 1));
            }
        }
        s
    }
}

/// The atomic emitters of `atomic.rs` write through the same builder.
impl crate::atomic::Emit for Emitter {
    fn reg(&mut self, ty: PtxTy) -> String {
        Emitter::reg(self, ty)
    }
    fn label(&mut self) -> String {
        Emitter::label(self)
    }
    fn line(&mut self, text: &str) {
        match text.strip_suffix(':') {
            Some(l) if !text.contains(' ') => self.place(l),
            _ => Emitter::line(self, text),
        }
    }
}
