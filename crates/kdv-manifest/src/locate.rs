//! Where a field is written: field paths → line:col, by walking a document's text once with
//! the YAML event parser (JSON is YAML's flow syntax, so JSON text is walked the same way).
//!
//! Nothing is kept for valid documents: callers locate only the paths of the errors they
//! report, and the walk records positions for those paths alone, so even a large document
//! costs one event pass and a few positions. A path that does not exist in the text (a
//! missing required field, a value reached through an alias or a merge key) resolves to its
//! deepest written ancestor: for a missing field, the object that lacks it.

use std::cmp::Ordering;
use std::ops::Range;

use serde_saphyr::granit_parser::{Event as YamlEvent, Parser, ScalarStyle, Span};

use crate::Position;
use crate::event::Event;

/// One step of a field path: a mapping key (a struct field or a map key, which a document
/// writes alike) or a list index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// The value of this key of a mapping.
    Key(&'a str),
    /// The item at this index of a sequence.
    Index(usize),
}

impl<'a> Step<'a> {
    /// The steps through a document to the value an error's field path names (struct
    /// fields and map keys are both mapping keys).
    pub fn path_to(path: &'a kdv_runtime::FieldPath) -> Vec<Step<'a>> {
        path.segments()
            .iter()
            .map(|segment| match segment {
                kdv_runtime::Segment::Field(name) | kdv_runtime::Segment::Key(name) => {
                    Step::Key(name)
                }
                kdv_runtime::Segment::Index(i) => Step::Index(*i),
            })
            .collect()
    }
}

/// An owned [`Step`], for paths built before they are located (an editor's field paths).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepBuf {
    /// A mapping key.
    Key(String),
    /// A sequence index.
    Index(usize),
}

impl StepBuf {
    /// The borrowed step.
    pub fn as_step(&self) -> Step<'_> {
        match self {
            StepBuf::Key(k) => Step::Key(k),
            StepBuf::Index(i) => Step::Index(*i),
        }
    }
}

/// What to point at once a path is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target<'a> {
    /// The value at the path (errors about a value).
    Value,
    /// The key that names the path's last step (errors about the key, such as unknown
    /// fields); the value for a list item or the root.
    Key,
    /// The key `k` of the mapping at the path (errors about one key of a map), or the
    /// mapping when it has no such key.
    MapKey(&'a str),
}

/// A path to locate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query<'a> {
    /// The steps from the document's root.
    pub path: &'a [Step<'a>],
    /// What to point at.
    pub target: Target<'a>,
}

