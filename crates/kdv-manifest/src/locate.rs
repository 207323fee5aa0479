//! Where a field is written: field paths → line:col, by walking a document's text once with
//! the YAML event parser (JSON is YAML's flow syntax, so JSON text is walked the same way).
//!
//! Nothing is kept for valid documents: callers locate only the paths of the errors they
//! report, and the walk records positions for those paths alone, so even a large document
//! costs one event pass and a few positions. A path that does not exist in the text (a
//! missing required field, a value reached through an alias or a merge key) resolves to its
//! deepest written ancestor: for a missing field, the object that lacks it.

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

struct Walk<'q> {
    queries: &'q [Query<'q>],
    best: Vec<Option<Position>>,
    /// Whether a query's final position is known (later matches are ignored).
    done: Vec<bool>,
    remaining: usize,
    /// The open collections.
    stack: Vec<Frame>,
    seen_root: bool,
    /// Nothing more to learn: later events are ignored.
    stopped: bool,
}

/// An open collection: the queries whose path so far leads into it.
struct Frame {
    /// `Some(next item index)` for a sequence; `None` for a mapping.
    items: Option<usize>,
    /// The queries alive in this collection (indices into `queries`).
    alive: Vec<u32>,
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

impl<'q> Walk<'q> {
    fn new(queries: &'q [Query<'q>]) -> Walk<'q> {
        Walk {
            queries,
            best: vec![None; queries.len()],
            done: vec![false; queries.len()],
            remaining: queries.len(),
            stack: Vec::new(),
            seen_root: false,
            stopped: queries.is_empty(),
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
            let alive: Vec<u32> = (0..self.queries.len() as u32).collect();
            let alive = self.arrive(&alive, 0, None, at, None);
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
                    self.key_seen(&parent.alive, parent.depth, &key, at);
                    Some((key, at))
                }
                _ => None,
            };
            if let Some(items) = collection {
                // A collection used as a key: no path leads into it.
                stack.push(Frame::new(items, Vec::new(), usize::MAX));
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
        let alive = match step {
            Some(step) if depth != usize::MAX && !parent.alive.is_empty() => {
                let parent_alive = std::mem::take(&mut parent.alive);
                let alive = self.arrive(&parent_alive, depth + 1, Some(&step), at, key_at);
                if let Some(parent) = stack.last_mut() {
                    parent.alive = parent_alive;
                }
                alive
            }
            _ => Vec::new(),
        };
        if self.remaining == 0 {
            return false;
        }
        if let Some(items) = collection {
            let depth = if alive.is_empty() {
                usize::MAX
            } else {
                depth + 1
            };
            stack.push(Frame::new(items, alive, depth));
        }
        true
    }

    /// A node at `depth` steps, reached by `step` from its parent (whose alive queries are
    /// `parent_alive`), starts at `at` (its key at `key_at`): records positions and returns
    /// the queries alive in it.
    fn arrive(
        &mut self,
        parent_alive: &[u32],
        depth: usize,
        step: Option<&OwnedStep>,
        at: Position,
        key_at: Option<Position>,
    ) -> Vec<u32> {
        let mut alive = Vec::new();
        for &q in parent_alive {
            let qi = q as usize;
            let query = &self.queries[qi];
            if self.done[qi] {
                continue;
            }
            if let Some(step) = step {
                let Some(want) = query.path.get(depth - 1) else {
                    continue;
                };
                if !step.matches(want) {
                    continue;
                }
            }
            if depth < query.path.len() {
                self.best[qi] = Some(at);
                alive.push(q);
                continue;
            }
            match query.target {
                Target::Value => self.finish(qi, at),
                Target::Key => self.finish(qi, key_at.unwrap_or(at)),
                Target::MapKey(_) => {
                    // Found the mapping; its key is looked for among its entries.
                    self.best[qi] = Some(at);
                    alive.push(q);
                }
            }
        }
        alive
    }

    /// A key of a mapping at `depth` steps: settles the `MapKey` queries looking for it.
    fn key_seen(&mut self, alive: &[u32], depth: usize, key: &str, at: Position) {
        for &q in alive {
            let qi = q as usize;
            let query = &self.queries[qi];
            if !self.done[qi] && query.path.len() == depth && query.target == Target::MapKey(key) {
                self.finish(qi, at);
            }
        }
    }

    fn finish(&mut self, q: usize, at: Position) {
        self.best[q] = Some(at);
        self.done[q] = true;
        self.remaining -= 1;
    }
}

impl Frame {
    fn new(items: Option<usize>, alive: Vec<u32>, depth: usize) -> Frame {
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
    fn matches(&self, want: &Step<'_>) -> bool {
        match (self, want) {
            (OwnedStep::Key(k), Step::Key(w)) => k == w,
            (OwnedStep::Index(i), Step::Index(w)) => i == w,
            _ => false,
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
}
