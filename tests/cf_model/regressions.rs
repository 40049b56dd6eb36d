//! Shrunk failures of the randomised model test, pinned by name. Each carries a two-line
//! postmortem: what went wrong, and what fixed it.
