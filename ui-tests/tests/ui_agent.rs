//! Diagnostics of `agent_executor!` and `#[agent]`, plus what must compile (hygiene, `crate =`).

#[cfg_attr(miri, ignore)]
#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/agent/pass/*.rs");
    t.compile_fail("tests/ui/agent/*.rs");
}
