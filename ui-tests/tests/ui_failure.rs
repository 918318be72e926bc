//! Every diagnostic `#[derive(ToolFailure)]` emits, with its reviewed `.stderr`.

#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/failure/*.rs");
}
