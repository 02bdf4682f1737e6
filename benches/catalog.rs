//! Scale benches for the catalog (docs/performance.md): P2 render, P3 describe search
//! (SPEC §5, contract version 5), P4 `fit`, P6 admission, P9 `describe` over
//! a catalog described in Chinese against the same in English. Each target is a
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
use disclose::internals::fit::{FitPlan, fit};
use disclose::{Catalog, Mode, Run, ToolDecl};
use disclose_testkit::model::is_cjk;

#[path = "support/allocator.rs"]
mod allocator;
#[path = "support/bilingual.rs"]
mod bilingual;
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

/// The words of `s` as a list, every occurrence kept, a word holding a
/// CJK character cut into its segments, characters and pairs.
fn naive_word_list(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    for word in naive_runs(s) {
        if word.is_ascii() {
            words.push(word);
            continue;
        }
        let chars: Vec<char> = word.chars().collect();
        let mut from = 0;
        for at in 1..=chars.len() {
            if at < chars.len() && is_cjk(chars[at]) == is_cjk(chars[at - 1]) {
                continue;
            }
            let segment = &chars[from..at];
            if segment.len() > 1 && is_cjk(segment[0]) {
                for (k, c) in segment.iter().enumerate() {
                    words.push(c.to_string());
                    if let Some(next) = segment.get(k + 1) {
                        words.push(format!("{c}{next}"));
                    }
                }
            } else {
                words.push(segment.iter().collect());
            }
            from = at;
        }
    }
    words
}

/// The runs of `s`, split at camelCase, lowercased.
fn naive_runs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut last: Option<char> = None;
    for c in s.chars() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            last = None;
            continue;
        }
        if let Some(p) = last
            && (p.is_ascii_lowercase() || p.is_ascii_digit())
            && c.is_ascii_uppercase()
        {
            out.push(std::mem::take(&mut word));
        }
        word.extend(c.to_lowercase());
        last = Some(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The naive `describe` ranking (SPEC §5, contract version 5): for every
/// query, tokenize and stem every candidate's name, description and
/// params, count `df`, `dfv` and the bags by scanning them all, split and
/// sum every candidate's vector, then score and fuse. No index, nothing
/// kept between queries.
/// A tool as the naive side sees it: name, description, hint, input schema.
type NaiveTool = (String, String, String, serde_json::Value);

/// What the naive side reads of a tool: the stems of its name, text and
/// params, its vector words, and its bag.
type NaiveFields = ([BTreeSet<String>; 3], Vec<String>, Vec<String>);

fn naive_describe(tools: &[NaiveTool], query: &str) -> String {
    use disclose::internals::contract4::{DIMENSIONS, add_rows};
    use disclose::internals::search::{STOPWORDS, fuse, isqrt, pieces, saturation, weight};
    use disclose::internals::stem::stem;
    let query = query.trim();
    let n = tools.len();
    let stop = |w: &String| STOPWORDS.contains(&w.as_str());
    let fields: Vec<NaiveFields> = tools
        .iter()
        .map(|(name, text, _, schema)| {
            let mut params = Vec::new();
            if let Some(properties) = schema.get("properties").and_then(|p| p.as_object()) {
                for (key, value) in properties {
                    params.extend(naive_word_list(key));
                    if let Some(d) = value.get("description").and_then(|d| d.as_str()) {
                        params.extend(naive_word_list(d));
                    }
                }
            }
            let (name, text) = (naive_word_list(name), naive_word_list(text));
            let stems = |ws: &[String]| ws.iter().map(|w| stem(w).into_owned()).collect();
            let vector_words = (name.iter().chain(&text).chain(&params))
                .filter(|w| !stop(w))
                .cloned()
                .collect();
            let bag = (text.iter().chain(&params))
                .filter(|w| !stop(w))
                .map(|w| stem(w).into_owned())
                .collect();
            (
                [stems(&name), stems(&text), stems(&params)],
                vector_words,
                bag,
            )
        })
        .collect();
    let mut asked: Vec<String> = Vec::new();
    for w in naive_word_list(query) {
        if !stop(&w) && !asked.contains(&w) {
            asked.push(w);
        }
    }
    // `df` and `dfv` counted in one pass over every candidate, per query.
    let mut df_of: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    let mut dfv_of: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for ([name, text, params], words, _) in &fields {
        let held: BTreeSet<&str> = name
            .iter()
            .chain(text)
            .chain(params)
            .map(String::as_str)
            .collect();
        for t in held {
            *df_of.entry(t).or_default() += 1;
        }
        let distinct: BTreeSet<&str> = words.iter().map(String::as_str).collect();
        for w in distinct {
            *dfv_of.entry(w).or_default() += 1;
        }
    }
    let df = |t: &String| df_of.get(t.as_str()).copied().unwrap_or(0);
    let dfv = |w: &String| dfv_of.get(w.as_str()).copied().unwrap_or(0);
    let stems: BTreeSet<String> = (asked.iter())
        .map(|w| stem(w).into_owned())
        .filter(|t| df(t) > 0)
        .collect();
    let total: u64 = fields.iter().map(|(_, _, bag)| bag.len() as u64).sum();
    let weights: Vec<(String, u64)> = stems
        .into_iter()
        .map(|t| {
            let w = u64::from(weight(n, df(&t)));
            (t, w)
        })
        .collect();
    let vector = |words: &[String]| {
        let mut v = [0i64; DIMENSIONS];
        for w in words {
            add_rows(&mut v, &pieces(w), i64::from(weight(n, dfv(w))));
        }
        v
    };
    let dot = |a: &[i64; DIMENSIONS], b: &[i64; DIMENSIONS]| -> i128 {
        a.iter()
            .zip(b)
            .map(|(x, y)| i128::from(*x) * i128::from(*y))
            .sum()
    };
    let vq = vector(&asked);
    let nq = isqrt(dot(&vq, &vq) as u128) as i128;
    let lex: Vec<u64> = (fields.iter())
        .map(|([name, text, params], _, bag)| {
            (weights.iter())
                .map(|(t, w)| {
                    let part = if t.chars().any(is_cjk) {
                        let tf = bag.iter().filter(|s| *s == t).count() as u32;
                        3072 * u64::from(name.contains(t))
                            + saturation(tf, bag.len() as u32, total, n)
                    } else {
                        1024 * (3 * u64::from(name.contains(t))
                            + u64::from(text.contains(t))
                            + 2 * u64::from(params.contains(t)))
                    };
                    w * part
                })
                .sum()
        })
        .collect();
    let with_vector = asked.iter().filter(|w| !pieces(w).is_empty()).count();
    let most = lex.iter().copied().max().unwrap_or(0);
    let mut hits: Vec<(i128, &NaiveTool)> = tools
        .iter()
        .zip(fields.iter().zip(&lex))
        .filter_map(|(tool, ((_, words, _), lex))| {
            let vc = vector(words);
            let nc = isqrt(dot(&vc, &vc) as u128) as i128;
            let cos = if nq > 0 && nc > 0 {
                (1024 * dot(&vq, &vc)).div_euclid(nq * nc)
            } else {
                0
            };
            let score = fuse(*lex, most, cos, with_vector, asked.len());
            (score > 0).then_some((score, tool))
        })
        .collect();
    hits.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.0.cmp(&b.1.0)));
    if hits.is_empty() {
        return format!("no capability is named \"{query}\", and nothing matched\n");
    }
    let mut out = format!("no capability is named \"{query}\"; closest matches:\n");
    for (_, (name, _, hint, _)) in hits.into_iter().take(disclose::DESCRIBE_HITS) {
        out.push_str(&format!("- {name}: {hint}\n"));
    }
    out
}

