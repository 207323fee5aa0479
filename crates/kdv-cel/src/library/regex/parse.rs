//! Go's `regexp/syntax` parser (`syntax.Parse(expr, syntax.Perl)`, as `regexp.Compile`
//! calls it), rewritten from its documented behaviour: the same grammar, the same errors
//! (code and offending text), the same limits (repeat counts, nested repeat products, tree
//! height, size and class runes). The result is a syntax tree shaped like Go's (literal
//! strings merged, non-capturing groups dissolved, single-character alternatives merged
//! into classes), turned into a `regex-syntax` [`Hir`] with Go's meaning spelled out: case
//! folding, ASCII Perl classes and word boundaries, `.` and `$` as Go reads them.
//!
//! Go's prefix factoring of alternations (`abc|abd` to `ab[cd]`) is not modelled: it changes
//! no match, only the tree's height and size near the limits of 1000 levels and 3.3M
//! instructions.

use regex_syntax::hir::{self, ClassUnicode, ClassUnicodeRange, Hir, Look};

use super::tables::{self, Group};

/// Go's `maxHeight`.
const MAX_HEIGHT: u32 = 1000;
/// Go's `maxSize` (128 MB of 40-byte instructions).
const MAX_SIZE: i64 = (128 << 20) / 40;
/// Go's `maxRunes` (128 MB of runes).
const MAX_RUNES: i64 = (128 << 20) / 4;
/// Go's `maxRepeat`.
const MAX_REPEAT: i64 = 1000;
/// `unicode.MaxRune`.
const MAX_RUNE: u32 = 0x10FFFF;

/// Go's `syntax.ErrorCode` texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Code {
    InvalidCharRange,
    InvalidEscape,
    InvalidNamedCapture,
    InvalidPerlOp,
    InvalidRepeatOp,
    InvalidRepeatSize,
    MissingBracket,
    MissingParen,
    MissingRepeatArgument,
    TrailingBackslash,
    UnexpectedParen,
    NestingDepth,
    Large,
}

impl Code {
    /// Go's text of the code.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Code::InvalidCharRange => "invalid character class range",
            Code::InvalidEscape => "invalid escape sequence",
            Code::InvalidNamedCapture => "invalid named capture",
            Code::InvalidPerlOp => "invalid or unsupported Perl syntax",
            Code::InvalidRepeatOp => "invalid nested repetition operator",
            Code::InvalidRepeatSize => "invalid repeat count",
            Code::MissingBracket => "missing closing ]",
            Code::MissingParen => "missing closing )",
            Code::MissingRepeatArgument => "missing argument to repetition operator",
            Code::TrailingBackslash => "trailing backslash at end of expression",
            Code::UnexpectedParen => "unexpected )",
            Code::NestingDepth => "expression nests too deeply",
            Code::Large => "expression too large",
        }
    }
}

/// A parse error: Go's code and the offending text it quotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub(crate) code: Code,
    pub(crate) expr: String,
}

type Result<T> = std::result::Result<T, ParseError>;

fn err<T>(code: Code, expr: &str) -> Result<T> {
    Err(ParseError {
        code,
        expr: expr.to_owned(),
    })
}

/// The parse flags Go's `regexp.Compile` starts with (`syntax.Perl`) and `(?imsU)` change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flags {
    fold: bool,
    one_line: bool,
    dot_nl: bool,
    non_greedy: bool,
}

const PERL: Flags = Flags {
    fold: false,
    one_line: true,
    dot_nl: false,
    non_greedy: false,
};

/// Go's repetition operators (`OpStar`, `OpPlus`, `OpQuest`, `OpRepeat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RepOp {
    Star,
    Plus,
    Quest,
    Repeat,
}

#[derive(Clone, Debug)]
enum Kind {
    Empty,
    /// A string of runes (Go's runes may be surrogates, which match nothing).
    Lit {
        runes: Vec<u32>,
        fold: bool,
    },
    Class(ClassUnicode),
    Look(Look),
    Capture(u32, Box<Node>),
    Repeat {
        op: RepOp,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
}

/// A node of the tree with Go's height and compiled-size estimate (`calcSize`).
#[derive(Clone, Debug)]
struct Node {
    kind: Kind,
    height: u32,
    size: i64,
}

impl Node {
    fn leaf(kind: Kind, size: i64) -> Node {
        Node {
            kind,
            height: 1,
            size: size.max(1),
        }
    }

