//! The CEL expression tree, after macro expansion, with a unique id and a source span on
//! every node. The parser produces it, the checker annotates it by id, the cost estimator and
//! the interpreter walk it.
//!
//! Operators are calls with cel-go's function names, so overload tables, cost tables and
//! error texts use one vocabulary: `_+_`, `_-_`, `_*_`, `_/_`, `_%_`, `_==_`, `_!=_`, `_<_`,
//! `_<=_`, `_>_`, `_>=_`, `_&&_`, `_||_`, `_?_:_`, `!_`, `-_`, `_[_]`, `@in`, `@not_strictly_false`
//! (comprehension loop conditions), and for optionals `_?._` (optional field selection)
//! and `_[?_]` (optional index).

use std::sync::Arc;

/// Unique id of a node within one parsed expression (1-based, assigned in parse order).
pub type ExprId = u32;

/// A byte range in the expression source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// Unique id (see [`ExprId`]).
    pub id: ExprId,
    /// What the node is.
    pub kind: ExprKind,
    /// Where it came from in the source. For macro expansions: the span of the macro call.
    pub span: Span,
}

/// The node kinds of CEL's abstract syntax.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A constant.
    Literal(Literal),
    /// A name, possibly qualified (`a.b.c` is kept as nested `Select`s by the parser; the
    /// checker resolves qualified names against declarations and the container).
    Ident(String),
    /// `operand.field`; with `test_only` it is the expansion of `has(operand.field)`.
    Select {
        /// The value selected from.
        operand: Box<Expr>,
        /// The field name.
        field: String,
        /// `has()` presence test rather than a selection.
        test_only: bool,
    },
    /// A function or operator call; `target` is the receiver of a method-style call
    /// (`x.startsWith(y)`).
    Call {
        /// Receiver for method-style calls.
        target: Option<Box<Expr>>,
        /// Function name (operators use the names listed in the module docs).
        function: String,
        /// Arguments in order.
        args: Vec<Expr>,
    },
    /// `[a, b, ?c]`.
    List {
        /// Elements in order.
        elements: Vec<Expr>,
        /// Indices into `elements` that were written with `?` (optional elements).
        optional_indices: Vec<u32>,
    },
    /// `{k: v, ?k2: v2}`.
    Map {
        /// Entries in order.
        entries: Vec<MapEntry>,
    },
    /// `pkg.Message{field: value, ?f2: v2}`.
    Struct {
        /// The message type name as written.
        type_name: String,
        /// Field initialisers in order.
        fields: Vec<FieldInit>,
    },
    /// A macro expansion loop (`all`, `exists`, `exists_one`, `map`, `filter`, and the
    /// two-variable forms).
    Comprehension(Box<Comprehension>),
}

/// One entry of a map literal.
#[derive(Debug, Clone, PartialEq)]
pub struct MapEntry {
    /// Id of the entry itself.
    pub id: ExprId,
    /// Key expression.
    pub key: Expr,
    /// Value expression.
    pub value: Expr,
    /// Written as `?key: value`.
    pub optional: bool,
    /// Where the entry is reported: its `:`.
    pub span: Span,
}

/// One field initialiser of a struct literal.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldInit {
    /// Id of the initialiser itself.
    pub id: ExprId,
    /// Field name.
    pub field: String,
    /// Value expression.
    pub value: Expr,
    /// Written as `?field: value`.
    pub optional: bool,
    /// Where the initialiser is reported: its `:`.
    pub span: Span,
}

/// CEL's general loop: `accu = init; for iter_var[, iter_var2] in range { if !condition
/// break; accu = step }; result`.
#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    /// Loop variable (the element of a list, the key of a map; the index in two-variable
    /// forms over lists).
    pub iter_var: String,
    /// Second loop variable of the two-variable forms (the element, or the map value).
    pub iter_var2: Option<String>,
    /// The range iterated over.
    pub iter_range: Expr,
    /// Accumulator variable name (`@result` for the standard macros).
    pub accu_var: String,
    /// Initial accumulator value.
    pub accu_init: Expr,
    /// Evaluated before each step; the loop stops when it is false.
    pub loop_condition: Expr,
    /// New accumulator value for each element.
    pub loop_step: Expr,
    /// The comprehension's value, computed from the accumulator.
    pub result: Expr,
}

/// A constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Signed 64-bit integer.
    Int(i64),
    /// Unsigned 64-bit integer (`1u`).
    Uint(u64),
    /// 64-bit float.
    Double(f64),
    /// UTF-8 string.
    String(Arc<str>),
    /// Byte string (`b"..."`).
    Bytes(Arc<[u8]>),
}

/// The source text with a line index, for turning spans into line:column.
#[derive(Debug, Clone)]
pub struct Source {
    text: String,
    line_starts: Vec<u32>,
}

impl Expr {
    /// Height of the tree (a leaf is 1), computed without recursion: checked trees can be
    /// deeper than the stack allows, so callers size helper-thread stacks from this.
    pub fn height(&self) -> usize {
        let mut max = 0;
        let mut stack: Vec<(&Expr, usize)> = vec![(self, 1)];
        while let Some((e, d)) = stack.pop() {
            max = max.max(d);
            let d = d + 1;
            match &e.kind {
                ExprKind::Literal(_) | ExprKind::Ident(_) => {}
                ExprKind::Select { operand, .. } => stack.push((operand, d)),
                ExprKind::Call { target, args, .. } => {
                    stack.extend(target.iter().map(|t| (&**t, d)));
                    stack.extend(args.iter().map(|a| (a, d)));
                }
                ExprKind::List { elements, .. } => stack.extend(elements.iter().map(|a| (a, d))),
                ExprKind::Map { entries } => {
                    for en in entries {
                        stack.push((&en.key, d));
                        stack.push((&en.value, d));
                    }
                }
                ExprKind::Struct { fields, .. } => {
                    stack.extend(fields.iter().map(|f| (&f.value, d)))
                }
                ExprKind::Comprehension(c) => stack.extend(
                    [
                        &c.iter_range,
                        &c.accu_init,
                        &c.loop_condition,
                        &c.loop_step,
                        &c.result,
                    ]
                    .map(|x| (x, d)),
                ),
            }
        }
        max
    }
}

impl Source {
    /// Indexes `text`.
    pub fn new(text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        Source { text, line_starts }
    }

    /// The full text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line and 1-based column (in characters, as cel-go reports) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(end - start, |s| s.chars().count());
        (line as u32, col as u32 + 1)
    }

    /// The text of a 1-based line, without its terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1) as usize) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line as usize)
            .map_or(self.text.len(), |&e| e as usize);
        self.text
            .get(start as usize..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("a\n'é' + x");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(2), (2, 1));
        // "'é' + " is 7 bytes, 6 characters: x is at byte 9, column 7.
        assert_eq!(s.line_col(9), (2, 7));
        assert_eq!(s.line_text(2), "'é' + x");
    }
}
