//! Every diagnostic the macros emit, one case per file under `tests/ui/<macro>/` with its
//! reviewed `.stderr`, and what must compile (`tests/pass/`: hygiene, `crate = …`, lifetimes).
//! One driver, so trybuild builds the dependencies once for all the cases.
//! `TRYBUILD=overwrite cargo test -p ui-tests` rewrites the `.stderr` files; review the diff.

#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/pass/*.rs");
    t.compile_fail("tests/ui/*/*.rs");
}