    fn lit(rune: u32, fold: bool) -> Node {
        Node::leaf(
            Kind::Lit {
                runes: vec![rune],
                fold,
            },
            1,
        )
    }

    fn class(c: ClassUnicode) -> Node {
        Node::leaf(Kind::Class(c), 1)
    }

    fn capture(index: u32, sub: Node) -> Node {
        Node {
            height: sub.height.saturating_add(1),
            size: sub.size.saturating_add(2),
            kind: Kind::Capture(index, Box::new(sub)),
        }
    }

    fn repeat(op: RepOp, min: u32, max: Option<u32>, greedy: bool, sub: Node) -> Node {
        let s = sub.size;
        let size = match (op, max) {
            (RepOp::Star, _) => s.saturating_add(2),
            (RepOp::Plus | RepOp::Quest, _) => s.saturating_add(1),
            (RepOp::Repeat, None) if min == 0 => s.saturating_add(2),
            (RepOp::Repeat, None) => i64::from(min).saturating_mul(s).saturating_add(1),
            (RepOp::Repeat, Some(max)) => i64::from(max)
                .saturating_mul(s)
                .saturating_add(i64::from(max - min.min(max))),
        };
        Node {
            height: sub.height.saturating_add(1),
            size: size.max(1),
            kind: Kind::Repeat {
                op,
                min,
                max,
                greedy,
                sub: Box::new(sub),
            },
        }
    }

    fn multi(subs: Vec<Node>, alternate: bool) -> Node {
        let height = subs.iter().map(|s| s.height).max().unwrap_or(0) + 1;
        let mut size = subs.iter().fold(0i64, |a, s| a.saturating_add(s.size));
        if alternate && subs.len() > 1 {
            size = size.saturating_add(subs.len() as i64 - 1);
        }
        Node {
            kind: if alternate {
                Kind::Alternate(subs)
            } else {
                Kind::Concat(subs)
            },
            height,
            size: size.max(1),
        }
    }

    /// Whether Go's `isCharClass` holds: a single-rune literal or a class.
    fn is_char_class(&self) -> bool {
        match &self.kind {
            Kind::Lit { runes, .. } => runes.len() == 1,
            Kind::Class(_) => true,
            _ => false,
        }
    }

    /// The class a char-class-like node matches.
    fn as_class(&self) -> ClassUnicode {
        match &self.kind {
            Kind::Lit { runes, fold } => rune_class(runes[0], *fold),
            Kind::Class(c) => c.clone(),
            _ => ClassUnicode::empty(),
        }
    }
}

/// Go's `len(re.Rune)` of a node: the runes of a literal, both ends of each class range.
/// Go adds them up each time a node is pushed, and pushes the result of a group or an
/// alternation of one node again.
fn runes_of(node: &Node) -> i64 {
    match &node.kind {
        Kind::Lit { runes, .. } => runes.len() as i64,
        Kind::Class(c) => 2 * c.ranges().len() as i64,
        _ => 0,
    }
}

/// The class of one rune (its case-folding orbit under `(?i)`); empty for a surrogate.
fn rune_class(r: u32, fold: bool) -> ClassUnicode {
    let mut c = range_class(r, r);
    if fold {
        c.case_fold_simple();
    }
    c
}

/// The class of the rune range `lo..=hi` (surrogates dropped).
fn range_class(lo: u32, hi: u32) -> ClassUnicode {
    // Round surrogate ends inwards: no text holds a surrogate.
    let lo = if (0xD800..=0xDFFF).contains(&lo) {
        0xE000
    } else {
        lo
    };
    let hi = if (0xD800..=0xDFFF).contains(&hi) {
        0xD7FF
    } else {
        hi
    };
    match (char::from_u32(lo), char::from_u32(hi)) {
        (Some(l), Some(h)) if l <= h => ClassUnicode::new([ClassUnicodeRange::new(l, h)]),
        _ => ClassUnicode::empty(),
    }
}

/// Go's `appendGroup`: a named group, folded under `(?i)` before it is negated.
fn group(group: Group, negated: bool, fold: bool) -> ClassUnicode {
    let mut c = tables::group_class(group);
    if fold {
        c.case_fold_simple();
    }
    if negated {
        c.negate();
    }
    c
}

/// One level of parentheses being parsed.
struct Frame {
    /// The capture index, or `None` for a non-capturing group (and the top level).
    cap: Option<u32>,
    /// The flags to restore at `)`.
    flags: Flags,
    /// Finished alternatives.
    alts: Vec<Node>,
    /// The current alternative's items.
    items: Vec<Node>,
}

struct Parser<'p> {
    whole: &'p str,
    flags: Flags,
    frames: Vec<Frame>,
    num_cap: u32,
    /// Go's `numRegexp`: nodes allocated so far (height and size checks start late).
    num_regexp: i64,
    num_runes: i64,
    /// Go's `repeats`: the product of the repeat counts seen before size tracking starts.
    repeats: i64,
    size_tracking: bool,
}

