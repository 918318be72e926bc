//! `Extensions`: typed values a transport attaches to a call, read by the tool by type.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// A map from a type to one value of it: what a transport knows about a call beyond the
/// arguments (the authenticated [`Principal`](crate::auth::Principal), allow-listed HTTP
/// headers, the MCP request's `_meta`, the A2A call), read by a tool through
/// [`ToolContext::extension`](crate::ToolContext::extension).
///
/// Values are shared (`Arc`), so cloning a map, or a context that holds one, copies pointers.
/// A second value of a type replaces the first.
///
/// ```
/// use tool_executor::tool::Extensions;
///
/// #[derive(Debug, PartialEq)]
/// struct Tenant(&'static str);
///
/// let mut map = Extensions::new();
/// assert!(map.insert(Tenant("acme")).is_none());
/// assert_eq!(map.get::<Tenant>(), Some(&Tenant("acme")));
/// assert_eq!(map.get::<u32>(), None);
/// ```
#[derive(Clone, Default)]
pub struct Extensions {
    map: HashMap<TypeId, Entry>,
}

#[derive(Clone)]
struct Entry {
    value: Arc<dyn Any + Send + Sync>,
    /// For `Debug`: the map cannot print values of unknown types, but it can say which.
    name: &'static str,
}

impl Extensions {
    /// An empty map (allocates nothing).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Stores `value`, returning the value of its type stored before, if any.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) -> Option<Arc<T>> {
        self.insert_shared(Arc::new(value))
    }

    /// Stores a shared value without copying it (one principal for every call of a connection).
    pub fn insert_shared<T: Send + Sync + 'static>(&mut self, value: Arc<T>) -> Option<Arc<T>> {
        let entry = Entry {
            value,
            name: type_name::<T>(),
        };
        self.map
            .insert(TypeId::of::<T>(), entry)
            .and_then(|old| old.value.downcast().ok())
    }

    /// The value of type `T`, if one was stored.
    #[must_use]
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.map
            .get(&TypeId::of::<T>())
            .and_then(|entry| entry.value.downcast_ref())
    }

    /// The value of type `T` as the shared pointer it is stored in.
    #[must_use]
    pub fn get_shared<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.map
            .get(&TypeId::of::<T>())
            .and_then(|entry| Arc::clone(&entry.value).downcast().ok())
    }

    /// Removes and returns the value of type `T`.
    pub fn remove<T: Send + Sync + 'static>(&mut self) -> Option<Arc<T>> {
        self.map
            .remove(&TypeId::of::<T>())
            .and_then(|entry| entry.value.downcast().ok())
    }

    /// Whether a value of type `T` is stored.
    #[must_use]
    pub fn contains<T: Send + Sync + 'static>(&self) -> bool {
        self.map.contains_key(&TypeId::of::<T>())
    }

    /// How many values are stored.
    #[must_use]
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no value is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Moves every value of `other` in, replacing values of the same types.
    pub fn extend(&mut self, other: Extensions) {
        self.map.extend(other.map);
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut names: Vec<&str> = self.map.values().map(|entry| entry.name).collect();
        names.sort_unstable();
        f.debug_set().entries(names).finish()
    }
}

/// The HTTP request headers a server was told to pass to its tools (an allow-list:
/// `McpServer::with_forwarded_headers`, `ToolAgent::with_forwarded_headers`), as an
/// [`Extensions`] value. Names are lower case; a header sent twice keeps both values in order.
///
/// ```
/// use tool_executor::tool::RequestHeaders;
///
/// let headers = RequestHeaders::from_pairs([("X-Tenant", "acme")]);
/// assert_eq!(headers.get("x-tenant"), Some("acme"));
/// assert_eq!(headers.get("X-TENANT"), Some("acme"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestHeaders {
    pairs: Vec<(String, String)>,
}

impl RequestHeaders {
    /// Headers from `(name, value)` pairs (names are lower-cased).
    pub fn from_pairs<I, N, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (N, V)>,
        N: AsRef<str>,
        V: Into<String>,
    {
        Self {
            pairs: pairs
                .into_iter()
                .map(|(name, value)| (name.as_ref().to_ascii_lowercase(), value.into()))
                .collect(),
        }
    }

    /// The first value of header `name` (any case).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every value of header `name` (any case), in the order received.
    pub fn get_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pairs
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every `(name, value)` pair, in the order received.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// Whether no header was forwarded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Tenant(String);

    #[test]
    fn a_second_value_of_a_type_replaces_the_first_and_is_returned() {
        let mut map = Extensions::new();
        assert!(map.insert(Tenant("a".into())).is_none());
        let old = map.insert(Tenant("b".into())).expect("the first value");
        assert_eq!(*old, Tenant("a".into()));
        assert_eq!(map.get::<Tenant>(), Some(&Tenant("b".into())));
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn values_are_found_by_type_and_shared_on_clone() {
        let mut map = Extensions::new();
        map.insert(7_u32);
        map.insert_shared(Arc::new(Tenant("a".into())));
        let copy = map.clone();
        assert!(Arc::ptr_eq(
            &map.get_shared::<Tenant>().unwrap(),
            &copy.get_shared::<Tenant>().unwrap()
        ));
        assert_eq!(copy.get::<u32>(), Some(&7));
        assert_eq!(copy.get::<u64>(), None);
        assert_eq!(
            format!("{copy:?}"),
            format!("{{\"{}\", \"u32\"}}", type_name::<Tenant>())
        );
    }

    #[test]
    fn extend_and_remove() {
        let mut map = Extensions::new();
        map.insert(1_u8);
        let mut other = Extensions::new();
        other.insert(2_u8);
        other.insert(Tenant("x".into()));
        map.extend(other);
        assert_eq!(map.get::<u8>(), Some(&2));
        assert_eq!(*map.remove::<Tenant>().unwrap(), Tenant("x".into()));
        assert!(!map.contains::<Tenant>());
        assert!(map.remove::<Tenant>().is_none());
    }

    #[test]
    fn headers_keep_repeated_values_in_order_and_ignore_case() {
        let headers = RequestHeaders::from_pairs([("X-A", "1"), ("x-b", "2"), ("x-a", "3")]);
        assert_eq!(headers.get_all("x-a").collect::<Vec<_>>(), ["1", "3"]);
        assert_eq!(headers.get("X-B"), Some("2"));
        assert_eq!(headers.get("x-c"), None);
        assert_eq!(headers.iter().next(), Some(("x-a", "1")));
    }
}
