//! A whole session as a typed plan, and its JSONL text (SPEC §11) with at
//! most one deliberate fault whose line the plan knows.

use serde_json::{Value, json};

use super::decl::{Decl, Declared};
use super::schema::fitting_args;
use disclose::Provider;
use disclose::internals::naming::{mint, name_is_valid, origin_is_valid};
use disclose::{Approval, Effect, ToolDecl};
use disclose::{Mode, Profile};

/// How a request names a capability.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The name of the plan's declaration `i % len` (a literal `nope<i>`
    /// when there are none).
    Declared(usize),
    /// The minted name of the plan's tool `i % tools` (counting each tool
    /// of a bulk declaration; `nope<i>` when there are none).
    Tool(usize),
    /// A literal name.
    Named(String),
}

/// A `describe` query.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// Exactly a name.
    Exact(Target),
    /// A name with whitespace around it (trimmed before matching).
    Padded(Target),
    /// Keywords.
    Keywords(String),
    /// A query refused `describe.query` (or 256 bytes, just allowed).
    Odd(String),
}

/// How a call reaches its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// Named directly.
    Direct,
    /// Through `call`, well shaped.
    Through,
    /// Through `call` with outer args that are not an object.
    NotObject,
    /// Through `call` without `name`.
    MissingName,
    /// Through `call` without `args`.
    MissingArgs,
    /// Through `call` with a `name` that is not a string.
    NameNotString,
    /// `call` calling `call`.
    Itself,
}

/// A call's inner args.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgsPlan {
    /// Built by [`fitting_args`] for the target's schema with this salt.
    Fitting(u64),
    /// Given as is.
    Given(Value),
}

/// A `call` op.
#[derive(Clone, Debug, PartialEq)]
pub struct CallPlan {
    /// The call id.
    pub id: String,
    /// How it reaches the target.
    pub route: Route,
    /// The target.
    pub target: Target,
    /// The inner args.
    pub args: ArgsPlan,
}

/// One op after `start`.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `render`.
    Render,
    /// `tool_defs`, naming a provider or not (SPEC §11: absent is
    /// `anthropic`).
    ToolDefs(Option<Provider>),
    /// `pins`.
    Pins,
    /// `digests`.
    Digests,
    /// `describe`.
    Describe(Query),
    /// `expand`.
    Expand(Target),
    /// `call`.
    Call(CallPlan),
    /// `switch_mode`.
    SwitchMode(Mode),
    /// A declaration after start (refused `admit.frozen`).
    Admit(Decl),
}

/// A deliberate malformation (SPEC §11): the session must be reported
/// malformed at the plan's [`SessionPlan::fault_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A line that is not JSON.
    BadJson,
    /// A JSON line that is not an object.
    NotObject,
    /// An object without `op`.
    NoOp,
    /// An unknown op.
    UnknownOp,
    /// A missing field.
    MissingField,
    /// A mistyped field.
    MistypedField,
    /// A field the op does not take.
    UnknownField,
    /// An optional field set to `null`.
    NullOptional,
    /// `switch_mode` to a mode that does not exist.
    BadMode,
    /// `start` with a profile that does not exist.
    BadProfile,
    /// A second header.
    HeaderTwice,
    /// A query op before `start`.
    QueryBeforeStart,
    /// A second `start`.
    SecondStart,
    /// `dev` after `start`.
    DevAfterStart,
    /// A header of another format.
    BadFormat,
    /// No header.
    NoHeader,
    /// Nothing but blank lines.
    Empty,
}

/// A fault and where it goes (`at`, modulo the places it may go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaultPlan {
    /// The malformation.
    pub fault: Fault,
    /// Where, modulo the legal positions.
    pub at: usize,
}

/// How the lines are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `\r\n` line ends.
    pub crlf: bool,
    /// A whitespace-only line after op `k % n` (never before the header).
    pub blank_after: Option<usize>,
    /// Whether the last line ends with a line break.
    pub final_newline: bool,
}

/// A whole generated session: declarations, an optional dev line, the
/// start, requests, perhaps one fault, and a layout.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionPlan {
    /// The header's `about`.
    pub about: String,
    /// Declarations before `start`.
    pub decls: Vec<Decl>,
    /// The dev line, if any.
    pub dev: Option<String>,
    /// The run-start mode.
    pub mode: Mode,
    /// The child profile, if any.
    pub profile: Option<Profile>,
    /// Ops after `start`.
    pub requests: Vec<Request>,
    /// A deliberate malformation, if any.
    pub fault: Option<FaultPlan>,
    /// Line layout.
    pub layout: Layout,
    /// A seed for order-independence checks (which permutation to try).
    pub shuffle: u64,
    /// How each tool declaration spells its effect and approval: 0 writes
    /// the mapped words; otherwise tool `k` takes one of the words its
    /// class is read from (absent, the class's word, or an unknown word
    /// that fails closed to it), picked by this seed and `k`.
    pub spelling: u64,
}

