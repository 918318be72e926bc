//! The quickstart and MCP demo sets against their checked-in contract locks (`locks/`): any
//! change to a tool fails here with its class (breaking, additive, routing, cosmetic,
//! dialect-only) and JSON pointer until the lock is rewritten with `UPDATE_CONTRACT=1 cargo
//! test -p examples --test contract` and the lock's diff reviewed.

#[allow(dead_code)] // the tour's `main` is not run here
#[path = "../quickstart.rs"]
mod quickstart;

#[allow(dead_code)] // the server's `main` is not run here
#[path = "../mcp_server.rs"]
mod demo;

#[test]
fn the_quickstart_tools_keep_their_contract() {
    tool_executor::assert_contract!(quickstart::tools().unwrap(), "locks/quickstart.lock.json");
}

#[test]
fn the_demo_tools_keep_their_contract() {
    tool_executor::assert_contract!(demo::tools(), "locks/demo.lock.json");
}
