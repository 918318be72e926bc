//! Routing by tool name: the lookup table a `ToolSet` dispatches through, and the one rule
//! for a name an executor does not serve.

use std::sync::Arc;

use serde_json::Value;

use super::context::ToolContext;
use super::execution::{BoxFuture, ToolExecution};
use super::executor::ToolExecutor;
use crate::failure::ToolFailure;

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
/// the number of routes, so a lookup always ends at an empty slot; the multiplier that mixes
/// keys into slots is chosen when the table is built so that every route sits in its first
/// slot if one of the candidates allows it, and a lookup of a served name reads one slot
/// (measured against a binary search and a fixed multiplier in BENCHMARKS.md §5).
#[derive(Clone)]
pub(crate) struct RouteTable<T> {
    /// Each route's key, name and target, in the order added.
    routes: Vec<(u64, Box<str>, T)>,
    slots: Box<[usize]>,
    /// The odd multiplier of [`slot_of`].
    mix: u64,
    /// 64 minus the number of bits of a slot index.
    shift: u32,
}

impl<T> std::fmt::Debug for RouteTable<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.routes.iter().map(|(_, name, _)| name))
            .finish()
    }
}

/// How many multipliers a table tries at each size.
const MIXES_TRIED: usize = 64;

/// The largest table, in slots per route: with sixteen or more slots per route a set of a
/// hundred names nearly always finds a multiplier that gives each its own first slot.
const MAX_SLOTS_PER_ROUTE: usize = 32;

impl<T> RouteTable<T> {
    /// The table of `routes`; a name already present keeps its first route.
    ///
    /// Tries [`MIXES_TRIED`] multipliers at twice as many slots as routes, then at four, eight
    /// … up to [`MAX_SLOTS_PER_ROUTE`] times as many, and keeps the first table in which no
    /// route is displaced from its first slot (only names that share a key, which no
    /// multiplier separates, may be), or else the one that displaced fewest.
    pub(crate) fn new(entries: impl IntoIterator<Item = (String, T)>) -> Self {
        let mut routes: Vec<(u64, Box<str>, T)> = Vec::new();
        for (name, target) in entries {
            if !routes.iter().any(|(_, known, _)| **known == *name) {
                routes.push((route_key(&name), name.into_boxed_str(), target));
            }
        }
        let keys: Vec<u64> = routes.iter().map(|(key, _, _)| *key).collect();
        let distinct: std::collections::HashSet<u64> = keys.iter().copied().collect();
        let unavoidable = keys.len() - distinct.len();
        let mut len = (routes.len() * 2).next_power_of_two().max(2);
        let mut best = (usize::MAX, Box::default(), 1);
        'sizes: loop {
            for mix in mixes().take(MIXES_TRIED) {
                let (displaced, slots) = place(&keys, len, mix);
                if displaced < best.0 {
                    best = (displaced, slots, mix);
                }
                if best.0 <= unavoidable {
                    break 'sizes;
                }
            }
            if len >= routes.len() * MAX_SLOTS_PER_ROUTE {
                break;
            }
            len *= 2;
        }
        let (_, slots, mix) = best;
        let shift = 64 - slots.len().trailing_zeros();
        Self {
            routes,
            slots,
            mix,
            shift,
        }
    }

    /// The names, in the order added.
    #[cfg(test)]
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.routes.iter().map(|(_, name, _)| &**name)
    }

    /// The route of `name`.
    // Always inlined: it is most of a call's dispatch, and LLVM kept it out of line once it
    // became generic (measured in BENCHMARKS.md §5).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub(crate) fn get(&self, name: &str) -> Option<&T> {
        let wanted = route_key(name);
        let mask = self.slots.len() - 1;
        let mut slot = slot_of(wanted, self.mix, self.shift);
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
/// integers instead of calling `memcmp` (measured in BENCHMARKS.md §5).
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

/// The first slot to probe for `key` in a table of `2^(64 - shift)` slots: the top bits of
/// the key multiplied by the odd `mix` (Fibonacci hashing for the first candidate), which
/// every byte of the key reaches. (The top bits of the low half, used before, never saw the
/// key's last byte, so names differing only there shared a slot.)
#[inline]
// The index is below the table's length, which fits in `usize`.
#[allow(clippy::cast_possible_truncation)]
fn slot_of(key: u64, mix: u64, shift: u32) -> usize {
    (key.wrapping_mul(mix) >> shift) as usize
}

/// The multipliers a table tries, in order: the golden-ratio constant, then odd numbers from
/// a splitmix64 sequence (fixed, so a set of names always gets the same table).
fn mixes() -> impl Iterator<Item = u64> {
    const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
    std::iter::successors(Some(GOLDEN), |previous| {
        let mut z = previous.wrapping_add(GOLDEN);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Some((z ^ (z >> 31)) | 1)
    })
}

/// The slots of `keys` in a table of `len` slots under `mix`, by linear probing, and how many
/// keys did not get their first slot.
fn place(keys: &[u64], len: usize, mix: u64) -> (usize, Box<[usize]>) {
    let mut slots = vec![0; len].into_boxed_slice();
    let mask = len - 1;
    let shift = 64 - len.trailing_zeros();
    let mut displaced = 0;
    for (index, key) in keys.iter().enumerate() {
        let mut slot = slot_of(*key, mix, shift);
        if slots[slot] != 0 {
            displaced += 1;
        }
        while slots[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        slots[slot] = index + 1;
    }
    (displaced, slots)
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

    use super::{RouteTable, route_key, same_name, slot_of};

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

    /// The multiplier is chosen so that every route of a set sits in its first slot: a served
    /// name is found in one probe. Checked for sets of 1 to 64 generated names.
    #[test]
    fn every_route_of_a_set_sits_in_its_first_slot() {
        for n in 1..=64 {
            let table = RouteTable::new((0..n).map(|i| (format!("tool_{i:02}"), i)));
            for (index, (key, name, target)) in table.routes.iter().enumerate() {
                assert_eq!(
                    table.slots[slot_of(*key, table.mix, table.shift)],
                    index + 1,
                    "`{name}` of {n} is not in its first slot"
                );
                assert_eq!(table.get(name), Some(target));
            }
            assert_eq!(table.get("tool_xx"), None);
        }
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
