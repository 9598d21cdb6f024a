//! One page of a list longer than one answer: how many items there are in all, whether more
//! follow, and the `offset` the next page starts at. Every paged answer flattens a [`Page`]
//! beside its items (`#[serde(flatten)]`), so the three fields are spelled and computed once.

use serde::{Deserialize, Serialize};

/// `total`, `truncated` and `nextOffset` of one page (flattened into each paged answer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    /// Items in all, over every page.
    pub total: u64,
    /// True when more items follow this page.
    pub truncated: bool,
    /// Pass as `offset` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
}

impl Page {
    /// The page of `shown` items starting at `offset`, out of `total`.
    pub fn of(offset: u64, shown: usize, total: usize) -> Page {
        let end = offset + shown as u64;
        let more = end < total as u64;
        Page { total: total as u64, truncated: more, next_offset: more.then_some(end) }
    }

    /// A whole answer of `total` items (nothing after it).
    pub fn whole(total: usize) -> Page {
        Page { total: total as u64, truncated: false, next_offset: None }
    }

    /// The first `shown` of `total` items, of a list the call narrows rather than pages
    /// (`limit` without `offset`): no `nextOffset`.
    pub fn first(shown: usize, total: usize) -> Page {
        Page { total: total as u64, truncated: shown < total, next_offset: None }
    }

    /// The page once the answer budget kept only its first `kept` items.
    pub fn kept(&mut self, offset: u64, kept: usize) {
        let total = self.total as usize;
        *self = Page::of(offset, kept, total);
    }

    /// The answer budget's cut: keeps the first `n` of `items` (the page's, starting at
    /// `offset`) and says where the next page starts.
    pub fn keep_first<T>(&mut self, items: &mut Vec<T>, offset: u64, n: usize) {
        if n < items.len() {
            items.truncate(n);
            self.kept(offset, n);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Page;

    #[test]
    fn a_page_says_what_follows() {
        assert_eq!(Page::of(0, 3, 3), Page { total: 3, truncated: false, next_offset: None });
        assert_eq!(Page::of(10, 5, 20), Page { total: 20, truncated: true, next_offset: Some(15) });
        let mut items = vec![1, 2, 3, 4, 5];
        let mut p = Page::of(10, items.len(), 15);
        assert_eq!(p, Page { total: 15, truncated: false, next_offset: None });
        p.keep_first(&mut items, 10, 2);
        assert_eq!((items, p), (vec![1, 2], Page { total: 15, truncated: true, next_offset: Some(12) }));
    }

    #[test]
    fn the_fields_read_as_every_answer_spells_them() {
        let v = serde_json::to_value(Page::of(0, 1, 2)).unwrap_or_default();
        assert_eq!(v, serde_json::json!({"total": 2, "truncated": true, "nextOffset": 1}));
        let last = serde_json::to_value(Page::whole(2)).unwrap_or_default();
        assert_eq!(last, serde_json::json!({"total": 2, "truncated": false}));
        let first = serde_json::to_value(Page::first(1, 2)).unwrap_or_default();
        assert_eq!(first, serde_json::json!({"total": 2, "truncated": true}));
    }
}