/// The text of `whole` from byte `start` to byte `end`.
fn span(whole: &str, start: usize, end: usize) -> &str {
    whole.get(start..end).unwrap_or("")
}

fn is_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric()
}

fn unhex(c: char) -> Option<u32> {
    c.to_digit(16)
}

impl<'p> Parser<'p> {
    fn frame(&mut self) -> &mut Frame {
        // The top-level frame is never popped.
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// Go's `checkLimits` for a node just built or pushed.
    fn check(&mut self, node: &Node) -> Result<()> {
        if self.num_runes > MAX_RUNES {
            return err(Code::Large, self.whole);
        }
        if !self.size_tracking {
            if let Kind::Repeat {
                op: RepOp::Repeat,
                min,
                max,
                ..
            } = &node.kind
            {
                let n = i64::from(max.unwrap_or(*min)).max(1);
                self.repeats = if n > MAX_SIZE / self.repeats {
                    MAX_SIZE
                } else {
                    self.repeats * n
                };
            }
            if self.num_regexp >= MAX_SIZE / self.repeats {
                self.size_tracking = true;
            }
        }
        if self.size_tracking && node.size > MAX_SIZE {
            return err(Code::Large, self.whole);
        }
        if self.num_regexp >= i64::from(MAX_HEIGHT) && node.height > MAX_HEIGHT {
            return err(Code::NestingDepth, self.whole);
        }
        Ok(())
    }

    /// Pushes a node onto the current alternative.
    fn push(&mut self, node: Node) -> Result<()> {
        let runes = runes_of(&node);
        self.push_counted(node, runes)
    }

    /// Pushes a node holding `runes` runes (Go's `len(re.Rune)`).
    fn push_counted(&mut self, node: Node, runes: i64) -> Result<()> {
        self.num_regexp += 1;
        self.num_runes += runes;
        self.check(&node)?;
        self.frame().items.push(node);
        Ok(())
    }

    fn literal(&mut self, r: u32) -> Result<()> {
        let fold = self.flags.fold;
        self.push(Node::lit(r, fold))
    }

    /// Go's `concat`: the current alternative as one node (adjacent literals of one case
    /// mode merged, nested concatenations flattened).
    fn concat(&mut self) -> Result<Node> {
        let items = std::mem::take(&mut self.frame().items);
        let mut out: Vec<Node> = Vec::with_capacity(items.len());
        for item in items {
            let parts = match item.kind {
                Kind::Concat(subs) => subs,
                kind => vec![Node { kind, ..item }],
            };
            for part in parts {
                if let (
                    Some(Node {
                        kind: Kind::Lit { runes, fold },
                        size,
                        ..
                    }),
                    Kind::Lit {
                        runes: more,
                        fold: f2,
                    },
                ) = (out.last_mut(), &part.kind)
                    && fold == f2
                {
                    runes.extend_from_slice(more);
                    *size = runes.len() as i64;
                    continue;
                }
                out.push(part);
            }
        }
        let node = match out.len() {
            0 => {
                self.num_regexp += 1;
                Node::leaf(Kind::Empty, 1)
            }
            1 => {
                let node = out.pop().unwrap_or_else(|| Node::leaf(Kind::Empty, 1));
                self.num_runes += runes_of(&node);
                node
            }
            _ => {
                self.num_regexp += 1;
                Node::multi(out, false)
            }
        };
        self.check(&node)?;
        Ok(node)
    }

    /// Go's `alternate`: the finished alternatives as one node (nested alternations
    /// flattened, runs of single-character alternatives merged into one class, runs of
    /// empty alternatives into one).
    fn alternate(&mut self, alts: Vec<Node>) -> Result<Node> {
        let mut flat: Vec<Node> = Vec::with_capacity(alts.len());
        for alt in alts {
            match alt.kind {
                Kind::Alternate(subs) => flat.extend(subs),
                kind => flat.push(Node { kind, ..alt }),
            }
        }
        let mut out: Vec<Node> = Vec::with_capacity(flat.len());
        let mut run: Option<ClassUnicode> = None;
        let mut run_len = 0;
        let mut pending: Option<Node> = None;
        for alt in flat {
            if alt.is_char_class() {
                let c = alt.as_class();
                match &mut run {
                    Some(acc) => acc.union(&c),
                    None => run = Some(c),
                }
                run_len += 1;
                pending = Some(alt);
                continue;
            }
            Self::flush(&mut out, &mut run, &mut run_len, &mut pending);
            if matches!(alt.kind, Kind::Empty)
                && matches!(out.last(), Some(n) if matches!(n.kind, Kind::Empty))
            {
                continue;
            }
            out.push(alt);
        }
        Self::flush(&mut out, &mut run, &mut run_len, &mut pending);
        let node = if out.len() == 1 {
            let node = out.pop().unwrap_or_else(|| Node::leaf(Kind::Empty, 1));
            self.num_runes += runes_of(&node);
            node
        } else {
            self.num_regexp += 1;
            Node::multi(out, true)
        };
        self.check(&node)?;
        Ok(node)
    }

    fn flush(
        out: &mut Vec<Node>,
        run: &mut Option<ClassUnicode>,
        run_len: &mut usize,
        pending: &mut Option<Node>,
    ) {
        if let Some(c) = run.take() {
            // A run of one keeps its node (a literal stays a literal).
            match (pending.take(), *run_len) {
                (Some(single), 1) => out.push(single),
                _ => out.push(Node::class(c)),
            }
        }
        *run_len = 0;
    }

    /// `|`: the current alternative is finished.
    fn vertical_bar(&mut self) -> Result<()> {
        let node = self.concat()?;
        self.num_regexp += 1;
        self.frame().alts.push(node);
        Ok(())
    }

    /// `)`: closes the innermost group.
    fn right_paren(&mut self) -> Result<()> {
        if self.frames.len() < 2 {
            return err(Code::UnexpectedParen, self.whole);
        }
        let last = self.concat()?;
        let mut frame = self.frames.pop().ok_or_else(|| ParseError {
            code: Code::UnexpectedParen,
            expr: self.whole.to_owned(),
        })?;
        frame.alts.push(last);
        let alt = self.alternate(frame.alts)?;
        self.flags = frame.flags;
        let node = match frame.cap {
            Some(index) => Node::capture(index, alt),
            None => alt,
        };
        self.push(node)
    }

    /// A repetition operator at byte `before` whose operator text ends at `after`;
    /// `last_repeat` is where the previous token started if it was a repetition.
    /// Returns where parsing continues.
    fn repeat(
        &mut self,
        op: RepOp,
        min: u32,
        max: Option<u32>,
        before: usize,
        mut after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize> {
        let mut non_greedy = self.flags.non_greedy;
        if self.whole.as_bytes().get(after) == Some(&b'?') {
            after += 1;
            non_greedy = !non_greedy;
        }
        if let Some(last) = last_repeat {
            // Perl forbids stacked repetition operators (`a**`).
            return err(Code::InvalidRepeatOp, span(self.whole, last, after));
        }
        let Some(sub) = self.frame().items.pop() else {
            return err(Code::MissingRepeatArgument, span(self.whole, before, after));
        };
        let node = Node::repeat(op, min, max, !non_greedy, sub);
        self.num_regexp += 1;
        self.check(&node)?;
        if op == RepOp::Repeat
            && (min >= 2 || max.is_some_and(|m| m >= 2))
            && !repeat_is_valid(&node, MAX_REPEAT)
        {
            return err(Code::InvalidRepeatSize, span(self.whole, before, after));
        }
        self.frame().items.push(node);
        Ok(after)
    }
}

/// Go's `repeatIsValid`: no path nests counted repetitions whose product exceeds `n`.
/// Walks with an explicit stack: the tree may be 1000 levels deep.
fn repeat_is_valid(node: &Node, n: i64) -> bool {
    let mut todo = vec![(node, n)];
    while let Some((node, mut n)) = todo.pop() {
        if let Kind::Repeat {
            op: RepOp::Repeat,
            min,
            max,
            ..
        } = &node.kind
        {
            let m = match max {
                Some(0) => continue,
                Some(m) => i64::from(*m),
                None => i64::from(*min),
            };
            if m > n {
                return false;
            }
            if m > 0 {
                n /= m;
            }
        }
        match &node.kind {
            Kind::Capture(_, sub) | Kind::Repeat { sub, .. } => todo.push((sub, n)),
            Kind::Concat(subs) | Kind::Alternate(subs) => todo.extend(subs.iter().map(|s| (s, n))),
            _ => {}
        }
    }
    true
}

/// Go's `parseInt`: decimal digits without a leading zero; `Some(None)` when the value is
/// 10^8 or more (Go's -1, "too big").
fn parse_int(s: &str) -> Option<(Option<u32>, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: u32 = 0;
    let mut big = false;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            big = true;
            break;
        }
        n = n * 10 + u32::from(b - b'0');
    }
    Some(((!big).then_some(n), &s[digits..]))
}

