//! Diagnostics of `#[tool]`, `#[tools]` and `toolset!`, and compile-pass hygiene cases.

#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/pass/*.rs");
    t.compile_fail("tests/ui/tool/*.rs");
}
