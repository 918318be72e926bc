//! Routing by tool name: the lookup table a `ToolSet` dispatches through, and the one rule
//! for a name an executor does not serve.

use std::sync::Arc;

use serde_json::Value;

use super::context::ToolContext;
use super::executor::{BoxFuture, ToolExecution, ToolExecutor};
use crate::ToolFailure;

/// A call for a tool this executor does not serve: `fallback`'s call, whose result (every
/// typed failure included) passes through unchanged, or, with no fallback, an *unhandled*
/// unknown-tool failure, so an outer executor's fallback may take it. Every executor with a
/// fallback routes through here (`ToolSet`, `McpToolExecutor`, `SubprocessToolExecutor`,
/// `#[tools]` types without one).
pub fn unserved<'a>(
    fallback: Option<&'a Arc<dyn ToolExecutor>>,
    tool: &'a str,
    params: &'a Value,
    ctx: ToolContext,
) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
    match fallback {
        Some(fallback) => fallback.execute_with_context(tool, params, ctx),
        None => Box::pin(std::future::ready(Err(ToolFailure::unknown_tool(tool)))),
    }
}

/// Names to routes, in the order added. An open-addressing index over [`route_key`]: each slot
/// is a route's index plus one, or 0 when empty. Its length is a power of two at least twice
/// the number of routes, so a lookup usually reads one slot and always ends at an empty one
/// (measured against a binary search in BENCHMARKS.md).
pub(crate) struct RouteTable<T> {
    /// Each route's key, name and target, in the order added.
    routes: Vec<(u64, Box<str>, T)>,
    slots: Box<[usize]>,
}

impl<T> RouteTable<T> {
    /// The table of `routes`; a name already present keeps its first route.
    pub(crate) fn new(entries: impl IntoIterator<Item = (String, T)>) -> Self {
        let mut routes: Vec<(u64, Box<str>, T)> = Vec::new();
        for (name, target) in entries {
            if !routes.iter().any(|(_, known, _)| **known == *name) {
                routes.push((route_key(&name), name.into_boxed_str(), target));
            }
        }
        let mut slots = vec![0; (routes.len() * 2).next_power_of_two()].into_boxed_slice();
        let mask = slots.len() - 1;
        for (index, (key, _, _)) in routes.iter().enumerate() {
            let mut slot = slot_of(*key, mask);
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = index + 1;
        }
        Self { routes, slots }
    }

    /// The names, in the order added.
    #[cfg(test)]
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.routes.iter().map(|(_, name, _)| &**name)
    }

    /// The route of `name`.
    // Always inlined: it is most of a call's dispatch, and LLVM kept it out of line once it
    // became generic (measured in BENCHMARKS.md).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        let wanted = route_key(name);
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(wanted, mask);
        loop {
            let index = self.slots[slot].checked_sub(1)?;
            let (key, known, target) = &self.routes[index];
            if *key == wanted && same_name(known, name) {
                return Some(target);
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// A name's bytes packed into an integer without reading past the name and without a loop:
/// names of up to eight bytes are their first and last four (or, shorter than four, their
/// first, middle and last byte) as two halves, longer names their first eight bytes. The
/// lookup hashes it to a slot and compares it before the name, so a probe compares two
/// integers instead of calling `memcmp` (measured in BENCHMARKS.md).
///
/// For names of one length up to eight bytes the key covers every byte, so equal keys and
/// lengths mean equal names ([`same_name`] relies on it; tested below); longer names that
/// share the key are told apart by comparing them whole.
#[inline]
fn route_key(name: &str) -> u64 {
    let b = name.as_bytes();
    let n = b.len();
    if let Some(head) = b.first_chunk::<8>() {
        return u64::from_le_bytes(*head);
    }
    if n >= 4 {
        let lo = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let hi = u32::from_le_bytes([b[n - 4], b[n - 3], b[n - 2], b[n - 1]]);
        return (u64::from(hi) << 32) | u64::from(lo);
    }
    if n == 0 {
        return 0;
    }
    u64::from(b[0]) | (u64::from(b[n / 2]) << 8) | (u64::from(b[n - 1]) << 16)
}

/// The first slot to probe for `key` in a table of `mask + 1` slots: the key's bytes mixed by
/// a multiplication (Fibonacci hashing), its high half taken.
#[inline]
fn slot_of(key: u64, mask: usize) -> usize {
    // The high half fits in `usize` on 32-bit targets too; `mask` keeps it in the table.
    #[allow(clippy::cast_possible_truncation)]
    let mixed = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize;
    mixed & mask
}

/// Whether `route` (whose key equals `name`'s) is `name`: up to eight bytes the key already
/// holds every byte, so only the lengths are left to compare.
#[inline]
fn same_name(route: &str, name: &str) -> bool {
    route.len() == name.len() && (name.len() <= 8 || route == name)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{RouteTable, route_key, same_name};

    /// Every name of `len` bytes over `alphabet`.
    fn names(alphabet: &[u8], len: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        for _ in 0..len {
            out = out
                .iter()
                .flat_map(|prefix| {
                    alphabet.iter().map(move |&c| {
                        let mut name = prefix.clone();
                        name.push(char::from(c));
                        name
                    })
                })
                .collect();
        }
        out
    }

    /// The invariant `same_name` relies on: up to eight bytes, names of one length with one
    /// key are one name. Checked for every name of 1 to 8 bytes over a four-letter alphabet
    /// (the bytes' positions matter, not their values) — 87,380 names.
    #[test]
    fn short_names_with_one_key_and_length_are_equal() {
        for len in 1..=8 {
            let mut seen: HashMap<u64, String> = HashMap::new();
            for name in names(b"a._Z", len) {
                if let Some(other) = seen.insert(route_key(&name), name.clone()) {
                    panic!("`{name}` and `{other}` share a key");
                }
            }
        }
    }

    #[test]
    fn long_names_sharing_a_key_are_compared_whole() {
        let (a, b) = ("notes.search", "notes.searcH");
        assert_eq!(route_key(a), route_key(b));
        assert!(!same_name(a, b));
        let table = RouteTable::new([(a.to_owned(), 1), (b.to_owned(), 2)]);
        assert_eq!(table.get(a), Some(&1));
        assert_eq!(table.get(b), Some(&2));
        assert_eq!(table.get("notes.searc"), None);
        assert_eq!(table.get(""), None);
    }

    #[test]
    fn the_first_route_of_a_name_wins_and_order_is_kept() {
        let table = RouteTable::new([
            ("b".to_owned(), 1),
            ("a".to_owned(), 2),
            ("b".to_owned(), 3),
        ]);
        assert_eq!(table.get("b"), Some(&1));
        assert_eq!(table.names().collect::<Vec<_>>(), ["b", "a"]);
    }
}
