//! The strategies for requests, faults, layouts and whole sessions.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

use super::decl::decl;
use super::schema::args;
use super::session::{
    ArgsPlan, CallPlan, Fault, FaultPlan, Layout, Query, Request, Route, SessionPlan, Target,
};
use super::text::{WORDS, raw_name, text};
use disclose::Provider;
use disclose::{Mode, Profile};

/// Literal names a request may use: the resident names, the doors,
/// near-misses and unknowns.
pub(super) const LITERAL_NAMES: &[&str] = &[
    "read",
    "edit",
    "exec",
    "describe",
    "call",
    "nope",
    "Search_A",
    "github__search",
    "",
];
/// How keyword queries join their words.
pub(super) const SEPARATORS: &[&str] = &[" ", "_", "-", "  "];
/// The call ids.
pub(super) const CALL_IDS: &[&str] = &["c1", "c2", "", "id 3", "é"];
/// The header's `about`.
pub(super) const ABOUTS: &[&str] = &["generated", "é\tabout", ""];
/// The routes through `call` that break its shape, or call it itself.
pub(super) const ODD_ROUTES: &[Route] = &[
    Route::NotObject,
    Route::MissingName,
    Route::MissingArgs,
    Route::NameNotString,
    Route::Itself,
];
/// Every fault, in the order they are drawn from.
pub(super) const FAULTS: &[Fault] = &[
    Fault::BadJson,
    Fault::NotObject,
    Fault::NoOp,
    Fault::UnknownOp,
    Fault::MissingField,
    Fault::MistypedField,
    Fault::UnknownField,
    Fault::NullOptional,
    Fault::BadMode,
    Fault::BadProfile,
    Fault::HeaderTwice,
    Fault::QueryBeforeStart,
    Fault::SecondStart,
    Fault::DevAfterStart,
    Fault::BadFormat,
    Fault::NoHeader,
    Fault::Empty,
];

/// A name a request may use: declared names (resolved through the plan) or
/// literals — the resident names, the doors, near-misses, unknowns.
fn target() -> BoxedStrategy<Target> {
    prop_oneof![
        4 => any::<usize>().prop_map(Target::Declared),
        1 => select(LITERAL_NAMES)
            .prop_map(|n| Target::Named(n.to_string())),
        1 => raw_name().prop_map(Target::Named),
    ]
    .boxed()
}

fn query() -> BoxedStrategy<Query> {
    let odd = prop_oneof![
        Just(String::new()),
        Just("   ".to_string()),
        Just("a".repeat(256)),
        Just("a".repeat(257)),
        Just("é".repeat(129)),
        Just("a\u{0}b".to_string()),
        Just("tab\there".to_string()),
        Just("\u{7f}".to_string()),
    ];
    let keywords =
        (vec(select(WORDS), 1..4), select(SEPARATORS)).prop_map(|(words, sep)| words.join(sep));
    prop_oneof![
        3 => target().prop_map(Query::Exact),
        1 => target().prop_map(Query::Padded),
        3 => keywords.prop_map(Query::Keywords),
        1 => odd.prop_map(Query::Odd),
        1 => text().prop_map(Query::Odd),
    ]
    .boxed()
}

fn call_plan() -> BoxedStrategy<CallPlan> {
    let route = prop_oneof![
        3 => Just(Route::Through),
        2 => Just(Route::Direct),
        1 => select(ODD_ROUTES),
    ];
    let args = prop_oneof![
        3 => any::<u64>().prop_map(ArgsPlan::Fitting),
        2 => args().prop_map(ArgsPlan::Given),
    ];
    // Calls aim mostly at declared tools, so many get past `call.unknown`.
    let target = prop_oneof![
        4 => any::<usize>().prop_map(Target::Tool),
        1 => target(),
    ];
    (select(CALL_IDS), route, target, args)
        .prop_map(|(id, route, target, args)| CallPlan {
            id: id.to_string(),
            route,
            target,
            args,
        })
        .boxed()
}

/// A `tool_defs` op's provider: absent (the default, `anthropic`) as often
/// as named, and each of the three names alike.
pub(super) const PROVIDERS: &[Option<Provider>] = &[
    None,
    None,
    None,
    Some(Provider::Anthropic),
    Some(Provider::OpenAiChat),
    Some(Provider::OpenAiResponses),
];

fn provider() -> BoxedStrategy<Option<Provider>> {
    select(PROVIDERS).boxed()
}

fn mode() -> BoxedStrategy<Mode> {
    select(&Mode::ALL[..]).boxed()
}

/// One request after `start`.
pub fn request() -> BoxedStrategy<Request> {
    prop_oneof![
        2 => Just(Request::Render),
        1 => provider().prop_map(Request::ToolDefs),
        1 => Just(Request::Pins),
        1 => Just(Request::Digests),
        4 => query().prop_map(Request::Describe),
        1 => target().prop_map(Request::Expand),
        5 => call_plan().prop_map(Request::Call),
        1 => mode().prop_map(Request::SwitchMode),
        1 => decl().prop_map(Request::Admit),
    ]
    .boxed()
}

fn fault() -> BoxedStrategy<Option<FaultPlan>> {
    let fault = select(FAULTS);
    prop_oneof![
        9 => Just(None),
        1 => (fault, any::<usize>()).prop_map(|(fault, at)| Some(FaultPlan { fault, at })),
    ]
    .boxed()
}

fn layout() -> BoxedStrategy<Layout> {
    (
        prop_oneof![7 => Just(false), 1 => Just(true)],
        prop_oneof![5 => Just(None), 1 => any::<usize>().prop_map(Some)],
        prop_oneof![5 => Just(true), 1 => Just(false)],
    )
        .prop_map(|(crlf, blank_after, final_newline)| Layout {
            crlf,
            blank_after,
            final_newline,
        })
        .boxed()
}

/// A whole session: up to 6 declarations (one in fifteen a bulk of 8–39
/// tools), perhaps a dev line, a start in either mode and perhaps as a
/// child, up to 9 requests, and one fault in ten.
pub fn session_plan() -> BoxedStrategy<SessionPlan> {
    let profile = prop_oneof![
        3 => Just(None),
        1 => select(&Profile::ALL[..]).prop_map(Some),
    ];
    let dev = prop_oneof![4 => Just(None), 1 => text().prop_map(Some)];
    let about = select(ABOUTS).prop_map(str::to_string);
    // Empty catalogs are one case, not one in seven.
    let decls = prop_oneof![1 => Just(Vec::new()), 12 => vec(decl(), 1..7)];
    (
        (about, decls, dev, mode(), profile),
        (
            vec(request(), 0..10),
            fault(),
            layout(),
            any::<u64>(),
            any::<u64>(),
        ),
    )
        .prop_map(
            |((about, decls, dev, mode, profile), (requests, fault, layout, shuffle, spelling))| {
                SessionPlan {
                    about,
                    decls,
                    dev,
                    mode,
                    profile,
                    requests,
                    fault,
                    layout,
                    shuffle,
                    spelling,
                }
            },
        )
        .boxed()
}
