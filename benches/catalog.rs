//! Scale benches for the catalog (issue 5): P2 render, P3 describe search
//! (SPEC §5, contract version 2), P4 `fit`, P6 admission. Each target is a
//! ratio, so each group measures both sides in the same run; `script/bench`
//! reads the two medians from
//! `target/criterion/<group>/<side>/new/estimates.json` and divides.
//!
//! No timing is asserted here; the targets live in `script/bench`.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use disclose::{Catalog, FitPlan, Mode, Run, ToolDecl, fit};

#[path = "support/realistic.rs"]
mod realistic;

fn started(decls: &[ToolDecl]) -> Run {
    let mut catalog = Catalog::new();
    for decl in decls {
        // A refusal would make the catalog smaller than the bench says.
        assert!(catalog.admit_tool(decl).is_ok(), "{} refused", decl.name);
    }
    catalog.start(Mode::Chat)
}

/// P2: `render()` on 100,000 dormant tools vs 100. The packer stops at the
/// ceiling, so the cost must not grow with the catalog.
fn p2_render(c: &mut Criterion) {
    let small = started(&realistic::decls(100, 2));
    let large = started(&realistic::decls(100_000, 2));
    let mut group = c.benchmark_group("P2_render");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("large", |b| b.iter(|| black_box(&large).render()));
    group.bench_function("small", |b| b.iter(|| black_box(&small).render()));
    group.finish();
}

/// SPEC §5 `words`, naively: alphanumeric runs, split again at a
/// lowercase letter or digit before an uppercase one, lowercased.
fn naive_words(text: &str) -> BTreeSet<String> {
    let mut words = BTreeSet::new();
    for run in text.split(|c: char| !c.is_alphanumeric()) {
        let mut word = String::new();
        let mut last = None::<char>;
        for c in run.chars() {
            if last.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                && c.is_ascii_uppercase()
            {
                words.insert(std::mem::take(&mut word));
            }
            word.extend(c.to_lowercase());
            last = Some(c);
        }
        if !word.is_empty() {
            words.insert(word);
        }
    }
    words
}

/// The naive `describe` ranking (SPEC §5, contract version 2): for every
/// query, tokenize every candidate's name and description, count each
/// query word's `df` by scanning them all, then weigh and score. No index.
fn naive_describe(tools: &[(String, String, String)], query: &str) -> String {
    let query = query.trim();
    let candidates: Vec<(BTreeSet<String>, BTreeSet<String>)> = tools
        .iter()
        .map(|tool| (naive_words(&tool.0), naive_words(&tool.1)))
        .collect();
    let asked: Vec<(String, u64)> = naive_words(query)
        .into_iter()
        .filter(|w| !disclose::search::STOPWORDS.contains(&w.as_str()))
        .filter_map(|w| {
            let df = candidates
                .iter()
                .filter(|(name, text)| name.contains(&w) || text.contains(&w))
                .count();
            (df > 0).then(|| {
                let ratio = (tools.len() as u128 + 1).pow(2) / (df as u128).pow(2);
                (w, u64::from(128 - ratio.leading_zeros()))
            })
        })
        .collect();
    let mut hits: Vec<(u64, &(String, String, String))> = tools
        .iter()
        .zip(&candidates)
        .filter_map(|(tool, (name, text))| {
            let score: u64 = asked
                .iter()
                .map(|(w, weight)| {
                    weight * (3 * u64::from(name.contains(w)) + u64::from(text.contains(w)))
                })
                .sum();
            (score > 0).then_some((score, tool))
        })
        .collect();
    hits.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.0.cmp(&b.1.0)));
    if hits.is_empty() {
        return format!("no capability is named \"{query}\", and no keyword matched\n");
    }
    let mut out = format!("no capability is named \"{query}\"; closest by keyword:\n");
    for (_, (name, _, hint)) in hits.into_iter().take(disclose::DESCRIBE_HITS) {
        out.push_str(&format!("- {name}: {hint}\n"));
    }
    out
}