/// What Go's `parseRepeat` finds at a `{`.
enum RepeatSpec<'s> {
    /// Not a repetition: `{` is a literal.
    Literal,
    /// `{min}`, `{min,}` or `{min,max}`; `None` counts are too big. The rest follows `}`.
    Counts(Option<u32>, Option<Option<u32>>, &'s str),
}

fn parse_repeat(s: &str) -> RepeatSpec<'_> {
    let Some(rest) = s.strip_prefix('{') else {
        return RepeatSpec::Literal;
    };
    let Some((mut min, rest)) = parse_int(rest) else {
        return RepeatSpec::Literal;
    };
    let (max, rest) = match rest.strip_prefix(',') {
        None => (Some(min), rest),
        Some(rest) if rest.starts_with('}') => (None, rest),
        Some(rest) => {
            let Some((max, rest)) = parse_int(rest) else {
                return RepeatSpec::Literal;
            };
            if max.is_none() {
                min = None;
            }
            (Some(max), rest)
        }
    };
    match rest.strip_prefix('}') {
        Some(rest) => RepeatSpec::Counts(min, max, rest),
        None => RepeatSpec::Literal,
    }
}

/// Go's `parseEscape` at `s` (starting with `\`): the rune and the rest.
fn parse_escape(s: &str) -> Result<(u32, &str)> {
    let t = &s[1..];
    let mut chars = t.chars();
    let Some(c) = chars.next() else {
        return err(Code::TrailingBackslash, "");
    };
    let mut t = chars.as_str();
    let consumed = |t: &str| &s[..s.len() - t.len()];
    match c {
        c if c.is_ascii() && !is_alnum(c) => return Ok((c as u32, t)),
        '1'..='7' if !t.starts_with(|d: char| ('0'..='7').contains(&d)) => {}
        '0'..='7' => {
            let mut r = c as u32 - '0' as u32;
            for _ in 1..3 {
                match t.chars().next() {
                    Some(d @ '0'..='7') => {
                        r = r * 8 + (d as u32 - '0' as u32);
                        t = &t[1..];
                    }
                    _ => break,
                }
            }
            return Ok((r, t));
        }
        'x' => {
            let mut chars = t.chars();
            if let Some(c) = chars.next() {
                t = chars.as_str();
                if c == '{' {
                    let mut nhex = 0;
                    let mut r: u32 = 0;
                    loop {
                        let mut chars = t.chars();
                        let Some(c) = chars.next() else {
                            return err(Code::InvalidEscape, consumed(t));
                        };
                        t = chars.as_str();
                        if c == '}' {
                            break;
                        }
                        let Some(v) = unhex(c) else {
                            return err(Code::InvalidEscape, consumed(t));
                        };
                        r = r * 16 + v;
                        if r > MAX_RUNE {
                            return err(Code::InvalidEscape, consumed(t));
                        }
                        nhex += 1;
                    }
                    if nhex == 0 {
                        return err(Code::InvalidEscape, consumed(t));
                    }
                    return Ok((r, t));
                }
                let x = unhex(c);
                let mut chars = t.chars();
                let y = chars.next().and_then(unhex);
                // Go consumes the second character even when it is no hex digit.
                t = if t.is_empty() { t } else { chars.as_str() };
                if let (Some(x), Some(y)) = (x, y) {
                    return Ok((x * 16 + y, t));
                }
            }
        }
        'a' => return Ok((7, t)),
        'f' => return Ok((12, t)),
        'n' => return Ok((10, t)),
        'r' => return Ok((13, t)),
        't' => return Ok((9, t)),
        'v' => return Ok((11, t)),
        _ => {}
    }
    err(Code::InvalidEscape, consumed(t))
}

