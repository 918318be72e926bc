#!/usr/bin/env python3
"""Compile-time benchmark: crates of N tools in three styles, built crate-only in debug.

Generates, under target/compile-time/ws, one workspace with a crate per (style, N):

  ours-N   `#[tool]` functions and a `toolset!`
  hand-N   hand-written: `#[derive(Deserialize, JsonSchema)]` argument structs, a `match`
           dispatcher and a `OnceLock` spec list built with `schema_for!`
  rmcp-N   rmcp 3.x: `#[tool_router]` methods taking `Parameters<Args>`, `#[tool_handler]`

Every tool takes `name: String, count: i64, flag: Option<bool>` and returns its own small
result struct (`#[derive(Serialize, JsonSchema)]` in every style); the hand-written and rmcp
styles also need an argument struct per tool.

Then, after building every dependency once, for each crate it times (CPU time of cargo and
rustc, and wall clock; medians of the rounds; styles interleaved within a round so load on a
shared machine hits all alike):
  clean        `cargo clean -p CRATE` then `cargo build -p CRATE`  (the crate only)
  incremental  one tool's body edited, then `cargo build -p CRATE`
and, with the nightly toolchain, the expanded code size (`cargo rustc -- -Zunpretty=expanded`,
bytes and lines) per tool, from the difference between the N=100 and N=20 crates.

Usage: python3 benches/compile-time/compile_time.py [--rounds R] [--counts 20,100] [--no-expand]
Prints a Markdown table (also written to target/compile-time/results.md).

`--check` only generates the crates and runs `cargo check` on them (no timing): `.ci/run` calls
it with `--counts 20` so the generated code keeps compiling against HEAD.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "target" / "compile-time"
WS = WORK / "ws"
STYLES = ["ours", "hand", "rmcp"]


def reply(i):
    return (
        f"#[derive(Serialize, JsonSchema)]\n"
        f"pub struct R{i:03} {{ pub tool: u32, pub total: i64, pub flagged: bool }}\n"
    )


def body(i, name_expr, marker=0):
    return (
        f"R{i:03} {{ tool: {i + marker * 1000}, total: count * {name_expr}.len() as i64, "
        f"flagged: flag.unwrap_or(false) }}"
    )


def gen_ours(n, marker):
    out = [
        "use tool_executor::prelude::*;",
        "use tool_executor::ToolSet;",
        "use schemars::JsonSchema;",
        "use serde::Serialize;",
        "",
    ]
    for i in range(n):
        out.append(reply(i))
        out.append("/// Scores a name.")
        out.append("#[tool]")
        out.append(f"pub async fn t{i:03}(name: String, count: i64, flag: Option<bool>) -> R{i:03} {{")
        out.append(f"    {body(i, 'name', marker if i == 0 else 0)}")
        out.append("}\n")
    names = ", ".join(f"t{i:03}" for i in range(n))
    out.append(f"pub fn toolset() -> ToolSet {{ toolset![{names}] }}")
    return "\n".join(out) + "\n"


def args_struct(i):
    return (
        f"#[derive(Deserialize, JsonSchema)]\n#[serde(deny_unknown_fields)]\n"
        f"pub struct A{i:03} {{ pub name: String, pub count: i64, pub flag: Option<bool> }}\n"
    )


def gen_hand(n, marker):
    out = [
        "use std::sync::{Arc, OnceLock};",
        "use tool_executor::ToolSpec;",
        "use tool_executor::tool::{BoxFuture, SpecList};",
        "use schemars::JsonSchema;",
        "use serde::{Deserialize, Serialize};",
        "use serde_json::Value;",
        "",
    ]
    for i in range(n):
        out.append(args_struct(i))
        out.append(reply(i))
        out.append(f"pub async fn t{i:03}(a: A{i:03}) -> R{i:03} {{")
        out.append(f"    let A{i:03} {{ name, count, flag }} = a;")
        out.append(f"    {body(i, 'name', marker if i == 0 else 0)}")
        out.append("}\n")
    out.append("pub fn call<'a>(tool: &str, params: &'a Value) -> BoxFuture<'a, Result<Value, String>> {")
    out.append("    match tool {")
    for i in range(n):
        out.append(f'        "t{i:03}" => Box::pin(async move {{')
        out.append(f"            let a = A{i:03}::deserialize(params).map_err(|e| e.to_string())?;")
        out.append(f"            serde_json::to_value(t{i:03}(a).await).map_err(|e| e.to_string())")
        out.append("        }),")
    out.append('        other => { let m = format!("unknown tool `{other}`"); Box::pin(std::future::ready(Err(m))) }')
    out.append("    }")
    out.append("}\n")
    out.append("fn schema<T: JsonSchema>() -> Value { serde_json::to_value(schemars::schema_for!(T)).unwrap() }\n")
    out.append("pub fn specs() -> SpecList {")
    out.append("    static SPECS: OnceLock<SpecList> = OnceLock::new();")
    out.append("    SPECS.get_or_init(|| vec![")
    for i in range(n):
        out.append(
            f'        Arc::new(ToolSpec::new("t{i:03}", "Scores a name.", schema::<A{i:03}>())'
            f".with_output_schema(schema::<R{i:03}>())),"
        )
    out.append("    ].into()).clone()")
    out.append("}")
    return "\n".join(out) + "\n"


def gen_rmcp(n, marker):
    out = [
        "use rmcp::handler::server::router::tool::ToolRouter;",
        "use rmcp::handler::server::wrapper::{Json, Parameters};",
        "use rmcp::{ServerHandler, tool, tool_handler, tool_router};",
        "use schemars::JsonSchema;",
        "use serde::{Deserialize, Serialize};",
        "",
        "#[derive(Clone)]",
        "pub struct Server { tool_router: ToolRouter<Self> }",
        "impl Server { pub fn new() -> Self { Self { tool_router: Self::tool_router() } } }",
        "",
    ]
    for i in range(n):
        out.append(args_struct(i))
        out.append(reply(i))
    out.append("#[tool_router]")
    out.append("impl Server {")
    for i in range(n):
        out.append('    #[tool(description = "Scores a name.")]')
        out.append(f"    async fn t{i:03}(&self, Parameters(a): Parameters<A{i:03}>) -> Json<R{i:03}> {{")
        out.append(f"        let A{i:03} {{ name, count, flag }} = a;")
        out.append(f"        Json({body(i, 'name', marker if i == 0 else 0)})")
        out.append("    }")
    out.append("}\n")
    out.append("#[tool_handler(router = self.tool_router)]")
    out.append("impl ServerHandler for Server {}")
    return "\n".join(out) + "\n"


GEN = {"ours": gen_ours, "hand": gen_hand, "rmcp": gen_rmcp}
DEPS = {
    "ours": ["tool-executor", "serde", "schemars"],
    "hand": ["tool-executor", "serde", "serde_json", "schemars"],
    "rmcp": ["rmcp", "serde", "schemars"],
}


def write_workspace(counts):
    (WS).mkdir(parents=True, exist_ok=True)
    members = [f"{s}-{n}" for n in counts for s in STYLES]
    core = ROOT / "executor-core"
    (WS / "Cargo.toml").write_text(
        f"""[workspace]
