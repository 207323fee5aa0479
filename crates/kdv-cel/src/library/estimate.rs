//! What a library's static cost estimator sees of the call it prices, and what it answers
//! (cel-go's `checker.CostEstimator.EstimateCallCost` and `OverloadCostEstimate`): the cost
//! arithmetic ([`CostEstimate`], [`SizeEstimate`]), cel-go's cost constants, and
//! [`CallSite`], the view of one call that the cost walk (`crate::cost`) hands estimators.

use std::ops::Add;

use crate::ast::Expr;
use crate::types::Type;

/// Cost of building a list (cel-go `ListCreateBaseCost`).
pub const LIST_CREATE_BASE_COST: u64 = 10;
/// Cost per code point of scanning a string (cel-go `StringTraversalCostFactor`).
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// Cost per character of a regular expression (cel-go `RegexStringLengthCostFactor`).
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;

/// A `{min, max}` cost range (cel-go `CostEstimate`); all arithmetic saturates at `u64::MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CostEstimate {
    /// Least possible cost.
    pub min: u64,
    /// Greatest possible cost.
    pub max: u64,
}

/// A `{min, max}` size range (cel-go `SizeEstimate`): string length in code points, bytes
/// length, number of list elements or map entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SizeEstimate {
    /// Least possible size.
    pub min: u64,
    /// Greatest possible size.
    pub max: u64,
}

/// ⌈x · f⌉ in float64 as cel-go computes it, saturating at `u64::MAX`.
fn multiply_by_cost_factor(x: u64, f: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && f > 0.0 && xf > u64::MAX as f64 / f {
        return u64::MAX;
    }
    let ceil = (xf * f).ceil();
    // 2^64 is exactly representable; `u64::MAX as f64` rounds to it.
    if ceil >= u64::MAX as f64 {
        u64::MAX
    } else {
        ceil as u64
    }
}

impl Add for CostEstimate {
    type Output = CostEstimate;

    /// Element-wise saturating sum.
    fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
}

impl Add for SizeEstimate {
    type Output = SizeEstimate;

    /// Element-wise saturating sum.
    fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }
}

impl CostEstimate {
    /// `{0, 0}`.
    pub const ZERO: CostEstimate = CostEstimate { min: 0, max: 0 };

    /// `{n, n}`.
    pub const fn fixed(n: u64) -> CostEstimate {
        CostEstimate { min: n, max: n }
    }

    /// `{0, u64::MAX}`: nothing is known.
    pub const fn unknown() -> CostEstimate {
        CostEstimate {
            min: 0,
            max: u64::MAX,
        }
    }

    /// Element-wise saturating product (min·min, max·max).
    #[must_use]
    pub fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// Element-wise ⌈x · f⌉ (cel-go `MultiplyByCostFactor`).
    #[must_use]
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, f),
            max: multiply_by_cost_factor(self.max, f),
        }
    }

    /// The range covering both.
    #[must_use]
    pub fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

impl SizeEstimate {
    /// `{n, n}`.
    pub const fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate { min: n, max: n }
    }

    /// `{0, u64::MAX}`: nothing is known.
    pub const fn unknown() -> SizeEstimate {
        SizeEstimate {
            min: 0,
            max: u64::MAX,
        }
    }

    /// Element-wise saturating product (min·min, max·max).
    #[must_use]
    pub fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// Element-wise product with a cost (cel-go `MultiplyByCost`).
    #[must_use]
    pub fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }

    /// Element-wise ⌈x · f⌉ as a cost (cel-go `MultiplyByCostFactor`).
    #[must_use]
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: multiply_by_cost_factor(self.min, f),
            max: multiply_by_cost_factor(self.max, f),
        }
    }

    /// The range covering both.
    #[must_use]
    pub fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// A call's cost and, when the estimator knows it, the size of its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallEstimate {
    /// The cost of the call itself (the cost walk adds its arguments' costs).
    pub cost: CostEstimate,
    /// The result's size, when known.
    pub result: Option<SizeEstimate>,
}

impl CallEstimate {
    /// A cost, the result's size unknown.
    pub fn cost(cost: CostEstimate) -> CallEstimate {
        CallEstimate { cost, result: None }
    }
}

/// The call being estimated, as a static cost estimator sees it (cel-go hands estimators the
/// function, the overload id and `AstNode`s of the receiver and the arguments). Estimators are
/// asked once per overload the checker kept for the call.
///
/// An estimator answers `None` when it has no estimate for the call (it does not price the
/// function, or the call has a shape it does not expect); the cost walk then asks the next
/// one.
pub trait CallSite<'a> {
    /// A receiver or argument of the call (cel-go `AstNode`).
    type Node: Copy;

    /// The function's name (`_+_`, `indexOf`, `sets.contains`).
    fn function(&self) -> &'a str;

    /// The overload id being priced.
    fn overload(&self) -> &'a str;

    /// The number of arguments, the receiver not counted.
    fn argc(&self) -> usize;

    /// The receiver of a member call.
    fn target(&self) -> Option<Self::Node>;

    /// Argument `i` (the receiver not counted).
    fn arg(&self, i: usize) -> Self::Node;

    /// The expression of a node.
    fn expr(&self, node: &Self::Node) -> &'a Expr;

    /// The checked type of a node.
    fn node_type(&self, node: &Self::Node) -> &'a Type;

    /// The size computed for a node while walking it (cel-go `AstNode.ComputedSize`).
    fn computed_size(&self, node: &Self::Node) -> Option<SizeEstimate>;

    /// The computed size, or unknown (cel-go `sizeOrUnknown`).
    fn computed_or_unknown(&self, node: &Self::Node) -> SizeEstimate {
        self.computed_size(node).unwrap_or(SizeEstimate::unknown())
    }

    /// The computed size, else the size estimator's answer for the node's field path, else
    /// unknown (the extensions' `estimateSize`, Kubernetes' `sizeEstimate`).
    fn node_size(&self, node: &Self::Node) -> SizeEstimate;

    /// Kubernetes `listElementNode`: the first type parameter of the node's type and the size
    /// of a value of that type at the node's path plus `@items`. `None` when the type has no
    /// parameters.
    fn element(&mut self, node: &Self::Node) -> Option<(&'a Type, SizeEstimate)>;
}