/// Go's `parseUnicodeClass` at `s` (starting with `\p` or `\P`): the class and the rest.
fn parse_unicode_class(s: &str, fold: bool) -> Result<(ClassUnicode, &str)> {
    let mut negated = s.as_bytes()[1] == b'P';
    let t = &s[2..];
    let (seq, name, rest) = match t.chars().next() {
        Some('{') => {
            let Some(end) = s.find('}') else {
                return err(Code::InvalidCharRange, s);
            };
            (&s[..=end], &s[3..end], &s[end + 1..])
        }
        Some(c) => {
            let end = 2 + c.len_utf8();
            (&s[..end], &s[2..end], &s[end..])
        }
        None => (s, "", ""),
    };
    let name = match name.strip_prefix('^') {
        Some(rest) => {
            negated = !negated;
            rest
        }
        None => name,
    };
    let Some((mut class, inverted)) = tables::unicode_table(name) else {
        return err(Code::InvalidCharRange, seq);
    };
    if fold {
        class.case_fold_simple();
    }
    if negated != inverted {
        class.negate();
    }
    Ok((class, rest))
}

/// A parsed pattern.
pub(crate) struct Tree {
    root: Node,
}

impl Tree {
    /// The height of the syntax tree (at most 1000): the recursion depth of building and
    /// compiling its HIR.
    pub(crate) fn height(&self) -> u32 {
        self.root.height
    }

