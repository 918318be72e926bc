//! Runnable examples live in this folder; see `quickstart.rs`.