/// Positions of `queries` in the document `text` (lines relative to the text), each at its
/// deepest match: `None` only when the text has no root node the parser reaches. A text in
/// the fast reader's subset is walked by the fast reader (same events, same positions);
/// any other by the YAML event parser.
pub(crate) fn locate(text: &str, queries: &[Query<'_>]) -> Vec<Option<Position>> {
    if queries.is_empty() {
        return Vec::new();
    }
    locate_fast(text, queries).unwrap_or_else(|| locate_full(text, queries))
}

/// [`locate`] through the fast reader; `None` when the text is outside its subset.
pub(crate) fn locate_fast(text: &str, queries: &[Query<'_>]) -> Option<Vec<Option<Position>>> {
    let mut walk = Walk::new(queries);
    crate::fast::events(text, |event| walk.event(event)).then_some(walk.best)
}

/// [`locate`] through the YAML event parser, whatever the text.
pub(crate) fn locate_full(text: &str, queries: &[Query<'_>]) -> Vec<Option<Position>> {
    let mut walk = Walk::new(queries);
    let mut parser = Parser::new_from_str(text);
    while !walk.stopped
        && let Some(Ok((event, span))) = parser.next_event()
    {
        let at = position(&span);
        let key;
        let event = match &event {
            YamlEvent::SequenceStart(..) => Event::SequenceStart(at),
            YamlEvent::MappingStart(..) => Event::MappingStart(at),
            // A plain key is named in paths as sigs.k8s.io/yaml converts it (`on` is
            // `true`); the walk reads a scalar's text only as a key.
            YamlEvent::Scalar(text, ScalarStyle::Plain, _, None) => {
                key = crate::goyaml::plain_key(text);
                Event::Scalar(at, &key)
            }
            YamlEvent::Scalar(text, ..) => Event::Scalar(at, text),
            YamlEvent::Alias(..) | YamlEvent::UnresolvedAlias(..) => Event::Alias(at),
            YamlEvent::SequenceEnd | YamlEvent::MappingEnd => Event::End,
            _ => continue,
        };
        walk.event(event);
    }
    walk.best
}

/// The walk keeps the queries sorted by path (`order`), so the queries that lead into an
/// open collection are one range of that order and those that lead into one of its entries a
/// sub-range found by binary search: each node costs a search plus the queries that pass
/// through it, whatever the number of queries (100,000 errors under one mapping are not
/// compared with each of its 100,000 entries).
struct Walk<'q> {
    queries: &'q [Query<'q>],
    /// Query indices sorted by path, then target ([`compare`]).
    order: Vec<u32>,
    best: Vec<Option<Position>>,
    /// Whether a query's final position is known (later matches are ignored).
    done: Vec<bool>,
    remaining: usize,
    /// The open collections.
    stack: Vec<Frame>,
    seen_root: bool,
    /// Nothing more to learn: later events are ignored.
    stopped: bool,
    /// Queries visited (a measure of the work done, for tests).
    visits: usize,
}

/// An open collection: the queries whose path so far leads into it.
struct Frame {
    /// `Some(next item index)` for a sequence; `None` for a mapping.
    items: Option<usize>,
    /// The queries alive in this collection: a range of `Walk::order`, all of whose paths
    /// start with the `depth` steps leading here.
    alive: Range<usize>,
    /// How many steps lead to this collection.
    depth: usize,
    /// For a mapping: whether the next node is a key.
    expect_key: bool,
    /// For a mapping: the current entry's key and its position (`None` for a key that is
    /// not a scalar, which no path names).
    key: Option<(String, Position)>,
}

fn position(span: &Span) -> Position {
    Position {
        line: span.start.line().max(1) as u64,
        column: span.start.col() as u64 + 1,
    }
}

/// Orders steps: keys by text, then indices by number.
fn compare_step(a: &Step<'_>, b: &Step<'_>) -> Ordering {
    match (a, b) {
        (Step::Key(a), Step::Key(b)) => a.cmp(b),
        (Step::Index(a), Step::Index(b)) => a.cmp(b),
        (Step::Key(_), Step::Index(_)) => Ordering::Less,
        (Step::Index(_), Step::Key(_)) => Ordering::Greater,
    }
}

/// Orders a step that may be missing (a path that ends earlier comes first).
fn compare_at(path: &[Step<'_>], depth: usize, step: &Step<'_>) -> Ordering {
    match path.get(depth) {
        None => Ordering::Less,
        Some(s) => compare_step(s, step),
    }
}

fn compare_target(a: &Target<'_>, b: &Target<'_>) -> Ordering {
    fn rank(t: &Target<'_>) -> u8 {
        match t {
            Target::Value => 0,
            Target::Key => 1,
            Target::MapKey(_) => 2,
        }
    }
    match (a, b) {
        (Target::MapKey(a), Target::MapKey(b)) => a.cmp(b),
        _ => rank(a).cmp(&rank(b)),
    }
}

/// Orders queries by path (lexicographically by step, a prefix first), then by target.
fn compare(a: &Query<'_>, b: &Query<'_>) -> Ordering {
    a.path
        .iter()
        .zip(b.path)
        .map(|(x, y)| compare_step(x, y))
        .find(|o| o.is_ne())
        .unwrap_or_else(|| a.path.len().cmp(&b.path.len()))
        .then_with(|| compare_target(&a.target, &b.target))
}

impl<'q> Walk<'q> {
    fn new(queries: &'q [Query<'q>]) -> Walk<'q> {
        let mut order: Vec<u32> = (0..queries.len() as u32).collect();
        order.sort_by(|&a, &b| compare(&queries[a as usize], &queries[b as usize]));
        Walk {
            queries,
            order,
            best: vec![None; queries.len()],
            done: vec![false; queries.len()],
            remaining: queries.len(),
            stack: Vec::new(),
            seen_root: false,
            stopped: queries.is_empty(),
            visits: 0,
        }
    }

    fn event(&mut self, event: Event<'_>) {
        if self.stopped {
            return;
        }
        let mut stack = std::mem::take(&mut self.stack);
        self.stopped = !self.step(&mut stack, event);
        self.stack = stack;
    }

    /// One event; `false` once nothing more can be learnt.
    fn step(&mut self, stack: &mut Vec<Frame>, event: Event<'_>) -> bool {
        let (collection, at) = match event {
            Event::SequenceStart(at) => (Some(Some(0)), at),
            Event::MappingStart(at) => (Some(None), at),
            Event::Scalar(at, _) | Event::Alias(at) => (None, at),
            Event::End => {
                stack.pop();
                return !stack.is_empty();
            }
        };
        let Some(parent) = stack.last_mut() else {
            if self.seen_root {
                return false;
            }
            self.seen_root = true;
            let alive = self.arrive(0..self.order.len(), 0, None, at, None);
            return match collection {
                Some(items) => {
                    stack.push(Frame::new(items, alive, 0));
                    true
                }
                None => false,
            };
        };
        if parent.items.is_none() && parent.expect_key {
            parent.expect_key = false;
            parent.key = match event {
                Event::Scalar(_, text) => {
                    let key = text.to_string();
                    let (alive, depth) = (parent.alive.clone(), parent.depth);
                    self.key_seen(alive, depth, &key, at);
                    Some((key, at))
                }
                _ => None,
            };
            if let Some(items) = collection {
                // A collection used as a key: no path leads into it.
                stack.push(Frame::new(items, 0..0, 0));
            }
            return true;
        }
        let depth = parent.depth;
        let (step, key_at) = match &mut parent.items {
            Some(next) => {
                let step = OwnedStep::Index(*next);
                *next += 1;
                (Some(step), None)
            }
            None => {
                parent.expect_key = true;
                match parent.key.take() {
                    Some((key, key_at)) => (Some(OwnedStep::Key(key)), Some(key_at)),
                    None => (None, None),
                }
            }
        };
        let parent_alive = parent.alive.clone();
        let alive = match step {
            Some(step) if !parent_alive.is_empty() => {
                self.arrive(parent_alive, depth + 1, Some(&step), at, key_at)
            }
            _ => 0..0,
        };
        if self.remaining == 0 {
            return false;
        }
        if let Some(items) = collection {
            stack.push(Frame::new(items, alive, depth + 1));
        }
        true
    }

    /// A node at `depth` steps, reached by `step` from its parent (whose alive queries are
    /// `parent_alive`), starts at `at` (its key at `key_at`): records positions and returns
    /// the queries alive in it.
    fn arrive(
        &mut self,
        parent_alive: Range<usize>,
        depth: usize,
        step: Option<&OwnedStep>,
        at: Position,
        key_at: Option<Position>,
    ) -> Range<usize> {
        let alive = match step {
            None => parent_alive,
            Some(step) => {
                let want = step.as_step();
                let slice = &self.order[parent_alive.clone()];
                let path = |q: &u32| self.queries[*q as usize].path;
                let lo = slice.partition_point(|q| compare_at(path(q), depth - 1, &want).is_lt());
                let hi = slice.partition_point(|q| compare_at(path(q), depth - 1, &want).is_le());
                self.visits += 2 * (usize::BITS - slice.len().leading_zeros()) as usize;
                parent_alive.start + lo..parent_alive.start + hi
            }
        };
        for &q in &self.order[alive.clone()] {
            self.visits += 1;
            let qi = q as usize;
            let query = &self.queries[qi];
            if self.done[qi] {
                continue;
            }
            if depth < query.path.len() {
                self.best[qi] = Some(at);
                continue;
            }
            match query.target {
                Target::Value => {
                    finish(&mut self.best, &mut self.done, &mut self.remaining, qi, at)
                }
                Target::Key => finish(
                    &mut self.best,
                    &mut self.done,
                    &mut self.remaining,
                    qi,
                    key_at.unwrap_or(at),
                ),
                // Found the mapping; its key is looked for among its entries.
                Target::MapKey(_) => self.best[qi] = Some(at),
            }
        }
        alive
    }

    /// A key of a mapping at `depth` steps (alive queries `alive`): settles the `MapKey`
    /// queries looking for it.
    fn key_seen(&mut self, alive: Range<usize>, depth: usize, key: &str, at: Position) {
        let slice = &self.order[alive.clone()];
        let queries = self.queries;
        let here = |q: &u32| {
            let query = &queries[*q as usize];
            (query.path.len() == depth).then_some(&query.target)
        };
        let wanted = Target::MapKey(key);
        // Those ending here come first, in target order.
        let lo =
            slice.partition_point(|q| here(q).is_some_and(|t| compare_target(t, &wanted).is_lt()));
        let hi =
            slice.partition_point(|q| here(q).is_some_and(|t| compare_target(t, &wanted).is_le()));
        self.visits += 2 * (usize::BITS - slice.len().leading_zeros()) as usize;
        for i in alive.start + lo..alive.start + hi {
            self.visits += 1;
            let qi = self.order[i] as usize;
            if !self.done[qi] {
                finish(&mut self.best, &mut self.done, &mut self.remaining, qi, at);
            }
        }
    }
}