    /// The `regex-syntax` HIR of the pattern, Go's meaning spelled out. Recurses as deep as
    /// [`Tree::height`].
    pub(crate) fn to_hir(&self) -> Hir {
        to_hir(&self.root)
    }
}

/// Parses `pattern` as Go's `regexp.Compile` does.
pub(crate) fn parse(pattern: &str) -> Result<Tree> {
    let mut p = Parser {
        whole: pattern,
        flags: PERL,
        frames: vec![Frame {
            cap: None,
            flags: PERL,
            alts: Vec::new(),
            items: Vec::new(),
        }],
        num_cap: 0,
        num_regexp: 0,
        num_runes: 0,
        repeats: 1,
        size_tracking: false,
    };
    let whole = pattern;
    let mut pos = 0usize;
    let mut last_repeat: Option<usize> = None;
    while pos < whole.len() {
        let t = &whole[pos..];
        let mut repeat = None;
        let b = t.as_bytes()[0];
        match b {
            b'(' if t.as_bytes().get(1) == Some(&b'?') => {
                pos = p.perl_flags(pos)?;
            }
            b'(' => {
                p.num_cap += 1;
                p.num_regexp += 1;
                let cap = p.num_cap;
                p.open(Some(cap));
                pos += 1;
            }
            b'|' => {
                p.vertical_bar()?;
                pos += 1;
            }
            b')' => {
                p.right_paren()?;
                pos += 1;
            }
            b'^' => {
                let look = if p.flags.one_line {
                    Look::Start
                } else {
                    Look::StartLF
                };
                p.push(Node::leaf(Kind::Look(look), 1))?;
                pos += 1;
            }
            b'$' => {
                let look = if p.flags.one_line {
                    Look::End
                } else {
                    Look::EndLF
                };
                p.push(Node::leaf(Kind::Look(look), 1))?;
                pos += 1;
            }
            b'.' => {
                let class = if p.flags.dot_nl {
                    range_class(0, MAX_RUNE)
                } else {
                    let mut c = range_class('\n' as u32, '\n' as u32);
                    c.negate();
                    c
                };
                // Go's `.` is an operator without runes.
                p.push_counted(Node::class(class), 0)?;
                pos += 1;
            }
            b'[' => {
                pos = p.class(pos)?;
            }
            b'*' | b'+' | b'?' => {
                let (op, max) = match b {
                    b'*' => (RepOp::Star, None),
                    b'+' => (RepOp::Plus, None),
                    _ => (RepOp::Quest, Some(1)),
                };
                let min = u32::from(b == b'+');
                let before = pos;
                pos = p.repeat(op, min, max, before, pos + 1, last_repeat)?;
                repeat = Some(before);
            }
            b'{' => match parse_repeat(t) {
                RepeatSpec::Literal => {
                    p.literal('{' as u32)?;
                    pos += 1;
                }
                RepeatSpec::Counts(min, max, rest) => {
                    let before = pos;
                    let after = whole.len() - rest.len();
                    let too_big = |n: Option<u32>| n.is_none_or(|n| i64::from(n) > MAX_REPEAT);
                    let invalid = too_big(min)
                        || max.is_some_and(too_big)
                        || matches!((min, max), (Some(lo), Some(Some(hi))) if lo > hi);
                    if invalid {
                        return err(Code::InvalidRepeatSize, span(whole, before, after));
                    }
                    let min = min.unwrap_or(0);
                    let max = max.map(|m| m.unwrap_or(0));
                    pos = p.repeat(RepOp::Repeat, min, max, before, after, last_repeat)?;
                    repeat = Some(before);
                }
            },
            b'\\' => {
                pos = p.backslash(pos)?;
            }
            _ => {
                let c = t.chars().next().unwrap_or('\0');
                p.literal(c as u32)?;
                pos += c.len_utf8();
            }
        }
        last_repeat = repeat;
    }
    let last = p.concat()?;
    if p.frames.len() != 1 {
        return err(Code::MissingParen, whole);
    }
    let mut top = p.frames.pop().map(|f| f.alts).unwrap_or_default();
    top.push(last);
    let root = p.alternate(top)?;
    Ok(Tree { root })
}