resolver = "3"
members = [{", ".join(f'"{m}"' for m in members)}]

[workspace.dependencies]
tool-executor = {{ path = "{core}" }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
schemars = {{ version = "1.2", default-features = false, features = ["derive", "std"] }}
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros"] }}

# As in the executor workspace.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false
"""
    )
    lock = WS / "Cargo.lock"
    if not lock.exists():
        shutil.copy(ROOT / "Cargo.lock", lock)
    for n in counts:
        for s in STYLES:
            crate = WS / f"{s}-{n}"
            (crate / "src").mkdir(parents=True, exist_ok=True)
            deps = "\n".join(f"{d}.workspace = true" for d in DEPS[s])
            (crate / "Cargo.toml").write_text(
                f'[package]\nname = "{s}-{n}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
                f"[dependencies]\n{deps}\n"
            )
            (crate / "src" / "lib.rs").write_text(GEN[s](n, 0))


def cargo(*args, toolchain=None, env=None, check=True):
    cmd = ["cargo"] + ([f"+{toolchain}"] if toolchain else []) + list(args)
    full_env = dict(os.environ)
    full_env.update(env or {})
    full_env.setdefault("CARGO_TARGET_DIR", str(WORK / "target"))
    return subprocess.run(cmd, cwd=WS, env=full_env, check=check, capture_output=True, text=True)


def timed(*args):
    """Wall-clock seconds and CPU seconds (user + system of cargo and the rustc processes it
    waited for). CPU time is what the budget is judged on: the machine is shared, and wall time
    also counts the time slices other processes get."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    cargo(*args)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def expanded_size(crate):
    out = cargo(
        "rustc", "-q", "-p", crate, "--lib", "--", "-Zunpretty=expanded",
        toolchain="nightly",
        env={"CARGO_TARGET_DIR": str(WORK / "target-nightly")},
    ).stdout
    return len(out.encode()), out.count("\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--counts", default="20,100")
    ap.add_argument("--no-expand", action="store_true")
    ap.add_argument("--check", action="store_true", help="generate and `cargo check` only")
    a = ap.parse_args()
    counts = [int(c) for c in a.counts.split(",")]

    write_workspace(counts)
    if a.check:
        cargo("check", "--workspace")
        print(f"generated crates check at HEAD: {', '.join(sorted(p.name for p in WS.iterdir() if (p / 'Cargo.toml').exists() and p != WS))}")
        return
    print("building dependencies once …", file=sys.stderr)
    cargo("build", "--workspace")
    rustc = subprocess.run(["rustc", "--version"], cwd=WS, capture_output=True, text=True).stdout.strip()

    clean = {c: [] for c in (f"{s}-{n}" for n in counts for s in STYLES)}
    incr = {c: [] for c in clean}
    clean_cpu = {c: [] for c in clean}
    incr_cpu = {c: [] for c in clean}
    for r in range(a.rounds):
        for n in counts:
            for s in STYLES:
                crate = f"{s}-{n}"
                cargo("clean", "-p", crate)
                wall, cpu = timed("build", "-p", crate)
                clean[crate].append(wall)
                clean_cpu[crate].append(cpu)
                # Edit one tool's body (alternating, so every round changes something).
                (WS / crate / "src" / "lib.rs").write_text(GEN[s](n, r % 2 + 1))
                wall, cpu = timed("build", "-p", crate)
                incr[crate].append(wall)
                incr_cpu[crate].append(cpu)
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)

    sizes = {}
    if not a.no_expand:
        for crate in clean:
            sizes[crate] = expanded_size(crate)

    lines = [
        f"rustc: `{rustc}`; {a.rounds} rounds; medians in seconds (min–max). CPU = user + system",
        "time of cargo and rustc; wall = elapsed.",
        "",
        "| crate | clean CPU | ratio to hand | clean wall | incremental CPU | ratio to hand | incremental wall | expanded bytes | expanded lines |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def cell(values):
        return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"

    med = {c: statistics.median(v) for c, v in clean_cpu.items()}
    imed = {c: statistics.median(v) for c, v in incr_cpu.items()}
    for n in counts:
        for s in STYLES:
            c = f"{s}-{n}"
            h = f"hand-{n}"
            size = sizes.get(c, ("–", "–"))
            lines.append(
                f"| {c} | {cell(clean_cpu[c])} | {med[c] / med[h]:.2f}× | {cell(clean[c])} "
                f"| {cell(incr_cpu[c])} | {imed[c] / imed[h]:.2f}× | {cell(incr[c])} "
                f"| {size[0]} | {size[1]} |"
            )
    if sizes and len(counts) >= 2:
        lo, hi = min(counts), max(counts)
        lines += ["", f"Expanded code per tool, (size at N={hi} − size at N={lo}) / {hi - lo}:", "",
                  "| style | bytes per tool | lines per tool |", "| --- | --- | --- |"]
        for s in STYLES:
            b = (sizes[f"{s}-{hi}"][0] - sizes[f"{s}-{lo}"][0]) / (hi - lo)
            l = (sizes[f"{s}-{hi}"][1] - sizes[f"{s}-{lo}"][1]) / (hi - lo)
            lines.append(f"| {s} | {b:.0f} | {l:.0f} |")
    text = "\n".join(lines) + "\n"
    (WORK / "results.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
