//! The fast path of SPEC §5's dot product: the i128 [`dot`] of the rule,
//! computed in i64 lanes over i32 components where that is exact.
//!
//! A build keeps each vector as a [`Form`]: its 32-bit components where
//! they all fit (a third of the wide vector's bytes), the wide vector
//! otherwise. [`product`] is the one entry point: the ranking asks it for
//! every `q·c` and every norm's `v·v`, and it answers from the narrow
//! vectors only when [`Narrow::exact_with`] proves the i64 sum cannot
//! overflow, from the rule's [`dot`] otherwise. It owns nothing of the
//! ranking but that product;
//! `tests::the_narrow_dot_is_the_wide_one_where_it_is_exact` holds it equal
//! to the rule.

use std::borrow::Cow;

use multiversion::multiversion;

use super::score::dot;
use crate::contract4::{DIMENSIONS, Vector};

/// A vector whose components all fit in `i32`, and the largest of their
/// magnitudes. Beside the rule, not instead of it: [`Narrow::dot`] is the
/// i128 [`dot`] of SPEC §5 exactly whenever [`Narrow::exact_with`] says the
/// i64 sum cannot overflow (128 products of at most `a·b` each), and the
/// ranking falls back to [`dot`] otherwise. Real text stays far inside it.
#[derive(Debug, Clone)]
pub(super) struct Narrow {
    components: [i32; DIMENSIONS],
    largest: i64,
}

impl Narrow {
    #[inline]
    pub(super) fn of(vector: &Vector) -> Option<Narrow> {
        let mut components = [0i32; DIMENSIONS];
        let mut largest = 0i64;
        for (to, &from) in components.iter_mut().zip(vector) {
            *to = i32::try_from(from).ok()?;
            largest = largest.max(from.abs());
        }
        Some(Narrow {
            components,
            largest,
        })
    }

    /// Whether the i64 sum of the products with `other` is exact.
    #[inline]
    fn exact_with(&self, other: &Narrow) -> bool {
        i128::from(self.largest) * i128::from(other.largest) * DIMENSIONS as i128
            <= i128::from(i64::MAX)
    }

    /// `a·b` in i64 lanes; exact under [`Narrow::exact_with`].
    #[inline]
    fn dot(&self, other: &Narrow) -> i64 {
        lanes_dot(&self.components, &other.components)
    }
}

/// The sum of the i64 products of `a` and `b`'s components, which the
/// compiler vectorizes: compiled also for AVX2 and SSE4.1 (whose signed
/// 32 × 32 → 64-bit multiply the baseline x86-64 lacks), picked at run time
/// where the processor has them. Integer sums: every version is exact alike.
#[multiversion(targets("x86_64+avx2", "x86_64+sse4.1"))]
fn lanes_dot(a: &[i32; DIMENSIONS], b: &[i32; DIMENSIONS]) -> i64 {
    (a.iter().zip(b))
        .map(|(x, y)| i64::from(*x) * i64::from(*y))
        .sum()
}

/// A vector as a build keeps it: narrow where every component fits, wide
/// where one does not. Either form is the same vector.
#[derive(Debug, Clone)]
#[expect(
    clippy::large_enum_variant,
    reason = "nearly every vector is narrow: kept inline, one allocation fewer per candidate"
)]
pub(super) enum Form {
    Narrow(Narrow),
    Wide(Box<Vector>),
}

impl Form {
    /// The vector of `components`, which all fit: narrow.
    pub(super) fn narrow(components: [i32; DIMENSIONS]) -> Form {
        let largest = (components.iter())
            .map(|c| i64::from(*c).abs())
            .max()
            .unwrap_or(0);
        Form::Narrow(Narrow {
            components,
            largest,
        })
    }

    pub(super) fn of(vector: &Vector) -> Form {
        match Narrow::of(vector) {
            Some(narrow) => Form::Narrow(narrow),
            None => Form::Wide(Box::new(*vector)),
        }
    }

    /// The vector in the rule's components (the narrow ones widened, which
    /// is exact).
    pub(super) fn wide(&self) -> Cow<'_, Vector> {
        match self {
            Form::Narrow(narrow) => Cow::Owned(narrow.components.map(i64::from)),
            Form::Wide(vector) => Cow::Borrowed(vector),
        }
    }
}

/// `a·b` (SPEC §5): the narrow product where both are narrow and it is
/// exact, else the rule's i128 [`dot`].
#[inline]
pub(super) fn product(a: &Form, b: &Form) -> i128 {
    match (a, b) {
        (Form::Narrow(x), Form::Narrow(y)) if x.exact_with(y) => i128::from(x.dot(y)),
        _ => dot(&a.wide(), &b.wide()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The narrow dot product is the i128 one wherever it claims to be
    /// exact, and claims it only where the i64 sum cannot overflow; and
    /// [`product`] is the rule's everywhere: checked on random vectors at
    /// every magnitude up to past `i32`'s edge.
    #[test]
    fn the_narrow_dot_is_the_wide_one_where_it_is_exact() {
        let mut next = crate::test_words::splitmix64(0x9e37_79b9_7f4a_7c15);
        let (mut exact, mut refused) = (0, 0);
        for round in 0..4000u32 {
            let bits = 1 + round % 33;
            let mut draw = || {
                let v: Vector = std::array::from_fn(|_| {
                    let r = (next() >> (64 - bits)) as i64;
                    if next() & 1 == 0 { r } else { -r }
                });
                v
            };
            let (a, b) = (draw(), draw());
            let wide = dot(&a, &b);
            // The entry point answers the rule's product whatever the
            // magnitudes: narrow where exact, wide where not.
            let (fa, fb) = (Form::of(&a), Form::of(&b));
            assert_eq!(product(&fa, &fb), wide);
            assert_eq!(product(&fa, &fa), dot(&a, &a));
            assert_eq!((*fa.wide(), *fb.wide()), (a, b));
            match (Narrow::of(&a), Narrow::of(&b)) {
                (Some(x), Some(y)) if x.exact_with(&y) => {
                    assert_eq!(i128::from(x.dot(&y)), wide);
                    exact += 1;
                }
                (Some(x), Some(y)) => {
                    // Refused only when the bound could be passed.
                    assert!(x.largest as i128 * y.largest as i128 * 128 > i64::MAX as i128);
                    refused += 1;
                }
                _ => assert!(a.iter().chain(&b).any(|c| i32::try_from(*c).is_err())),
            }
        }
        assert!(exact > 1000 && refused > 100, "{exact} {refused}");
    }
}