impl Parser<'_> {
    fn open(&mut self, cap: Option<u32>) {
        let flags = self.flags;
        self.frames.push(Frame {
            cap,
            flags,
            alts: Vec::new(),
            items: Vec::new(),
        });
    }

    /// Go's `parsePerlFlags` at byte `start` (`(?`): named captures, flag changes and
    /// non-capturing groups. Returns where parsing continues.
    fn perl_flags(&mut self, start: usize) -> Result<usize> {
        let s = &self.whole[start..];
        let b = s.as_bytes();
        let starts_with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let starts_with_name = b.len() > 3 && b[2] == b'<';
        if starts_with_p || starts_with_name {
            let name_start = if starts_with_p { 4 } else { 3 };
            let Some(end) = s.find('>') else {
                return err(Code::InvalidNamedCapture, s);
            };
            let capture = &s[..=end];
            let name = &s[name_start..end];
            if name.is_empty() || !name.chars().all(|c| c == '_' || is_alnum(c)) {
                return err(Code::InvalidNamedCapture, capture);
            }
            self.num_cap += 1;
            self.num_regexp += 1;
            let cap = self.num_cap;
            self.open(Some(cap));
            return Ok(start + end + 1);
        }
        let mut flags = self.flags;
        let mut negative = false;
        let mut saw_flag = false;
        let mut t = &s[2..];
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            let on = !negative;
            match c {
                'i' => {
                    flags.fold = on;
                    saw_flag = true;
                }
                'm' => {
                    flags.one_line = !on;
                    saw_flag = true;
                }
                's' => {
                    flags.dot_nl = on;
                    saw_flag = true;
                }
                'U' => {
                    flags.non_greedy = on;
                    saw_flag = true;
                }
                '-' if !negative => {
                    negative = true;
                    saw_flag = false;
                }
                ':' | ')' if !negative || saw_flag => {
                    if c == ':' {
                        self.num_regexp += 1;
                        self.open(None);
                    }
                    self.flags = flags;
                    return Ok(self.whole.len() - t.len());
                }
                _ => break,
            }
        }
        err(Code::InvalidPerlOp, &s[..s.len() - t.len()])
    }

    /// A `\` outside a class at byte `start`. Returns where parsing continues.
    fn backslash(&mut self, start: usize) -> Result<usize> {
        let t = &self.whole[start..];
        let look = match t.as_bytes().get(1) {
            Some(b'A') => Some(Look::Start),
            Some(b'b') => Some(Look::WordAscii),
            Some(b'B') => Some(Look::WordAsciiNegate),
            Some(b'z') => Some(Look::End),
            Some(b'C') => return err(Code::InvalidEscape, &t[..2]),
            Some(b'Q') => {
                // `\Q...\E`: the text is literal (to the end when there is no `\E`).
                let body = &t[2..];
                let (lit, next) = match body.find("\\E") {
                    Some(i) => (&body[..i], start + 2 + i + 2),
                    None => (body, self.whole.len()),
                };
                for c in lit.chars() {
                    self.literal(c as u32)?;
                }
                return Ok(next);
            }
            _ => None,
        };
        if let Some(look) = look {
            self.push(Node::leaf(Kind::Look(look), 1))?;
            return Ok(start + 2);
        }
        let fold = self.flags.fold;
        if matches!(t.as_bytes().get(1), Some(b'p' | b'P')) {
            let (class, rest) = parse_unicode_class(t, fold)?;
            self.push(Node::class(class))?;
            return Ok(self.whole.len() - rest.len());
        }
        if let Some((g, negated)) = t.as_bytes().get(1).and_then(|&c| tables::perl_group(c)) {
            self.push(Node::class(group(g, negated, fold)))?;
            return Ok(start + 2);
        }
        let (r, rest) = parse_escape(t)?;
        self.literal(r)?;
        Ok(self.whole.len() - rest.len())
    }

    /// Go's `parseClass` at byte `start` (`[`). Returns where parsing continues.
    fn class(&mut self, start: usize) -> Result<usize> {
        let whole_class = &self.whole[start..];
        let fold = self.flags.fold;
        let mut t = &whole_class[1..];
        let mut negated = false;
        if let Some(rest) = t.strip_prefix('^') {
            negated = true;
            t = rest;
        }
        let mut class = ClassUnicode::empty();
        let mut first = true;
        while t.is_empty() || !t.starts_with(']') || first {
            first = false;
            // POSIX `[:alnum:]`.
            if t.len() > 2
                && t.starts_with("[:")
                && let Some(i) = t[2..].find(":]")
            {
                let name = &t[..i + 4];
                let Some((g, neg)) = tables::posix_group(&name[2..name.len() - 2]) else {
                    return err(Code::InvalidCharRange, name);
                };
                class.union(&group(g, neg, fold));
                t = &t[i + 4..];
                continue;
            }
            // `\p{Greek}`.
            if t.len() >= 2 && t.starts_with('\\') && matches!(t.as_bytes()[1], b'p' | b'P') {
                let (c, rest) = parse_unicode_class(t, fold)?;
                class.union(&c);
                t = rest;
                continue;
            }
            // `\d`.
            if t.len() >= 2
                && t.starts_with('\\')
                && let Some((g, neg)) = tables::perl_group(t.as_bytes()[1])
            {
                class.union(&group(g, neg, fold));
                t = &t[2..];
                continue;
            }
            // A character or a range.
            let range_start = t;
            let (lo, rest) = class_char(t, whole_class)?;
            t = rest;
            let mut hi = lo;
            if t.len() >= 2 && t.starts_with('-') && !t[1..].starts_with(']') {
                let (h, rest) = class_char(&t[1..], whole_class)?;
                t = rest;
                hi = h;
                if hi < lo {
                    return err(
                        Code::InvalidCharRange,
                        &range_start[..range_start.len() - t.len()],
                    );
                }
            }
            let mut c = range_class(lo, hi);
            if fold {
                c.case_fold_simple();
            }
            class.union(&c);
        }
        if negated {
            class.negate();
        }
        self.push(Node::class(class))?;
        // Skip the closing `]`.
        Ok(self.whole.len() - t.len() + 1)
    }
}

