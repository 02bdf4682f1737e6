//! Snapshot tests of every output format of the catalog, on small
//! catalogs built through the public API only.
//!
//! Every test goes through one helper of this file: [`check`] (a parent run),
//! [`check_child`] (a child run) or [`admissions`] (admission answers), each
//! turning a compact list of declarations and ops into one text, framed so the
//! exact bytes are visible (see [`frame`]). The expected texts are inline
//! snapshots written from docs/spec.md and read against it byte by byte; where a
//! boundary is pinned, the arithmetic is in a comment and the length is also
//! asserted outright, because insta trims trailing whitespace when it
//! compares.
//!
//! This is the root of the `snapshots` test target; its modules sit beside
//! it in `tests/snapshots/`, one per output format.

mod admission;
mod calls;
mod child;
mod describe;
mod index;
mod prompt;
mod refusals;
mod skills;

use disclose::internals::canonical::canonical;
use disclose::{
    Approval, CarriedSkill, Catalog, Effect, Mode, Profile, Refusal, Run, ShelfSkill, ToolCall,
    ToolDecl,
};
use serde_json::{Value, json};

/// One declaration of a catalog under test.
#[derive(Clone, Debug)]
pub enum Decl {
    /// A tool.
    Tool(ToolDecl),
    /// A skill through the shelf door.
    Shelf(ShelfSkill),
    /// A skill through the carried door.
    Carried(CarriedSkill),
}

/// A tool with a permissive schema that every child profile is offered
/// (effect `read`, approval `never`) unless a modifier says otherwise.
pub fn tool(origin: &str, name: &str, description: &str) -> Decl {
    Decl::Tool(ToolDecl {
        origin: origin.to_string(),
        name: name.to_string(),
        description: description.to_string(),
        input_schema: json!({"type": "object"}).into(),
        effect: Effect::Read,
        approval: Approval::Never,
    })
}

/// A tool of the build itself (origin `host`, raw name kept).
pub fn host(name: &str, description: &str) -> Decl {
    tool("host", name, description)
}

/// A shelf skill without a hash or package.
pub fn shelf(name: &str, disclosure: &str, address: &str) -> Decl {
    Decl::Shelf(ShelfSkill {
        name: name.to_string(),
        disclosure: disclosure.to_string(),
        address: address.to_string(),
        hash: None,
        package: None,
    })
}

/// A carried skill without a declared hash or package.
pub fn carried(name: &str, disclosure: &str, body: &str) -> Decl {
    Decl::Carried(CarriedSkill {
        name: name.to_string(),
        disclosure: disclosure.to_string(),
        body: body.to_string(),
        hash: None,
        package: None,
    })
}

impl Decl {
    /// The declared effect word (`None`: absent), mapped as a session
    /// maps it (SPEC §1: absent or unknown fails closed).
    pub fn effect(mut self, word: Option<&str>) -> Decl {
        if let Decl::Tool(t) = &mut self {
            t.effect = Effect::from_declared(word);
        }
        self
    }

    /// The declared approval word (`None`: absent), mapped as a session
    /// maps it.
    pub fn approval(mut self, word: Option<&str>) -> Decl {
        if let Decl::Tool(t) = &mut self {
            t.approval = Approval::from_declared(word);
        }
        self
    }

    /// The input schema.
    pub fn schema(mut self, schema: Value) -> Decl {
        if let Decl::Tool(t) = &mut self {
            t.input_schema = schema.into();
        }
        self
    }

    /// The declared hash of a skill.
    pub fn hash(mut self, hash: &str) -> Decl {
        match &mut self {
            Decl::Shelf(s) => s.hash = Some(hash.to_string()),
            Decl::Carried(s) => s.hash = Some(hash.to_string()),
            Decl::Tool(_) => {}
        }
        self
    }
}

/// Admits one declaration: a one-line summary of what was admitted, or the
/// refusal's lines.
pub fn admit(catalog: &mut Catalog, decl: &Decl) -> String {
    let answer = match decl {
        Decl::Tool(d) => catalog.admit_tool(d).map(|t| {
            format!(
                "admitted tool {} (effect {}, approval {})\n",
                t.name(),
                t.effect(),
                t.approval()
            )
        }),
        Decl::Shelf(d) => catalog
            .admit_skill(d)
            .map(|s| format!("admitted skill {} (shelf)\n", s.name())),
        Decl::Carried(d) => catalog
            .admit_carried_skill(d)
            .map(|s| format!("admitted skill {} (carried)\n", s.name())),
    };
    answer.unwrap_or_else(|refusal| refusal.to_lines())
}

/// The admission helper: every declaration's answer, in order, then the
/// generation the catalog reached.
pub fn admissions(decls: &[Decl]) -> String {
    let mut catalog = Catalog::new();
    let mut out = String::new();
    for decl in decls {
        out.push_str(&admit(&mut catalog, decl));
    }
    out.push_str(&format!("generation {}\n", catalog.generation()));
    out
}