/// P3: `describe` keyword search on 10,000 tools vs the naive ranking.
fn p3_describe(c: &mut Criterion) {
    let run = started(&realistic::decls(10_000, 3));
    let tools: Vec<(String, String, String)> = run
        .offered_tools()
        .map(|t| {
            (
                t.name().to_string(),
                t.description().to_string(),
                t.hint().to_string(),
            )
        })
        .collect();
    for query in realistic::QUERIES {
        // Both sides must compute the same answer, or the ratio means nothing.
        assert_eq!(
            run.describe(query).ok(),
            Some(naive_describe(&tools, query))
        );
    }
    let mut group = c.benchmark_group("P3_describe");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("indexed", |b| {
        b.iter(|| {
            for query in realistic::QUERIES {
                black_box(run.describe(black_box(query)).ok());
            }
        })
    });
    group.sample_size(20);
    group.bench_function("naive", |b| {
        b.iter(|| {
            for query in realistic::QUERIES {
                black_box(naive_describe(&tools, black_box(query)));
            }
        })
    });
    group.finish();
}

/// P4: `fit` vs a pre-compiled `jsonschema` validator's `is_valid` on the
/// same top-level schemas and args (two thirds fit, one third does not).
/// Both sides are compiled once per schema, as a run compiles its tools'
/// `FitPlan`s at admission, and both give a verdict; `fit_violations` also
/// times collecting every violation of a misfit (reported, not the target).
fn p4_fit(c: &mut Criterion) {
    let cases = realistic::fit_cases(64, 4);
    let validators: Vec<jsonschema::Validator> = cases
        .iter()
        .map(|(schema, _)| jsonschema::draft202012::new(schema).expect("schema compiles"))
        .collect();
    let plans: Vec<FitPlan> = cases
        .iter()
        .map(|(schema, _)| FitPlan::new(schema))
        .collect();
    for (((schema, args), validator), plan) in cases.iter().zip(&validators).zip(&plans) {
        // Same verdicts: these schemas constrain the top level only.
        assert_eq!(fit(schema, args).is_ok(), validator.is_valid(args));
        assert_eq!(plan.check(schema, args), fit(schema, args));
    }
    let mut group = c.benchmark_group("P4_fit");
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(3));
    // The verdict, like `is_valid`: the target's ratio.
    group.bench_function("fit", |b| {
        b.iter(|| {
            for ((_, args), plan) in cases.iter().zip(&plans) {
                black_box(plan.fits(black_box(args)));
            }
        })
    });
    // The verdict and, on a misfit, every violation (what `call` prints).
    group.bench_function("fit_violations", |b| {
        b.iter(|| {
            for ((schema, args), plan) in cases.iter().zip(&plans) {
                black_box(plan.check(black_box(schema), black_box(args)).is_ok());
            }
        })
    });
    group.bench_function("jsonschema", |b| {
        b.iter(|| {
            for ((_, args), validator) in cases.iter().zip(&validators) {
                black_box(validator.is_valid(black_box(args)));
            }
        })
    });
    group.finish();
}

/// P6: admission of 100,000 tools vs 10,000 (near-linear).
fn p6_admission(c: &mut Criterion) {
    let small = realistic::decls(10_000, 6);
    let large = realistic::decls(100_000, 6);
    let admit = |decls: Vec<ToolDecl>| {
        let mut catalog = Catalog::new();
        for decl in &decls {
            black_box(catalog.admit_tool(decl).is_ok());
        }
        (catalog, decls)
    };
    let mut group = c.benchmark_group("P6_admission");
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    // A fresh salt per iteration: every schema is new to the process, as
    // at a real cold start, for both sizes alike.
    let salt = AtomicU64::new(0);
    let fresh =
        |decls: &[ToolDecl]| realistic::salted_decls(decls, salt.fetch_add(1, Ordering::Relaxed));
    group.bench_function("small", |b| {
        b.iter_batched(|| fresh(&small), admit, BatchSize::PerIteration)
    });
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("large", |b| {
        b.iter_batched(|| fresh(&large), admit, BatchSize::PerIteration)
    });
    group.finish();
}

criterion_group!(benches, p2_render, p3_describe, p4_fit, p6_admission);
criterion_main!(benches);