/// P3: `describe` keyword search on 10,000 tools vs the naive ranking.
fn p3_describe(c: &mut Criterion) {
    let run = started(&realistic::decls(10_000, 3));
    let tools: Vec<NaiveTool> = run
        .offered_tools()
        .map(|t| {
            (
                t.name().to_string(),
                t.description().to_string(),
                t.hint().to_string(),
                t.input_schema().clone(),
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

/// Q1: on a 500-tool run, the first ranked query (which builds every
/// candidate's words, stems and vectors) and a query after it, each against
/// admitting the same 500 tools. Every iteration salts the descriptions
/// and schemas, so neither the schema-facts memo nor the search memo (both
/// by content) can serve a repeat.
fn q1_first_query(c: &mut Criterion) {
    let decls = realistic::decls(500, 7);
    let salt = AtomicU64::new(0);
    let salted = || {
        let n = salt.fetch_add(1, Ordering::Relaxed);
        let mut decls = realistic::salted_decls(&decls, n);
        for decl in &mut decls {
            decl.description = format!("{} Salt {n}.", decl.description);
        }
        decls
    };
    let [first, next] = [realistic::QUERIES[0], realistic::QUERIES[1]];
    let mut group = c.benchmark_group("Q1_first_query");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("admit", |b| {
        b.iter_batched(
            salted,
            |decls| black_box(started(&decls)),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("first", |b| {
        // By reference: dropping the run is not the query's cost.
        b.iter_batched_ref(
            || started(&salted()),
            |run| black_box(run.describe(first).ok()),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("next", |b| {
        b.iter_batched_ref(
            || {
                let run = started(&salted());
                assert!(run.describe(first).is_ok());
                run
            },
            |run| black_box(run.describe(next).ok()),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// P9: `describe` over 1,000 tools described in Chinese against the same
/// tools described in English, each asked the same eight tasks in its
/// language. Each iteration is a fresh run of the salted catalog (every
/// description salted, so the search memo cannot serve a build; admitting
/// is the setup, not timed) answering the eight: the first builds the
/// run's search (every text's words, the CJK ones cut into characters and
/// pairs), then each ranks. The CJK path must cost only where CJK text is.
fn p9_chinese(c: &mut Criterion) {
    use bilingual::Language;
    let salt = AtomicU64::new(0);
    let mut group = c.benchmark_group("P9_chinese");
    group.sample_size(20);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(5));
    for (side, language) in [
        ("chinese", Language::Chinese),
        ("english", Language::English),
    ] {
        let decls = bilingual::decls(1_000, language);
        let queries = bilingual::queries(language);
        let salted = || {
            let n = salt.fetch_add(1, Ordering::Relaxed);
            let mut decls = decls.clone();
            for decl in &mut decls {
                decl.description = format!("{} Salt {n}.", decl.description);
            }
            started(&decls)
        };
        // Every task finds something on both sides, or the two sides would
        // not do the same work; and the answer is the naive ranking's.
        let run = salted();
        let tools: Vec<NaiveTool> = (run.offered_tools())
            .map(|t| {
                let (name, text) = (t.name().to_string(), t.description().to_string());
                (name, text, t.hint().to_string(), t.input_schema().clone())
            })
            .collect();
        for query in queries {
            let answer = run.describe(query).unwrap_or_default();
            assert!(answer.contains("closest matches"), "{query}: {answer}");
            assert_eq!(answer, naive_describe(&tools, query), "{query}");
        }
        group.bench_function(side, |b| {
            b.iter_batched_ref(
                salted,
                |run| {
                    for query in queries {
                        black_box(run.describe(black_box(query)).ok());
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    p2_render,
    p3_describe,
    p4_fit,
    p6_admission,
    q1_first_query,
    p9_chinese
);
criterion_main!(benches);
