//! What the schema dialects cost: each dialect's transform of the 20 tools' schemas and of one
//! hard schema (unions, nullables, an open map, a recursive definition), and each provider's
//! definitions for the 20-tool set, first computed and cached, against listing the specs.
//!
//! Run: `cargo bench -p benches --bench dialects` (see BENCHMARKS.md §3 for the settings). Times
//! are the benchmark thread's CPU time (see `common`).

use std::hint::black_box;

use common::ThreadCpuTime;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tool_executor::ToolExecutor;
use tool_executor::provider::{Definitions, Provider};
use tool_executor::schema::dialect::Dialect;

mod common;

/// The arguments of a tool taking an order: a tagged union, optional fields, a bounded string,
/// a 64-bit count, an open map of labels and a recursive category tree.
fn hard_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "customer": {"type": "string", "minLength": 1, "maxLength": 80},
            "quantity": {"type": "integer", "format": "uint64", "minimum": 0},
            "note": {"type": ["string", "null"]},
            "delivery": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "pickup"}, "store": {"type": "string"}},
                 "required": ["kind", "store"], "additionalProperties": false},
                {"type": "object", "properties": {"kind": {"const": "ship"}, "address": {"$ref": "#/$defs/Address"}},
                 "required": ["kind", "address"], "additionalProperties": false}
            ]},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "category": {"$ref": "#/$defs/Category"}
        },
        "required": ["customer", "quantity", "delivery", "category"],
        "additionalProperties": false,
        "$defs": {
            "Address": {"type": "object", "properties": {
                "street": {"type": "string"}, "city": {"type": "string"},
                "zip": {"type": ["string", "null"], "pattern": "^[0-9]{5}$"}
            }, "required": ["street", "city"], "additionalProperties": false},
            "Category": {"type": "object", "properties": {
                "name": {"type": "string"},
                "parent": {"anyOf": [{"$ref": "#/$defs/Category"}, {"type": "null"}]}
            }, "required": ["name"], "additionalProperties": false}
        }
    })
}

fn transforms(c: &mut Criterion<ThreadCpuTime>) {
    let set = benches::ours::toolset();
    let specs = set.list();
    let hard = hard_schema();
    let mut group = c.benchmark_group("dialect_20_tools");
    for d in Dialect::ALL {
        group.bench_function(d.as_str(), |b| {
            b.iter(|| {
                for spec in specs {
                    black_box(d.input(black_box(&spec.input_schema)));
                    if let Some(output) = &spec.output_schema {
                        black_box(d.output(black_box(output)));
                    }
                }
            });
        });
    }
    group.finish();
    let mut group = c.benchmark_group("dialect_hard_schema");
    for d in Dialect::ALL {
        group.bench_function(d.as_str(), |b| {
            b.iter(|| black_box(d.input(black_box(&hard))));
        });
    }
    group.finish();
}

fn definitions(c: &mut Criterion<ThreadCpuTime>) {
    let set = benches::ours::toolset();
    let mut group = c.benchmark_group("definitions_20_tools");
    group.bench_function("specs", |b| b.iter(|| black_box(black_box(&set).specs())));
    for provider in Provider::ALL {
        set.definitions(provider).expect("distinct names");
        group.bench_function(format!("cached_{provider}"), |b| {
            b.iter(|| black_box(black_box(&set).definitions(provider)).ok());
        });
    }
    for provider in Provider::ALL {
        group.bench_function(format!("first_{provider}"), |b| {
            b.iter(|| black_box(Definitions::from_specs(black_box(set.list()), provider)).ok());
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = transforms, definitions
}
criterion_main!(benches);
