//! Snapshot helper: compares a JSON value with `tests/snapshots/<name>.json`.
//! `UPDATE_SNAPSHOTS=1` rewrites the file instead (review the diff before committing).

use std::path::PathBuf;

use serde_json::Value;

#[track_caller]
pub fn assert_snapshot(name: &str, actual: &Value) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.json"));
    let pretty = serde_json::to_string_pretty(actual).unwrap() + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, pretty).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "missing snapshot {} ({e}); run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    let expected: Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(
        &expected, actual,
        "snapshot {name} differs; run with UPDATE_SNAPSHOTS=1 and review the diff"
    );
}
