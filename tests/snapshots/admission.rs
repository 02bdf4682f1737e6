//! Admission (SPEC §1–§2): every `admit.*` refusal through the public API,
//! the checks' order, the pattern boundaries, both hash doors, duplicates
//! across doors, collisions by case and by `-`, failing closed on unknown
//! effect and approval words, the generation, and `admit.frozen`.

use disclose::Mode;
use serde_json::json;

use super::{Decl, Op, admissions, carried, catalog, host, ruler, session, shelf, tool};

#[test]
fn origin_pattern_boundaries() {
    // `^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$`: 1 to 32 bytes, inner hyphens
    // only. The 32-byte origin mints a 35-byte name; 33 bytes is refused.
    let decls = [
        tool("a", "x", "X."),
        tool("0", "x", "X."),
        tool("a-b", "x", "X."),
        tool(&ruler(32), "x", "X."),
        tool(&ruler(33), "x", "X."),
        tool("-a", "x", "X."),
        tool("a-", "x", "X."),
        tool("A", "x", "X."),
        tool("a_b", "x", "X."),
        tool("", "x", "X."),
        tool("é", "x", "X."),
    ];
    insta::assert_snapshot!(admissions(&decls), @r#"
    admitted tool a__x (effect read, approval never)
    admitted tool 0__x (effect read, approval never)
    admitted tool a-b__x (effect read, approval never)
    admitted tool a123456789b123456789c123456789d1__x (effect read, approval never)
    refused E_INVALID_ARGS admit.origin: origin "a123456789b123456789c123456789d12" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "-a" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "a-" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "A" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "a_b" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.origin: origin "é" is not lowercase letters, digits and inner hyphens
    generation 4
    "#);
}

#[test]
fn name_pattern_boundaries_64_and_65_bytes() {
    // The minted name must match `^[A-Za-z0-9_-]{1,64}$`. Host: the raw name
    // itself, 64 bytes admitted, 65 refused. Origin `o`: `o__` + 61 = 64
    // admitted, `o__` + 62 = 65 refused. Skills keep their names.
    let decls = [
        host(&ruler(64), "X."),
        host(&ruler(65), "X."),
        tool("o", &ruler(61), "X."),
        tool("o", &ruler(62), "X."),
        shelf(&ruler(65), "X.", "a"),
        shelf("", "X.", "a"),
        host("", "X."),
        host("a.b", "X."),
        host("has space", "X."),
        host("é", "X."),
        carried("Z-9_ok", "X.", "b"),
    ];
    assert_eq!(format!("o__{}", ruler(61)).len(), 64);
    insta::assert_snapshot!(admissions(&decls), @r#"
    admitted tool a123456789b123456789c123456789d123456789e123456789f123456789g123 (effect read, approval never)
    refused E_INVALID_ARGS admit.name: "a123456789b123456789c123456789d123456789e123456789f123456789g1234" is not 1 to 64 of A-Z a-z 0-9 _ -
    admitted tool o__a123456789b123456789c123456789d123456789e123456789f123456789g (effect read, approval never)
    refused E_INVALID_ARGS admit.name: "o__a123456789b123456789c123456789d123456789e123456789f123456789g1" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "a123456789b123456789c123456789d123456789e123456789f123456789g1234" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "a.b" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "has space" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.name: "é" is not 1 to 64 of A-Z a-z 0-9 _ -
    admitted skill Z-9_ok (carried)
    generation 3
    "#);
}

#[test]
fn reserved_names_and_empty_disclosures() {
    // `describe` and `call` are reserved at either door; `x__describe` is
    // another name. A blank description or disclosure (trimmed by Unicode
    // White_Space, so U+00A0 counts) is refused; U+0001 is not whitespace.
    let decls = [
        host("describe", "D."),
        host("call", "C."),
        shelf("call", "C.", "a"),
        carried("describe", "D.", "b"),
        tool("x", "describe", "D."),
        host("blank", "  \n\t "),
        shelf("blank", "", "a"),
        carried("blank", "\u{a0}", "b"),
        tool("x", "blank", "\r\n"),
        host("ctl", "\u{1}"),
    ];
    insta::assert_snapshot!(admissions(&decls), @r#"
    refused E_INVALID_ARGS admit.reserved: "describe" is reserved for the catalog's own door
    refused E_INVALID_ARGS admit.reserved: "call" is reserved for the catalog's own door
    refused E_INVALID_ARGS admit.reserved: "call" is reserved for the catalog's own door
    refused E_INVALID_ARGS admit.reserved: "describe" is reserved for the catalog's own door
    admitted tool x__describe (effect read, approval never)
    refused E_INVALID_ARGS admit.disclosure: "blank" has an empty disclosure
    refused E_INVALID_ARGS admit.disclosure: "blank" has an empty disclosure
    refused E_INVALID_ARGS admit.disclosure: "blank" has an empty disclosure
    refused E_INVALID_ARGS admit.disclosure: "x__blank" has an empty disclosure
    admitted tool ctl (effect read, approval never)
    generation 2
    "#);
}

#[test]
fn schema_must_be_an_object_valid_under_draft_2020_12() {
    // A boolean schema is valid JSON Schema but not an object. `$ref` to a
    // URL is meta-valid and is never fetched.
    let decls = [
        host("arr", "A.").schema(json!([])),
        host("boolean", "B.").schema(json!(true)),
        host("text", "T.").schema(json!("object")),
        host("badtype", "B.").schema(json!({"type": "strung"})),
        host("negmin", "N.").schema(json!({"type": "object", "minProperties": -1})),
        host("reqstr", "R.").schema(json!({"required": "x"})),
        host("remote", "R.").schema(json!({"$ref": "https://example.com/schema.json"})),
        host("empty", "E.").schema(json!({})),
    ];
    insta::assert_snapshot!(admissions(&decls), @r#"
    refused E_INVALID_ARGS admit.schema: "arr" has an input schema that is not a valid JSON Schema object: it is not a JSON object
    refused E_INVALID_ARGS admit.schema: "boolean" has an input schema that is not a valid JSON Schema object: it is not a JSON object
    refused E_INVALID_ARGS admit.schema: "text" has an input schema that is not a valid JSON Schema object: it is not a JSON object
    refused E_INVALID_ARGS admit.schema: "badtype" has an input schema that is not a valid JSON Schema object: it breaks the draft 2020-12 meta-schema
    refused E_INVALID_ARGS admit.schema: "negmin" has an input schema that is not a valid JSON Schema object: it breaks the draft 2020-12 meta-schema
    refused E_INVALID_ARGS admit.schema: "reqstr" has an input schema that is not a valid JSON Schema object: it breaks the draft 2020-12 meta-schema
    admitted tool remote (effect read, approval never)
    admitted tool empty (effect read, approval never)
    generation 2
    "#);
}

#[test]
fn hash_checks_at_both_doors() {
    // Carried: a declared hash must equal BLAKE3 of the body (here
    // af1349b9…, BLAKE3 of the empty body, declared for a non-empty one; and
    // the right hash in uppercase differs too). Shelf: only the form is
    // checked, 64 lowercase hex.
    let body_hash = blake3::hash(b"body").to_hex().to_string();
    let empty_hash = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
    let decls = [
        carried("c_ok", "C.", "body").hash(&body_hash),
        carried("c_empty", "C.", "").hash(empty_hash),
        carried("c_bad", "C.", "body").hash(empty_hash),
        carried("c_upper", "C.", "body").hash(&body_hash.to_uppercase()),
        shelf("s_ok", "S.", "a").hash(&"ab".repeat(32)),
        shelf("s_upper", "S.", "a").hash(&"AB".repeat(32)),
        shelf("s_short", "S.", "a").hash(&"a".repeat(63)),
        shelf("s_long", "S.", "a").hash(&"a".repeat(65)),
        shelf("s_g", "S.", "a").hash(&"g".repeat(64)),
        shelf("s_empty", "S.", "a").hash(""),
    ];
    let out = admissions(&decls);
    assert!(out.contains(&body_hash.to_uppercase()));
    insta::assert_snapshot!(out, @r#"
    admitted skill c_ok (carried)
    admitted skill c_empty (carried)
    refused E_INVALID_ARGS admit.hash: "c_bad" declares hash af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262 but the body hashes to a different BLAKE3
    refused E_INVALID_ARGS admit.hash: "c_upper" declares hash 0BE9C598AE63835518E7FB422DC3027F452D75F3DBDB94C90D843298B1180AD9 but the body hashes to a different BLAKE3
    admitted skill s_ok (shelf)
    refused E_INVALID_ARGS admit.hash: "s_upper" declares hash ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB but it is not 64 lowercase hex digits
    refused E_INVALID_ARGS admit.hash: "s_short" declares hash aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa but it is not 64 lowercase hex digits
    refused E_INVALID_ARGS admit.hash: "s_long" declares hash aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa but it is not 64 lowercase hex digits
    refused E_INVALID_ARGS admit.hash: "s_g" declares hash gggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg but it is not 64 lowercase hex digits
    refused E_INVALID_ARGS admit.hash: "s_empty" declares hash  but it is not 64 lowercase hex digits
    generation 3
    "#);
}

#[test]
fn duplicates_across_doors_and_collisions_by_case_and_hyphen() {
    // Duplicate: the same minted name, whichever door (`github__search`
    // minted from origin `github` and declared raw by `host` is one name).
    // Collision: the same key (ASCII lowercased, `-` as `_`), naming the
    // holder; the build's own doors hold keys too.
    let decls = [
        tool("github", "search", "S."),
        host("github__search", "S."),
        shelf("github__search", "S.", "a"),
        shelf("notes", "N.", "a"),
        carried("notes", "N.", "b"),
        host("notes", "N."),
        host("search_a", "S."),
        host("Search_A", "S."),
        host("search-a", "S."),
        shelf("SEARCH-A", "S.", "a"),
        tool("x", "a-b", "A."),
        tool("x", "A_b", "A."),
        carried("NOTES", "N.", "b"),
        host("Describe", "D."),
        carried("CALL", "C.", "b"),
    ];
    insta::assert_snapshot!(admissions(&decls), @r#"
    admitted tool github__search (effect read, approval never)
    refused E_INVALID_ARGS admit.duplicate: "github__search" is already admitted as a tool
    refused E_INVALID_ARGS admit.duplicate: "github__search" is already admitted as a tool
    admitted skill notes (shelf)
    refused E_INVALID_ARGS admit.duplicate: "notes" is already admitted as a skill
    refused E_INVALID_ARGS admit.duplicate: "notes" is already admitted as a skill
    admitted tool search_a (effect read, approval never)
    refused E_INVALID_ARGS admit.collision: "Search_A" collides with "search_a" after provider normalization
    refused E_INVALID_ARGS admit.collision: "search-a" collides with "search_a" after provider normalization
    refused E_INVALID_ARGS admit.collision: "SEARCH-A" collides with "search_a" after provider normalization
    admitted tool x__a-b (effect read, approval never)
    refused E_INVALID_ARGS admit.collision: "x__A_b" collides with "x__a-b" after provider normalization
    refused E_INVALID_ARGS admit.collision: "NOTES" collides with "notes" after provider normalization
    refused E_INVALID_ARGS admit.collision: "Describe" collides with "describe" after provider normalization
    refused E_INVALID_ARGS admit.collision: "CALL" collides with "call" after provider normalization
    generation 4
    "#);
}

#[test]
fn the_first_failing_check_is_the_answer() {
    // SPEC §2's order: origin (2) before name (3) before reserved (4) before
    // disclosure (5) before schema (6) before hash (7, 8) before duplicate
    // (9) before collision (10).
    let decls = [
        host("held", "H."),
        shelf("s1", "S.", "a"),
        tool("Bad", &ruler(70), "").schema(json!([])),
        host(&ruler(65), "").schema(json!([])),
        host("describe", "").schema(json!([])),
        host("held", " ").schema(json!([])),
        host("held", "H.").schema(json!([])),
        carried("s1", "", "b").hash("bad"),
        carried("s1", "S.", "b").hash(&"0".repeat(64)),
        shelf("S1", "S.", "a").hash("XYZ"),
        shelf("held", "S.", "a"),
    ];
    insta::assert_snapshot!(admissions(&decls), @r#"
    admitted tool held (effect read, approval never)
    admitted skill s1 (shelf)
    refused E_INVALID_ARGS admit.origin: origin "Bad" is not lowercase letters, digits and inner hyphens
    refused E_INVALID_ARGS admit.name: "a123456789b123456789c123456789d123456789e123456789f123456789g1234" is not 1 to 64 of A-Z a-z 0-9 _ -
    refused E_INVALID_ARGS admit.reserved: "describe" is reserved for the catalog's own door
    refused E_INVALID_ARGS admit.disclosure: "held" has an empty disclosure
    refused E_INVALID_ARGS admit.schema: "held" has an input schema that is not a valid JSON Schema object: it is not a JSON object
    refused E_INVALID_ARGS admit.disclosure: "s1" has an empty disclosure
    refused E_INVALID_ARGS admit.hash: "s1" declares hash 0000000000000000000000000000000000000000000000000000000000000000 but the body hashes to a different BLAKE3
    refused E_INVALID_ARGS admit.hash: "S1" declares hash XYZ but it is not 64 lowercase hex digits
    refused E_INVALID_ARGS admit.duplicate: "held" is already admitted as a tool
    generation 2
    "#);
}

#[test]
fn unknown_effect_and_approval_words_fail_closed() {
    // Effect: absent or any word but the four → irreversible (the words are
    // exact: `READ` is unknown). Approval: absent or any word but `never` →
    // required.
    let e = |name: &str, word: Option<&str>| host(name, "E.").effect(word);
    let a = |name: &str, word: Option<&str>| host(name, "A.").approval(word);
    let decls = [
        e("e_absent", None),
        e("e_read", Some("read")),
        e("e_idem", Some("idempotent-write")),
        e("e_rev", Some("reversible")),
        e("e_irrev", Some("irreversible")),
        e("e_upper", Some("READ")),
        e("e_write", Some("write")),
        e("e_empty", Some("")),
        a("a_absent", None),
        a("a_never", Some("never")),
        a("a_required", Some("required")),
        a("a_upper", Some("Never")),
        a("a_no", Some("no")),
        a("a_empty", Some("")),
    ];
    insta::assert_snapshot!(admissions(&decls), @r"
    admitted tool e_absent (effect irreversible, approval never)
    admitted tool e_read (effect read, approval never)
    admitted tool e_idem (effect idempotent-write, approval never)
    admitted tool e_rev (effect reversible, approval never)
    admitted tool e_irrev (effect irreversible, approval never)
    admitted tool e_upper (effect irreversible, approval never)
    admitted tool e_write (effect irreversible, approval never)
    admitted tool e_empty (effect irreversible, approval never)
    admitted tool a_absent (effect read, approval required)
    admitted tool a_never (effect read, approval never)
    admitted tool a_required (effect read, approval required)
    admitted tool a_upper (effect read, approval required)
    admitted tool a_no (effect read, approval required)
    admitted tool a_empty (effect read, approval required)
    generation 14
    ");
}

#[test]
fn admission_after_start_is_frozen_and_changes_nothing() {
    // Check 1 comes first: even a declaration that would fail another check
    // is answered `admit.frozen`, naming the minted name.
    let mut run = catalog(&[tool("x", "y", "Why.")]).start(Mode::Chat);
    let before = session(&mut run, &[Op::Render, Op::ToolDefs, Op::Digests]);
    let generation = run.generation();
    let late = [
        tool("alpha", "late", "L."),
        tool("BAD ORIGIN", "x", ""),
        shelf("late_skill", "L.", "a"),
        carried("late_card", "L.", "b"),
        host("describe", "D."),
    ];
    let mut out = String::new();
    for decl in &late {
        let refusal = match decl {
            Decl::Tool(d) => run.admit_tool(d),
            Decl::Shelf(d) => run.admit_skill(d),
            Decl::Carried(d) => run.admit_carried_skill(d),
        };
        out.push_str(&refusal.to_lines());
    }
    assert_eq!(run.generation(), generation);
    assert_eq!(
        session(&mut run, &[Op::Render, Op::ToolDefs, Op::Digests]),
        before
    );
    insta::assert_snapshot!(format!("{out}generation {generation}\n"), @r#"
    refused E_INVALID_ARGS admit.frozen: the run has started; "alpha__late" was not admitted
    refused E_INVALID_ARGS admit.frozen: the run has started; "BAD ORIGIN__x" was not admitted
    refused E_INVALID_ARGS admit.frozen: the run has started; "late_skill" was not admitted
    refused E_INVALID_ARGS admit.frozen: the run has started; "late_card" was not admitted
    refused E_INVALID_ARGS admit.frozen: the run has started; "describe" was not admitted
    generation 1
    "#);
}
