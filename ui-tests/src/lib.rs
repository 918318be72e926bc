//! trybuild cases for the executor macros.
