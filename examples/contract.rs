//! The contract lock from the command line: what CI runs to check that the quickstart and MCP
//! demo sets still match their checked-in locks (`examples/locks/`).
//!
//! ```text
//! cargo run -p examples --example contract -- check quickstart examples/locks/quickstart.lock.json
//! cargo run -p examples --example contract -- write demo examples/locks/demo.lock.json
//! ```
//!
//! `check` exits 0 when the set matches its lock, 1 with every change (class, tool, JSON
//! pointer, what) on stderr when it does not, 2 on a usage error; `write` (or `check` with
//! `UPDATE_CONTRACT=1`) writes the lock and lists the changes it accepted. In your own crate
//! the same check is one line in a test: `tool_executor::assert_contract!(tools,
//! "tools.lock.json")` (see `tests/contract.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use tool_executor::ToolSet;
use tool_executor::contract::{Checked, check, update_requested};

// The tour's tools and the MCP demo tools, from their own examples (their `main`s go unused).
#[allow(dead_code)]
#[path = "quickstart.rs"]
mod quickstart;

#[allow(dead_code)]
#[path = "mcp_server.rs"]
mod demo;

const USAGE: &str = "usage: contract check|write quickstart|demo LOCK";

fn args() -> Result<(bool, ToolSet, PathBuf), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, set, lock] = args.as_slice() else {
        return Err(format!("expected three arguments, got {}", args.len()));
    };
    let write = match mode.as_str() {
        "check" => update_requested(),
        "write" => true,
        other => return Err(format!("unknown mode `{other}`")),
    };
    let tools = match set.as_str() {
        "quickstart" => quickstart::tools().map_err(|e| e.to_string())?,
        "demo" => demo::tools(),
        other => return Err(format!("unknown set `{other}`")),
    };
    Ok((write, tools, PathBuf::from(lock)))
}

fn main() -> ExitCode {
    let (write, tools, lock) = match args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match check(&tools.contract(), &lock, write) {
        Ok(Checked::Unchanged) => {
            println!("{}: {} tools match", lock.display(), tools.len());
            ExitCode::SUCCESS
        }
        Ok(Checked::Created) => {
            println!("wrote {}: {} tools", lock.display(), tools.len());
            ExitCode::SUCCESS
        }
        Ok(Checked::Updated(diff)) => {
            println!("updated {}: {diff}", lock.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