/// Go's `parseClassChar`.
fn class_char<'s>(s: &'s str, whole_class: &str) -> Result<(u32, &'s str)> {
    let Some(c) = s.chars().next() else {
        return err(Code::MissingBracket, whole_class);
    };
    if c == '\\' {
        return parse_escape(s);
    }
    Ok((c as u32, &s[c.len_utf8()..]))
}

/// The `regex-syntax` form of a node, Go's meaning spelled out.
fn to_hir(node: &Node) -> Hir {
    match &node.kind {
        Kind::Empty => Hir::empty(),
        Kind::Lit { runes, fold } => {
            let mut parts = Vec::with_capacity(runes.len());
            let mut text = String::new();
            for &r in runes {
                let class = rune_class(r, *fold);
                match class.ranges() {
                    [one] if one.start() == one.end() => text.push(one.start()),
                    _ => {
                        if !text.is_empty() {
                            parts.push(Hir::literal(std::mem::take(&mut text).into_bytes()));
                        }
                        parts.push(Hir::class(hir::Class::Unicode(class)));
                    }
                }
            }
            if !text.is_empty() {
                parts.push(Hir::literal(text.into_bytes()));
            }
            Hir::concat(parts)
        }
        Kind::Class(c) => Hir::class(hir::Class::Unicode(c.clone())),
        Kind::Look(l) => Hir::look(*l),
        Kind::Capture(index, sub) => Hir::capture(hir::Capture {
            index: *index,
            // Go allows names the regex crate does not (`(?P<1>`, repeated names); names
            // change no match.
            name: None,
            sub: Box::new(to_hir(sub)),
        }),
        Kind::Repeat {
            min,
            max,
            greedy,
            sub,
            ..
        } => Hir::repetition(hir::Repetition {
            min: *min,
            max: *max,
            greedy: *greedy,
            sub: Box::new(to_hir(sub)),
        }),
        Kind::Concat(subs) => Hir::concat(subs.iter().map(to_hir).collect()),
        Kind::Alternate(subs) => Hir::alternation(subs.iter().map(to_hir).collect()),
    }
}
