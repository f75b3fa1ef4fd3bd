//! Tokens of one logical line (Fortran is tokenized statement by statement:
//! the source form is already undone by `source`). Names are lower-cased.
