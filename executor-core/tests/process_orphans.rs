//! No process outlives its host: a stdio MCP server (`McpToolExecutor`) and a subprocess
//! tool's call in flight (`SubprocessToolExecutor`), each a shell script with a child in its
//! group that ignores the end of its input and SIGHUP, are gone however the host ends:
//! returning, panicking, `std::process::exit`, SIGTERM (default action) and SIGKILL.
//!
//! The host is this test binary run again with `EXECUTOR_ORPHANS_HOST` set (the test
//! `host_process`). Every process it starts inherits `EXECUTOR_ORPHANS_MARK`, unique per test,
//! so the leftovers are counted in `/proc/*/environ`: Linux only.
#![cfg(all(target_os = "linux", any(feature = "mcp", feature = "subprocess")))]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `<executor> <path>`: what the host starts and how it ends.
const HOST: &str = "EXECUTOR_ORPHANS_HOST";
/// Inherited by everything the host starts.
const MARK: &str = "EXECUTOR_ORPHANS_MARK";
/// Created once the server or the call is running.
const READY: &str = "EXECUTOR_ORPHANS_READY";

/// How long the host may take to start its server, and to exit.
const START: Duration = Duration::from_secs(10);
/// How long the processes it started may take to go once it is gone.
const SETTLE: Duration = Duration::from_secs(3);

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/orphans")
        .join(name)
}

/// The host: not a test of its own (it returns at once unless run by [`leftovers`]).
#[test]
fn host_process() {
    let Ok(spec) = std::env::var(HOST) else {
        return;
    };
    let (executor, path) = spec.split_once(' ').expect("`<executor> <path>`");
    let ready = PathBuf::from(std::env::var_os(READY).expect("a ready file"));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Held until the host ends: dropped when it returns or unwinds, never on the other paths.
    let mut running: Vec<Box<dyn std::any::Any>> = Vec::new();
    #[cfg(feature = "mcp")]
    match executor {
        "mcp" | "both" => running.push(start_server(&runtime, "stubborn_mcp.sh")),
        "mcp-setsid" => running.push(start_server(&runtime, "setsid_mcp.sh")),
        _ => {}
    }
    #[cfg(feature = "subprocess")]
    if matches!(executor, "subprocess" | "both") {
        running.push(start_call(&runtime, &ready.with_extension("started")));
    }
    assert!(
        !running.is_empty(),
        "no executor `{executor}` in this build"
    );
    std::fs::write(&ready, b"").unwrap();
    match path {
        "return" => {}
        "panic" => panic!("the host panics"),
        "exit" => std::process::exit(0),
        // Killed by the test (SIGTERM or SIGKILL); the bound only keeps a lost host finite.
        "term" | "kill" => std::thread::sleep(Duration::from_secs(30)),
        other => panic!("no path `{other}`"),
    }
}

/// Connects an `McpToolExecutor` to `script` (`sh script`).
#[cfg(feature = "mcp")]
fn start_server(runtime: &tokio::runtime::Runtime, script: &str) -> Box<dyn std::any::Any> {
    let config = tool_executor::mcp::McpServerConfig::stdio("stubborn", "sh")
        .arg(fixture(script))
        .protocol(tool_executor::mcp::McpProtocol::Initialize);
    let connect = tool_executor::mcp::McpToolExecutor::connect(config);
    let executor = runtime
        .block_on(async { tokio::time::timeout(START, connect).await })
        .expect("the stub server answers the handshake")
        .unwrap();
    Box::new(executor)
}

