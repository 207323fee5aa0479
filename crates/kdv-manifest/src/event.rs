//! The parser events `Document::locate` walks, produced by either YAML reader (the fast
//! reader's own, or granit's mapped by `locate`), so neither reader depends on the other.

use crate::Position;

/// What the walk needs of one parser event: where a node starts, a scalar's text (a key's
/// name), and where collections end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event<'a> {
    /// A mapping starts.
    MappingStart(Position),
    /// A sequence starts.
    SequenceStart(Position),
    /// A scalar, with its text.
    Scalar(Position, &'a str),
    /// An alias (no path leads into it, and it names no key).
    Alias(Position),
    /// The innermost open collection ends.
    End,
}