/// A catalog of `decls`, every one of which must be admitted (a refusal here
/// is a broken test setup, reported with its line).
pub fn catalog(decls: &[Decl]) -> Catalog {
    let mut catalog = Catalog::new();
    for decl in decls {
        let answer = admit(&mut catalog, decl);
        assert!(answer.starts_with("admitted "), "setup refused: {answer}");
    }
    catalog
}

/// One op on a started run.
#[derive(Clone, Debug)]
pub enum Op {
    /// `render()`.
    Render,
    /// `tool_defs()`, one canonical object per line.
    ToolDefs,
    /// `describe(query)`.
    Describe(String),
    /// `call(ToolCall { id, name, args })`.
    Call(String, String, Value),
    /// `expand(name)`.
    Expand(String),
    /// `skill_pins()`.
    Pins,
    /// `digests()`.
    Digests,
    /// `switch_mode(mode)`.
    Switch(Mode),
}

/// `describe(query)`.
pub fn describe(query: &str) -> Op {
    Op::Describe(query.to_string())
}

/// A call of `name` with `args`, id `c1`.
pub fn call(name: &str, args: Value) -> Op {
    Op::Call("c1".to_string(), name.to_string(), args)
}

/// A call through the `call` door: `call {"name": target, "args": args}`.
pub fn call_through(target: &str, args: Value) -> Op {
    call("call", json!({"name": target, "args": args}))
}

/// `expand(name)`.
pub fn expand(name: &str) -> Op {
    Op::Expand(name.to_string())
}

/// One op's output, or the refusal's lines.
fn output(run: &mut Run, op: &Op) -> (String, String) {
    fn answer(result: Result<String, Refusal>) -> String {
        result.unwrap_or_else(|refusal| refusal.to_lines())
    }
    match op {
        Op::Render => ("render".into(), run.render()),
        Op::ToolDefs => (
            "tool_defs".into(),
            run.tool_defs()
                .iter()
                .map(|d| format!("{}\n", d.canonical()))
                .collect(),
        ),
        Op::Describe(q) => (format!("describe {}", quoted(q)), answer(run.describe(q))),
        Op::Call(id, name, args) => {
            let asked = ToolCall {
                id: id.clone(),
                name: name.clone(),
                args: args.clone(),
            };
            let routed = run
                .call(&asked)
                .map(|c| format!("routed {} {} {}\n", c.id, c.name, canonical(&c.args)));
            (format!("call {name} {}", canonical(args)), answer(routed))
        }
        Op::Expand(name) => (format!("expand {}", quoted(name)), answer(run.expand(name))),
        Op::Pins => (
            "pins".into(),
            run.skill_pins()
                .iter()
                .map(|p| format!("{} {}\n", p.name, p.hash))
                .collect(),
        ),
        Op::Digests => (
            "digests".into(),
            run.digests()
                .iter()
                .map(|(name, digest)| format!("{name} {digest}\n"))
                .collect(),
        ),
        Op::Switch(mode) => (format!("switch_mode {mode}"), run.switch_mode(*mode)),
    }
}

/// An input as a label shows it: Rust's `{:?}`, and past 40 chars only
/// the first 20 and the input's length in bytes.
fn quoted(input: &str) -> String {
    if input.chars().count() <= 40 {
        format!("{input:?}")
    } else {
        let head: String = input.chars().take(20).collect();
        format!("{head:?}… [{} bytes]", input.len())
    }
}

/// Frames one output so its exact bytes show in a snapshot: a `>>>` line
/// with the op and the output's length in bytes, then the output. An output
/// that does not end with `\n` says so, since insta trims the end.
pub fn frame(label: &str, out: &str) -> String {
    let mut framed = format!(">>> {label} ({} bytes)\n{out}", out.len());
    if !out.is_empty() && !out.ends_with('\n') {
        framed.push_str("\n[no newline at end]\n");
    }
    framed
}

/// Runs `ops` on `run`, framing each output.
pub fn session(run: &mut Run, ops: &[Op]) -> String {
    ops.iter()
        .map(|op| {
            let (label, out) = output(run, op);
            frame(&label, &out)
        })
        .collect()
}

/// The check helper of a parent run: admit `decls`, start in `mode`, run
/// `ops`.
pub fn check(decls: &[Decl], mode: Mode, ops: &[Op]) -> String {
    session(&mut catalog(decls).start(mode), ops)
}

/// The check helper of a child run with `profile`.
pub fn check_child(decls: &[Decl], mode: Mode, profile: Profile, ops: &[Op]) -> String {
    session(&mut catalog(decls).start_child(mode, profile), ops)
}

/// An 80-byte ruler: each block of ten starts with a letter, so a byte
/// position can be read off (`a` at 0, `b` at 10, … `h` at 70).
pub fn ruler(len: usize) -> String {
    let mut out = String::new();
    for i in 0..len {
        if i % 10 == 0 {
            out.push(char::from(b'a' + u8::try_from(i / 10 % 26).unwrap_or(0)));
        } else {
            out.push(char::from(b'0' + u8::try_from(i % 10).unwrap_or(0)));
        }
    }
    out
}

#[test]
fn ruler_reads_by_position() {
    assert_eq!(ruler(12), "a123456789b1");
    assert_eq!(ruler(80).len(), 80);
}