fn finish(
    best: &mut [Option<Position>],
    done: &mut [bool],
    remaining: &mut usize,
    q: usize,
    at: Position,
) {
    best[q] = Some(at);
    done[q] = true;
    *remaining -= 1;
}

impl Frame {
    fn new(items: Option<usize>, alive: Range<usize>, depth: usize) -> Frame {
        Frame {
            items,
            alive,
            depth,
            expect_key: true,
            key: None,
        }
    }
}

enum OwnedStep {
    Key(String),
    Index(usize),
}

impl OwnedStep {
    fn as_step(&self) -> Step<'_> {
        match self {
            OwnedStep::Key(k) => Step::Key(k),
            OwnedStep::Index(i) => Step::Index(*i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u64, column: u64) -> Option<Position> {
        Some(Position { line, column })
    }

    fn one(text: &str, path: &[Step<'_>], target: Target<'_>) -> Option<Position> {
        locate(text, &[Query { path, target }])[0]
    }

    const DOC: &str = "\
apiVersion: v1
kind: Widget
metadata:
  name: w
  labels:
    Bad_Key: x
spec:
  replicas: 0
  ports:
  - name: http
    port: 80
  - {name: dns, port: 0}
";

    #[test]
    fn values_keys_and_items() {
        use Step::{Index, Key};
        assert_eq!(
            one(DOC, &[Key("spec"), Key("replicas")], Target::Value),
            at(8, 13)
        );
        assert_eq!(
            one(DOC, &[Key("spec"), Key("replicas")], Target::Key),
            at(8, 3)
        );
        assert_eq!(one(DOC, &[Key("kind")], Target::Value), at(2, 7));
        let port = [Key("spec"), Key("ports"), Index(1), Key("port")];
        assert_eq!(one(DOC, &port, Target::Value), at(12, 23));
        let name = [Key("spec"), Key("ports"), Index(0), Key("name")];
        assert_eq!(one(DOC, &name, Target::Value), at(10, 11));
        assert_eq!(one(DOC, &[], Target::Value), at(1, 1));
    }

    #[test]
    fn missing_paths_resolve_to_their_deepest_ancestor() {
        use Step::{Index, Key};
        // A missing required field points at the object that lacks it.
        assert_eq!(
            one(DOC, &[Key("spec"), Key("image")], Target::Value),
            at(8, 3)
        );
        // An indentless block sequence starts at its first item's content.
        assert_eq!(
            one(DOC, &[Key("spec"), Key("ports"), Index(7)], Target::Value),
            at(10, 5)
        );
        assert_eq!(one(DOC, &[Key("nope"), Key("x")], Target::Value), at(1, 1));
    }

    #[test]
    fn item_06_boolean_keys_are_located_by_their_json_name() {
        let text = "spec:\n  on: push\n  pos:\n    x: 1\n    Y: 2\n";
        assert_eq!(
            one(text, &[Step::Key("spec"), Step::Key("true")], Target::Key),
            at(2, 3)
        );
        assert_eq!(
            one(
                text,
                &[Step::Key("spec"), Step::Key("pos"), Step::Key("true")],
                Target::Value
            ),
            at(5, 8)
        );
    }

    #[test]
    fn map_key_errors_point_at_the_key() {
        use Step::Key;
        let labels = [Key("metadata"), Key("labels")];
        assert_eq!(one(DOC, &labels, Target::MapKey("Bad_Key")), at(6, 5));
        assert_eq!(one(DOC, &labels, Target::MapKey("other")), at(6, 5));
    }

    #[test]
    fn json_text_is_located_too() {
        use Step::{Index, Key};
        let text = "{\n  \"spec\": {\"replicas\": 0, \"zones\": [\"a\", \"b\"]}\n}\n";
        assert_eq!(
            one(text, &[Key("spec"), Key("replicas")], Target::Value),
            at(2, 24)
        );
        assert_eq!(
            one(text, &[Key("spec"), Key("zones"), Index(1)], Target::Value),
            at(2, 42)
        );
    }

    #[test]
    fn several_queries_in_one_walk_and_complex_keys() {
        use Step::Key;
        let text = "? [a, b]\n: {x: 1}\nw: {z: 2}\n";
        let y = [Key("w"), Key("z")];
        let a = [Key("a")];
        let found = locate(
            text,
            &[
                Query {
                    path: &y,
                    target: Target::Value,
                },
                Query {
                    path: &a,
                    target: Target::Value,
                },
            ],
        );
        assert_eq!(found, vec![at(3, 8), at(1, 1)]);
        assert_eq!(
            locate(
                "",
                &[Query {
                    path: &a,
                    target: Target::Value
                }]
            ),
            vec![None]
        );
        assert_eq!(
            locate(
                "a: [",
                &[Query {
                    path: &a,
                    target: Target::Value
                }]
            ),
            vec![at(1, 4)]
        );
    }

    #[test]
    fn item_03_errors_are_located_in_one_pass() {
        use Step::Key;
        // 20,000 errors at the values of a mapping of 20,000 entries, and 20,000 errors
        // about the keys of another: each entry costs a search and its own queries, not a
        // look at every query (which was 20,000 x 20,000 visits).
        let n = 20_000;
        let mut text = String::from("data:\n");
        for i in 0..n {
            text.push_str(&format!("  k{i}: {i}\n"));
        }
        text.push_str("labels:\n");
        for i in 0..n {
            text.push_str(&format!("  l{i}: x\n"));
        }
        let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
        let labels: Vec<String> = (0..n).map(|i| format!("l{i}")).collect();
        let values: Vec<[Step<'_>; 2]> = keys.iter().map(|k| [Key("data"), Key(k)]).collect();
        let map = [Key("labels")];
        let mut queries: Vec<Query<'_>> = values
            .iter()
            .map(|path| Query {
                path,
                target: Target::Value,
            })
            .collect();
        queries.extend(labels.iter().rev().map(|l| Query {
            path: &map,
            target: Target::MapKey(l),
        }));
        for walk_text in [None, Some(())] {
            let mut walk = Walk::new(&queries);
            match walk_text {
                None => assert!(crate::fast::events(&text, |e| walk.event(e))),
                Some(()) => {
                    // The YAML event parser's walk, as a text outside the fast subset.
                    let found = locate_full(&text, &queries);
                    assert_eq!(found[n - 1], at(n as u64 + 1, 11));
                    continue;
                }
            }
            assert_eq!(walk.best[0], at(2, 7));
            assert_eq!(walk.best[n - 1], at(n as u64 + 1, 11));
            // Labels are queried in reverse: l{n-1} first.
            assert_eq!(walk.best[n], at(2 * n as u64 + 2, 3));
            assert_eq!(walk.best[2 * n - 1], at(n as u64 + 3, 3));
            assert!(walk.done.iter().all(|d| *d));
            // Two binary searches of ~16 steps and a query or two per entry.
            assert!(
                walk.visits < 100 * 2 * n,
                "{} visits for {} queries",
                walk.visits,
                2 * n
            );
        }
    }
}