/// One line of a plan's text, before layout.
struct Line {
    text: String,
    is_fault: bool,
}

/// What requests may name, computed once per rendering: each declaration's
/// name and schema, and the pool of tools a [`Target::Tool`] picks from.
struct Names<'a> {
    decls: Vec<(String, Option<&'a Value>)>,
    tools: Vec<(String, &'a Value)>,
}

impl<'a> Names<'a> {
    /// The pool is the declared tools that look admissible (valid origin
    /// and name, not a door, a description, not `admitted: false`), or
    /// every declared tool when none does.
    fn of(decls: &'a [Decl]) -> Names<'a> {
        let mut plausible = Vec::new();
        let mut all = Vec::new();
        for decl in decls {
            match decl {
                Decl::Tool { decl, admitted } => {
                    let name = mint(&decl.origin, &decl.name);
                    let looks_admissible = *admitted != Some(false)
                        && origin_is_valid(&decl.origin)
                        && name_is_valid(&name)
                        && name != disclose::DESCRIBE
                        && name != disclose::CALL
                        && !decl.description.trim().is_empty();
                    if looks_admissible {
                        plausible.push((name.clone(), decl.input_schema.as_ref()));
                    }
                    all.push((name, decl.input_schema.as_ref()));
                }
                Decl::Bulk {
                    origin,
                    stem,
                    count,
                    schema,
                    ..
                } => {
                    for k in 0..*count {
                        plausible.push((mint(origin, &format!("{stem}{k}")), schema));
                    }
                }
                Decl::Shelf(_) | Decl::Carried(_) => {}
            }
        }
        Names {
            decls: decls.iter().map(|d| (d.name(), d.schema())).collect(),
            tools: if plausible.is_empty() { all } else { plausible },
        }
    }

    /// The name `target` stands for, and the schema of what it names.
    fn resolve(&self, target: &Target) -> (String, Option<&'a Value>) {
        let pick = |i: &usize, len: usize| i.checked_rem(len);
        match target {
            Target::Named(name) => {
                let schema = self.decls.iter().find(|(n, _)| n == name).and_then(|d| d.1);
                (name.clone(), schema)
            }
            Target::Declared(i) => {
                match pick(i, self.decls.len()).and_then(|k| self.decls.get(k)) {
                    Some((name, schema)) => (name.clone(), *schema),
                    None => (format!("nope{i}"), None),
                }
            }
            Target::Tool(i) => match pick(i, self.tools.len()).and_then(|k| self.tools.get(k)) {
                Some((name, schema)) => (name.clone(), Some(*schema)),
                None => (format!("nope{i}"), None),
            },
        }
    }
}

impl SessionPlan {
    /// The name `target` stands for in this plan.
    pub fn resolve(&self, target: &Target) -> String {
        Names::of(&self.decls).resolve(target).0
    }

    fn request_op(&self, names: &Names<'_>, request: &Request) -> Vec<Value> {
        let one = |op: Value| vec![op];
        match request {
            Request::Render => one(json!({ "op": "render" })),
            Request::ToolDefs(None) => one(json!({ "op": "tool_defs" })),
            Request::ToolDefs(Some(provider)) => {
                one(json!({ "op": "tool_defs", "provider": provider.as_str() }))
            }
            Request::Pins => one(json!({ "op": "pins" })),
            Request::Digests => one(json!({ "op": "digests" })),
            Request::SwitchMode(mode) => one(json!({ "op": "switch_mode", "mode": mode.as_str() })),
            Request::Expand(target) => {
                one(json!({ "op": "expand", "name": names.resolve(target).0 }))
            }
            Request::Describe(query) => {
                let name = match query {
                    Query::Exact(target) => names.resolve(target).0,
                    Query::Padded(target) => format!("  {}\t", names.resolve(target).0),
                    Query::Keywords(words) | Query::Odd(words) => words.clone(),
                };
                one(json!({ "op": "describe", "name": name }))
            }
            Request::Call(call) => one(Self::call_op(names, call)),
            Request::Admit(decl) => decl.expand().iter().map(Declared::op).collect(),
        }
    }

    fn call_op(names: &Names<'_>, call: &CallPlan) -> Value {
        let (target, schema) = names.resolve(&call.target);
        let args = match &call.args {
            ArgsPlan::Given(value) => value.clone(),
            ArgsPlan::Fitting(salt) => {
                schema.map_or_else(|| json!({}), |schema| fitting_args(schema, *salt))
            }
        };
        let (name, args) = match call.route {
            Route::Direct => (target, args),
            Route::Through => ("call".to_string(), json!({ "name": target, "args": args })),
            Route::NotObject => ("call".to_string(), json!([target])),
            Route::MissingName => ("call".to_string(), json!({ "args": args })),
            Route::MissingArgs => ("call".to_string(), json!({ "name": target })),
            Route::NameNotString => ("call".to_string(), json!({ "name": 7, "args": args })),
            Route::Itself => ("call".to_string(), json!({ "name": "call", "args": {} })),
        };
        json!({ "op": "call", "id": call.id, "name": name, "args": args })
    }

    /// The op lines without layout: the header, declarations, dev, start,
    /// requests, and the fault placed where it belongs. Written as JSON
    /// text directly (keys in byte order, as `serde_json` writes a map),
    /// not through `Value`s.
    fn lines(&self) -> Vec<Line> {
        let line = |text: String| Line {
            text,
            is_fault: false,
        };
        let mut head = vec![line(format!(
            "{{\"about\":{},\"format\":1,\"op\":\"session\"}}",
            quoted(&self.about)
        ))];
        let mut tools = 0u64;
        let mut before: Vec<Line> = Vec::new();
        for decl in &self.decls {
            for text in self.decl_lines(decl, &mut tools) {
                before.push(line(text));
            }
        }
        if let Some(dev) = &self.dev {
            before.push(line(format!("{{\"op\":\"dev\",\"text\":{}}}", quoted(dev))));
        }
        let start = line(match self.profile {
            None => format!("{{\"mode\":\"{}\",\"op\":\"start\"}}", self.mode.as_str()),
            Some(profile) => format!(
                "{{\"mode\":\"{}\",\"op\":\"start\",\"profile\":\"{}\"}}",
                self.mode.as_str(),
                profile.as_str()
            ),
        });
        let names = Names::of(&self.decls);
        let mut after: Vec<Line> = Vec::new();
        for request in &self.requests {
            match request {
                Request::Admit(decl) => {
                    for text in self.decl_lines(decl, &mut tools) {
                        after.push(line(text));
                    }
                }
                other => {
                    for op in self.request_op(&names, other) {
                        after.push(line(disclose::internals::canonical::canonical(&op)));
                    }
                }
            }
        }

        let Some(FaultPlan { fault, at }) = self.fault else {
            head.extend(before);
            head.push(start);
            head.extend(after);
            return head;
        };
        let bad = |text: &str| Line {
            text: text.to_string(),
            is_fault: true,
        };
        match fault {
            Fault::Empty => return Vec::new(),
            Fault::NoHeader => {
                // The first line is now a declaration or `start`: the fault.
                before.push(start);
                before.extend(after);
                if let Some(first) = before.first_mut() {
                    first.is_fault = true;
                }
                return before;
            }
            Fault::BadFormat => {
                head[0] = bad(r#"{"op":"session","format":2,"about":"x"}"#);
            }
            Fault::QueryBeforeStart => {
                before.insert(at % (before.len() + 1), bad(r#"{"op":"render"}"#));
            }
            Fault::SecondStart | Fault::DevAfterStart => {
                let text = if fault == Fault::SecondStart {
                    r#"{"op":"start","mode":"work"}"#
                } else {
                    r#"{"op":"dev","text":"late"}"#
                };
                after.insert(at % (after.len() + 1), bad(text));
            }
            _ => {
                let text = match fault {
                    Fault::BadJson => r#"{"op":"render","#,
                    Fault::NotObject => r#"["op","render"]"#,
                    Fault::NoOp => r#"{"name":"x"}"#,
                    Fault::UnknownOp => r#"{"op":"frobnicate"}"#,
                    Fault::MissingField => r#"{"op":"expand"}"#,
                    Fault::MistypedField => r#"{"op":"describe","name":3}"#,
                    Fault::UnknownField => r#"{"op":"pins","extra":1}"#,
                    Fault::NullOptional => {
                        r#"{"op":"tool","origin":"host","name":"n","description":"d","input_schema":{},"effect":null}"#
                    }
                    Fault::BadMode => r#"{"op":"switch_mode","mode":"Work"}"#,
                    Fault::BadProfile => r#"{"op":"start","mode":"chat","profile":"boss"}"#,
                    _ => r#"{"op":"session","format":1,"about":"again"}"#,
                };
                let total = before.len() + 1 + after.len();
                let at = at % (total + 1);
                if at <= before.len() {
                    before.insert(at, bad(text));
                } else {
                    after.insert((at - before.len() - 1).min(after.len()), bad(text));
                }
            }
        }
        head.extend(before);
        head.push(start);
        head.extend(after);
        head
    }

    /// The op lines of one declaration; `tools` counts the tool lines
    /// written so far (each tool's spelling depends on its place).
    fn decl_lines(&self, decl: &Decl, tools: &mut u64) -> Vec<String> {
        let mut spell = || {
            let pick = spelling(self.spelling, *tools);
            *tools += 1;
            pick
        };
        match decl {
            Decl::Tool { decl, admitted } => vec![ToolLine::of(decl).write(*admitted, spell())],
            Decl::Shelf(skill) => vec![disclose::internals::canonical::canonical(
                &Declared::Shelf(skill.clone()).op(),
            )],
            Decl::Carried(skill) => vec![disclose::internals::canonical::canonical(
                &Declared::Carried(skill.clone()).op(),
            )],
            Decl::Bulk {
                origin,
                stem,
                count,
                description,
                schema,
            } => (0..*count)
                .map(|i| {
                    let decl = ToolLine {
                        origin,
                        name: &format!("{stem}{i}"),
                        description,
                        schema,
                        effect: Effect::Read,
                        approval: Approval::Never,
                    };
                    decl.write(None, spell())
                })
                .collect(),
        }
    }

    /// The session as JSONL text, laid out, and the 1-based line of its
    /// fault (if it has one).
    pub fn render(&self) -> (String, Option<usize>) {
        let lines = self.lines();
        let end = if self.layout.crlf { "\r\n" } else { "\n" };
        let blank_after = self
            .layout
            .blank_after
            .filter(|_| !lines.is_empty())
            .map(|k| k % lines.len());
        let mut text = String::new();
        let mut number = 0;
        let mut fault_line = None;
        for (i, line) in lines.iter().enumerate() {
            number += 1;
            if line.is_fault {
                fault_line = Some(number);
            }
            text.push_str(&line.text);
            if i + 1 < lines.len() || self.layout.final_newline {
                text.push_str(end);
            }
            if blank_after == Some(i) && i + 1 < lines.len() {
                number += 1;
                text.push_str(" \t");
                text.push_str(end);
            }
        }
        if matches!(
            self.fault,
            Some(FaultPlan {
                fault: Fault::Empty,
                ..
            })
        ) {
            return (format!(" {end}{end}"), Some(1));
        }
        (text, fault_line)
    }

    /// The session as JSONL text.
    pub fn to_text(&self) -> String {
        self.render().0
    }

    /// The line the fault is on, when the plan has one.
    pub fn fault_line(&self) -> Option<usize> {
        self.render().1
    }

    /// Every declaration op before `start`, in order.
    pub fn declared(&self) -> Vec<Declared> {
        self.decls.iter().flat_map(Decl::expand).collect()
    }

    /// Smaller or plainer plans to try when this one fails a check, the
    /// biggest cuts first: no requests or no declarations, either half of
    /// them, each one left out; a bulk declaration with half its tools;
    /// the dev line, the child profile, the fault, the layout's quirks, the
    /// spellings and the shuffle back to their plainest; each text cut to
    /// three quarters; given args emptied. The fuzz driver keeps the first
    /// candidate that still fails the same check and asks again (a greedy
    /// descent, only ever run on a failure).
    pub fn shrunk(&self) -> Vec<SessionPlan> {
        let mut out = Vec::new();
        let with = |change: &dyn Fn(&mut SessionPlan)| {
            let mut plan = self.clone();
            change(&mut plan);
            plan
        };
        for (from, to) in cuts(self.requests.len()) {
            out.push(with(&|p| {
                p.requests.drain(from..to);
            }));
        }
        for (from, to) in cuts(self.decls.len()) {
            out.push(with(&|p| {
                p.decls.drain(from..to);
            }));
        }
        for (k, decl) in self.decls.iter().enumerate() {
            if let Decl::Bulk { count, .. } = decl
                && *count > 1
            {
                out.push(with(&|p| {
                    if let Some(Decl::Bulk { count, .. }) = p.decls.get_mut(k) {
                        *count /= 2;
                    }
                }));
            }
        }
        if self.dev.is_some() {
            out.push(with(&|p| p.dev = None));
        }
        if self.profile.is_some() {
            out.push(with(&|p| p.profile = None));
        }
        if self.fault.is_some() {
            out.push(with(&|p| p.fault = None));
        }
        let plain = Layout {
            crlf: false,
            blank_after: None,
            final_newline: true,
        };
        if self.layout != plain {
            out.push(with(&|p| p.layout = plain));
        }
        if self.spelling != 0 {
            out.push(with(&|p| p.spelling = 0));
        }
        if self.shuffle != 0 {
            out.push(with(&|p| p.shuffle = 0));
        }
        for k in 0..self.decls.len() {
            let cut = with(&|p| {
                if let Some(text) = p.decls.get_mut(k).and_then(Decl::text_mut) {
                    *text = three_quarters(text);
                }
            });
            if cut != *self {
                out.push(cut);
            }
        }
        for k in 0..self.requests.len() {
            if let Request::Call(CallPlan {
                args: ArgsPlan::Given(args),
                ..
            }) = &self.requests[k]
                && *args != json!({})
            {
                out.push(with(&|p| {
                    if let Some(Request::Call(call)) = p.requests.get_mut(k) {
                        call.args = ArgsPlan::Given(json!({}));
                    }
                }));
            }
        }
        out
    }

    /// The same plan without its `admitted: false` declarations (SPEC §13
    /// I4), before and after `start`.
    pub fn without_unadmitted(&self) -> SessionPlan {
        let unadmitted = |d: &Decl| {
            matches!(
                d,
                Decl::Tool {
                    admitted: Some(false),
                    ..
                }
            )
        };
        SessionPlan {
            decls: self
                .decls
                .iter()
                .filter(|d| !unadmitted(d))
                .cloned()
                .collect(),
            requests: self
                .requests
                .iter()
                .filter(|r| !matches!(r, Request::Admit(d) if unadmitted(d)))
                .cloned()
                .collect(),
            ..self.clone()
        }
    }
}

/// Which spelling tool `k` of a plan whose spelling seed is `seed` takes:
/// 0, the mapped words, when the seed is 0.
fn spelling(seed: u64, k: u64) -> u64 {
    if seed == 0 {
        return 0;
    }
    // SplitMix64's finalizer over the seed and the place.
    let mut z = seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `s` as a JSON string literal.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    disclose::internals::canonical::write_string(&mut out, s);
    out
}

/// What a `tool` op line is written from.
pub(super) struct ToolLine<'a> {
    pub(super) origin: &'a str,
    pub(super) name: &'a str,
    pub(super) description: &'a str,
    pub(super) schema: &'a Value,
    pub(super) effect: Effect,
    pub(super) approval: Approval,
}

impl<'a> ToolLine<'a> {
    pub(super) fn of(decl: &'a ToolDecl) -> ToolLine<'a> {
        ToolLine {
            origin: &decl.origin,
            name: &decl.name,
            description: &decl.description,
            schema: &decl.input_schema,
            effect: decl.effect,
            approval: decl.approval,
        }
    }

    /// The op line: keys in byte order, the effect and approval spelled as
    /// `pick` says (see [`SessionPlan::spelling`]).
    pub(super) fn write(&self, admitted: Option<bool>, pick: u64) -> String {
        use disclose::internals::canonical::{write_string, write_value};
        let effect = super::decl::effect_spelling(self.effect, pick);
        let approval = super::decl::approval_spelling(self.approval, pick >> 32);
        let mut out = String::with_capacity(128);
        out.push('{');
        if let Some(admitted) = admitted {
            out.push_str(if admitted {
                "\"admitted\":true,"
            } else {
                "\"admitted\":false,"
            });
        }
        if let Some(word) = approval {
            out.push_str("\"approval\":");
            write_string(&mut out, word);
            out.push(',');
        }
        out.push_str("\"description\":");
        write_string(&mut out, self.description);
        if let Some(word) = effect {
            out.push_str(",\"effect\":");
            write_string(&mut out, word);
        }
        out.push_str(",\"input_schema\":");
        write_value(&mut out, self.schema);
        out.push_str(",\"name\":");
        write_string(&mut out, self.name);
        out.push_str(",\"op\":\"tool\",\"origin\":");
        write_string(&mut out, self.origin);
        out.push('}');
        out
    }
}

/// The ranges to leave out of a list of `len` items, biggest first: all of
/// it, either half, each item.
fn cuts(len: usize) -> Vec<(usize, usize)> {
    let mut cuts = Vec::new();
    if len > 0 {
        cuts.push((0, len));
    }
    if len > 2 {
        cuts.push((0, len / 2));
        cuts.push((len / 2, len));
    }
    if len > 1 {
        cuts.extend((0..len).map(|k| (k, k + 1)));
    }
    cuts
}

/// The first three quarters of `text`'s chars (nothing of one char).
fn three_quarters(text: &str) -> String {
    let chars = text.chars().count();
    text.chars().take(chars * 3 / 4).collect()
}