/// Starts a subprocess call that never ends, and waits for the script to create `started`.
#[cfg(feature = "subprocess")]
fn start_call(runtime: &tokio::runtime::Runtime, started: &Path) -> Box<dyn std::any::Any> {
    use tool_executor::ToolExecutor;
    use tool_executor::subprocess::{SubprocessTool, SubprocessToolExecutor};
    let tools = SubprocessToolExecutor::new().with_tool(
        "stubborn",
        SubprocessTool::new("sh")
            .arg(fixture("stubborn_tool.sh"))
            .env("STARTED", started)
            .timeout(Duration::from_secs(600)),
    );
    let call = runtime.spawn(async move {
        let _ = tools.execute("stubborn", &serde_json::json!({})).await;
    });
    let since = Instant::now();
    while !started.exists() {
        assert!(since.elapsed() < START, "the call never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = std::fs::remove_file(started);
    Box::new(call)
}

/// Whether `pid` is a live (not zombie) process with `MARK=mark` in its environment.
fn marked(pid: &str, mark: &[u8]) -> bool {
    let proc = Path::new("/proc").join(pid);
    let Ok(stat) = std::fs::read_to_string(proc.join("stat")) else {
        return false;
    };
    // `pid (comm) state …`: comm may hold spaces, so read the state after the last `)`.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return false;
    };
    if rest.trim_start().starts_with('Z') {
        return false;
    }
    std::fs::read(proc.join("environ"))
        .is_ok_and(|environ| environ.split(|&b| b == 0).any(|entry| entry == mark))
}

/// The live processes carrying `mark`, as `pid command…`.
fn members(mark: &str) -> Vec<String> {
    let entry = format!("{MARK}={mark}").into_bytes();
    let mut found = Vec::new();
    for dir in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = dir.file_name().to_string_lossy().into_owned();
        if pid.bytes().all(|b| b.is_ascii_digit()) && marked(&pid, &entry) {
            let cmdline = std::fs::read(dir.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            found.push(format!("{pid} {}", cmdline.trim_end()));
        }
    }
    found
}

/// Waits for the host to exit (killing it past the bound).
fn reap(host: &mut Child) {
    let started = Instant::now();
    while host.try_wait().unwrap().is_none() {
        if started.elapsed() > START {
            let _ = host.kill();
            let _ = host.wait();
            panic!("the host did not end by itself");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs a host that starts `executor` and ends by `path`, and returns the processes it started
/// that are still running `SETTLE` after it is gone (killing them afterwards).
fn leftovers(executor: &str, path: &str) -> Vec<String> {
    leftovers_after(executor, path, |_, _| {})
}

/// [`leftovers`], calling `inspect(host pid, mark)` once the host is ready.
fn leftovers_after(executor: &str, path: &str, inspect: impl FnOnce(u32, &str)) -> Vec<String> {
    let mark = format!("{}-{executor}-{path}", std::process::id());
    let ready = std::env::temp_dir().join(format!("executor-orphans-{mark}.ready"));
    let _ = std::fs::remove_file(&ready);
    let mut host = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "host_process", "--test-threads=1"])
        .env(HOST, format!("{executor} {path}"))
        .env(MARK, &mark)
        .env(READY, &ready)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !ready.exists() {
        if started.elapsed() > START || host.try_wait().unwrap().is_some() {
            let _ = host.kill();
            let _ = host.wait();
            panic!("the host never got its server running ({executor} {path})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = std::fs::remove_file(&ready);
    // A failed inspection still ends the host and its processes before it is reported.
    let inspected =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inspect(host.id(), &mark)));
    if inspected.is_err() && path != "term" {
        let _ = host.kill();
    }
    match path {
        "term" => {
            let status = Command::new("kill")
                .args(["-TERM", &host.id().to_string()])
                .status()
                .unwrap();
            assert!(status.success());
        }
        "kill" => host.kill().unwrap(),
        _ => {}
    }
    reap(&mut host);
    let started = Instant::now();
    let mut left = members(&mark);
    while !left.is_empty() && started.elapsed() < SETTLE {
        std::thread::sleep(Duration::from_millis(20));
        left = members(&mark);
    }
    for member in &left {
        let pid = member.split(' ').next().unwrap();
        let _ = Command::new("kill").args(["-KILL", pid]).status();
    }
    if let Err(panic) = inspected {
        std::panic::resume_unwind(panic);
    }
    left
}

fn assert_none_left(executor: &str, path: &str) {
    let left = leftovers(executor, path);
    assert!(
        left.is_empty(),
        "{} process(es) outlived the host ({executor}, {path}): {left:#?}",
        left.len()
    );
}

#[cfg(feature = "mcp")]
mod mcp {
    use super::assert_none_left;

    #[test]
    fn the_host_returns() {
        assert_none_left("mcp", "return");
    }

    #[test]
    fn the_host_panics() {
        assert_none_left("mcp", "panic");
    }

    #[test]
    fn the_host_calls_exit() {
        assert_none_left("mcp", "exit");
    }

    #[test]
    fn the_host_gets_sigterm() {
        assert_none_left("mcp", "term");
    }

    #[test]
    fn the_host_gets_sigkill() {
        assert_none_left("mcp", "kill");
    }
}

#[cfg(feature = "subprocess")]
mod subprocess {
    use super::assert_none_left;

    #[test]
    fn the_host_returns() {
        assert_none_left("subprocess", "return");
    }

    #[test]
    fn the_host_panics() {
        assert_none_left("subprocess", "panic");
    }

    #[test]
    fn the_host_calls_exit() {
        assert_none_left("subprocess", "exit");
    }

    #[test]
    fn the_host_gets_sigterm() {
        assert_none_left("subprocess", "term");
    }

    #[test]
    fn the_host_gets_sigkill() {
        assert_none_left("subprocess", "kill");
    }
}

/// The documented limit: a process that leaves the group (`setsid`) is out of reach. The host
/// returns normally, and the daemonised `sleep` is the one process left.
#[cfg(feature = "mcp")]
#[test]
fn a_server_that_calls_setsid_escapes() {
    let left = leftovers("mcp-setsid", "return");
    assert_eq!(left.len(), 1, "{left:#?}");
    assert!(left[0].ends_with(" sleep 600"), "{left:#?}");
}

/// The descriptors of `pid`: `(fd, target, flags)`, the flags octal from `fdinfo`.
#[cfg(all(feature = "mcp", feature = "subprocess"))]
fn descriptors(pid: &str) -> Vec<(String, String, u32)> {
    let mut found = Vec::new();
    let dir = Path::new("/proc").join(pid);
    let Ok(entries) = std::fs::read_dir(dir.join("fd")) else {
        return found;
    };
    for entry in entries.flatten() {
        let fd = entry.file_name().to_string_lossy().into_owned();
        let (Ok(target), Ok(info)) = (
            std::fs::read_link(entry.path()),
            std::fs::read_to_string(dir.join("fdinfo").join(&fd)),
        ) else {
            continue; // closed meanwhile
        };
        let flags = info
            .lines()
            .find_map(|line| line.strip_prefix("flags:"))
            .and_then(|octal| u32::from_str_radix(octal.trim(), 8).ok())
            .unwrap_or_default();
        found.push((fd, target.to_string_lossy().into_owned(), flags));
    }
    found
}

/// The write end of each supervisor's pipe is open in the host only, close-on-exec, though the
/// host started more children after it: a stdio server's own supervisor, then a subprocess call
/// with the executor's shared one.
#[cfg(all(feature = "mcp", feature = "subprocess"))]
#[test]
fn only_the_host_holds_the_supervisors_pipes() {
    const O_ACCMODE: u32 = 0o3;
    const O_WRONLY: u32 = 0o1;
    const O_CLOEXEC: u32 = 0o2_000_000;
    let left = leftovers_after("both", "kill", |host, mark| {
        let host = host.to_string();
        let pids: Vec<String> = members(mark)
            .iter()
            .map(|m| m.split(' ').next().unwrap().to_owned())
            .collect();
        let supervisors: Vec<String> = members(mark)
            .into_iter()
            .filter(|m| m.contains("kill -s KILL"))
            .map(|m| m.split(' ').next().unwrap().to_owned())
            .collect();
        assert_eq!(supervisors.len(), 2, "{:#?}", members(mark));
        // The host carries the mark too.
        assert!(pids.contains(&host));
        for supervisor in supervisors {
            let (_, pipe, _) = descriptors(&supervisor)
                .into_iter()
                .find(|(fd, _, _)| fd == "0")
                .expect("the supervisor's stdin");
            assert!(pipe.starts_with("pipe:"), "{pipe}");
            let writers: Vec<(String, u32)> = pids
                .iter()
                .flat_map(|pid| {
                    descriptors(pid)
                        .into_iter()
                        .filter(|(_, target, flags)| {
                            *target == pipe && flags & O_ACCMODE == O_WRONLY
                        })
                        .map(move |(_, _, flags)| (pid.clone(), flags))
                })
                .collect();
            assert_eq!(writers.len(), 1, "{supervisor}'s {pipe}: {writers:?}");
            assert_eq!(writers[0].0, host, "held by the host only");
            assert_ne!(writers[0].1 & O_CLOEXEC, 0, "close-on-exec");
        }
    });
    assert!(left.is_empty(), "{left:#?}");
}

/// What starting a process costs a call: `cargo test --all-features --test process_orphans --
/// --ignored --nocapture spawn_cost` prints the mean wall time of sequential calls to a tool
/// that answers at once (measured figures: the module docs of `transport/process_group.rs`).
/// No assertion: timing is not tested.
#[cfg(feature = "subprocess")]
#[test]
#[ignore = "a measurement, not a test: run it by hand"]
fn spawn_cost() {
    use tool_executor::ToolExecutor;
    use tool_executor::subprocess::{SubprocessTool, SubprocessToolExecutor};
    // Shell builtins only: the request is `{"id":N,…}`, the answer echoes N.
    let answer = r#"IFS= read -r l; id=${l#*\"id\":}; printf '{"jsonrpc":"2.0","id":%s,"result":0}\n' "${id%%,*}""#;
    let tools = SubprocessToolExecutor::new()
        .with_tool("quick", SubprocessTool::new("sh").args(["-c", answer]));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let calls = 300;
    runtime.block_on(async {
        for _ in 0..20 {
            tools
                .execute("quick", &serde_json::json!({}))
                .await
                .unwrap();
        }
        for round in 0..3 {
            let started = Instant::now();
            for _ in 0..calls {
                tools
                    .execute("quick", &serde_json::json!({}))
                    .await
                    .unwrap();
            }
            let call = started.elapsed() / calls;
            let started = Instant::now();
            for _ in 0..calls {
                tokio::process::Command::new("sh")
                    .args(["-c", ":"])
                    .status()
                    .await
                    .unwrap();
            }
            let bare = started.elapsed() / calls;
            println!("round {round}: {call:?} per call, {bare:?} per bare `sh -c :`");
        }
    });
}
