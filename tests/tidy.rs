//! Tidy: checks of the tree itself, in the manner of rust-analyzer's
//! `tidy.rs`. Each test walks files of the repository and fails with one
//! `file:line:column: what is wrong` line for every violation:
//!
//! - every Rust module under `src/`, `crates/`, `fuzz/fuzz_targets/`, and the
//!   top-level files of `benches/`, `examples/` and `tests/`, opens with a
//!   `//!` doc comment;
//! - every Markdown link in `README.md`, `ARCHITECTURE.md` and `docs/**/*.md`
//!   to a relative path names a file or folder that exists, and none leaves
//!   the repository (an absolute path, or `..` past the root); `http(s)` and
//!   `mailto` links are not checked;
//! - every `disclose <subcommand>` and `cargo run … -- <subcommand>` in a
//!   README code block names a subcommand the binary lists in `--help`, and
//!   every `script/X` the README names is an executable file;
//! - every entry of `docs/decisions.md` carries its status on the line under
//!   its heading: `*Status: accepted.*`, or `*Status: superseded by "…".*`
//!   (or `superseded in part by`) naming the exact heading of a newer entry;
//! - no two types declared `pub` (or `pub(crate)`, `pub(super)`) in `src/`
//!   and `crates/` share a name, so a name found in a message, a doc or a
//!   grep means one thing (two listed exceptions, the test kit's model of
//!   the rules it mirrors by name);
//! - the README's CI recipe resolves no gateway crate (`cargo tree`);
//! - no README or doc installs a bare `disclose` (`pip install`, `npm
//!   install`, `npx`, `cargo add`, …), a name that is someone else's.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use walkdir::WalkDir;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The path of `path` relative to the repository, `/`-separated, for messages.
fn shown(path: &Path) -> String {
    let relative = path.strip_prefix(root()).unwrap_or(path);
    relative.to_string_lossy().replace('\\', "/")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", shown(path)))
}

/// Fails with every violation, one a line, under a heading that says which
/// rule they break.
fn assert_none(rule: &str, violations: &[String]) {
    if violations.is_empty() {
        return;
    }
    let mut message = format!("{} violation(s) of: {rule}\n", violations.len());
    for violation in violations {
        let _ = writeln!(message, "  {violation}");
    }
    panic!("{message}");
}

/// Files ending in `.rs` under `dir` (relative to the root): every depth
/// when `deep`, else only the folder's own files. Sorted, so the messages
/// come in a stable order.
fn rust_files(dir: &str, deep: bool) -> Vec<PathBuf> {
    let base = root().join(dir);
    let walk = WalkDir::new(&base).max_depth(if deep { usize::MAX } else { 1 });
    let mut files: Vec<PathBuf> = walk
        .into_iter()
        .map(|entry| entry.unwrap_or_else(|e| panic!("walking {dir}: {e}")))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| entry.into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    files.sort();
    files
}

/// `None` if the text's first non-blank line is a `//!` comment, else the
/// 1-based line that should have been one.
fn missing_module_doc(text: &str) -> Option<usize> {
    match text
        .lines()
        .enumerate()
        .find(|(_, line)| !line.trim().is_empty())
    {
        Some((_, line)) if line.trim_start().starts_with("//!") => None,
        Some((index, _)) => Some(index + 1),
        None => Some(1),
    }
}

#[test]
fn every_module_opens_with_a_doc_comment() {
    let mut files = rust_files("src", true);
    files.extend(rust_files("crates", true));
    files.extend(rust_files("fuzz/fuzz_targets", true));
    for dir in ["benches", "examples", "tests"] {
        files.extend(rust_files(dir, false));
    }
    assert!(
        files.len() > 40,
        "the walk found only {} Rust files: is the root right?",
        files.len()
    );
    let violations: Vec<String> = files
        .iter()
        .filter_map(|path| {
            missing_module_doc(&read(path)).map(|line| {
                format!(
                    "{}:{line}:1: the module has no leading `//!` doc comment saying what it is for",
                    shown(path)
                )
            })
        })
        .collect();
    assert_none("every module opens with a `//!` doc comment", &violations);
}

/// One line of a Markdown file outside its fenced code blocks, with inline
/// code spans blanked out (so a `](x)` in code is not read as a link).
struct ProseLine {
    number: usize,
    text: String,
}

/// Whether a line opens or closes a fenced code block, and its info string.
fn fence(line: &str) -> Option<&str> {
    let trimmed = line.trim_start();
    ["```", "~~~"]
        .iter()
        .find(|marker| trimmed.starts_with(**marker))
        .map(|marker| {
            trimmed
                .trim_start_matches(marker.chars().next().unwrap_or('`'))
                .trim()
        })
}

/// Blanks every inline code span, keeping the columns of what is left.
fn blank_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else if in_code {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

fn prose_lines(text: &str) -> Vec<ProseLine> {
    let mut lines = Vec::new();
    let mut in_block = false;
    for (index, line) in text.lines().enumerate() {
        if fence(line).is_some() {
            in_block = !in_block;
            continue;
        }
        if !in_block {
            lines.push(ProseLine {
                number: index + 1,
                text: blank_code_spans(line),
            });
        }
    }
    lines
}

/// The link targets of one line, each with its 1-based byte column: inline
/// links `[text](target "title")` and reference definitions `[x]: target`.
fn link_targets(line: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("](") {
        let start = from + at + 2;
        let rest = &line[start..];
        let end = rest.find(')').unwrap_or(rest.len());
        let inside = rest[..end].trim();
        let target = inside
            .strip_prefix('<')
            .and_then(|t| t.split_once('>').map(|(t, _)| t))
            .unwrap_or_else(|| inside.split_whitespace().next().unwrap_or(""));
        targets.push((start + 1, target.to_owned()));
        from = start + end;
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
    {
        let after = &trimmed[close + 2..];
        if let Some(target) = after.split_whitespace().next() {
            let column = line.len() - trimmed.len() + close + 2 + after.find(target).unwrap_or(0);
            targets.push((column + 1, target.to_owned()));
        }
    }
    targets
}

/// What is wrong with a link target in `file`, if anything.
fn bad_link(file: &Path, target: &str) -> Option<String> {
    let lower = target.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        return None;
    }
    let path = target.split('#').next().unwrap_or("");
    if path.is_empty() {
        return None; // an anchor in the same page
    }
    if path.contains("://") {
        return Some(format!(
            "`{target}` uses a scheme other than http(s) or mailto"
        ));
    }
    if path.starts_with('/') {
        return Some(format!(
            "`{target}` is an absolute path, which leaves the repository; link relative to the file"
        ));
    }
    let dir = file.parent().unwrap_or(root());
    let from_root = dir.strip_prefix(root()).unwrap_or(Path::new(""));
    let mut parts: Vec<String> = from_root
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for component in Path::new(path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Some(format!("`{target}` leaves the repository"));
                }
            }
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::RootDir | Component::Prefix(_) => {
                return Some(format!("`{target}` leaves the repository"));
            }
        }
    }
    let resolved = parts
        .iter()
        .fold(root().to_path_buf(), |p, part| p.join(part));
    if resolved.exists() {
        None
    } else {
        Some(format!(
            "`{target}` names `{}`, which does not exist",
            parts.join("/")
        ))
    }
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = WalkDir::new(root().join("docs"))
        .into_iter()
        .map(|entry| entry.unwrap_or_else(|e| panic!("walking docs: {e}")))
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| entry.into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_markdown_link_stays_in_the_repository_and_resolves() {
    let files = markdown_files();
    assert!(files.len() > 5, "found only {} Markdown files", files.len());
    let mut checked = 0;
    let mut violations = Vec::new();
    for file in &files {
        for line in prose_lines(&read(file)) {
            for (column, target) in link_targets(&line.text) {
                checked += 1;
                if let Some(wrong) = bad_link(file, &target) {
                    violations.push(format!("{}:{}:{column}: {wrong}", shown(file), line.number));
                }
            }
        }
    }
    assert!(
        checked > 10,
        "found only {checked} links: is the parser right?"
    );
    assert_none(
        "every relative Markdown link names a path in the repository",
        &violations,
    );
}

/// The subcommands `disclose --help` lists.
fn subcommands() -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_disclose"))
        .arg("--help")
        .output()
        .expect("run disclose --help");
    assert!(output.status.success(), "disclose --help failed");
    let help = String::from_utf8(output.stdout).expect("--help is UTF-8");
    let mut names: Vec<String> = help
        .lines()
        .skip_while(|line| line.trim() != "Commands:")
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect();
    names.sort();
    assert!(
        names.len() >= 5 && names.iter().any(|n| n == "check"),
        "could not read the subcommands from --help:\n{help}"
    );
    names
}

/// A word of a command line without the quotes and brackets around it.
fn bare(word: &str) -> &str {
    word.trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '(' | ')' | ';'))
}

/// The subcommands a code line runs, each with its 1-based column:
/// the word after `disclose` (or a path ending in `/disclose`), and the word
/// after the `--` of a `cargo run`.
fn commands_in(line: &str) -> Vec<(usize, String)> {
    let words: Vec<(usize, &str)> = line
        .split_whitespace()
        .map(|word| (word.as_ptr() as usize - line.as_ptr() as usize, word))
        .collect();
    let mut found = Vec::new();
    let is_subcommand = |w: &str| w.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    for (i, (_, word)) in words.iter().enumerate() {
        let program = bare(word);
        if (program == "disclose" || program.ends_with("/disclose"))
            && let Some((column, next)) = words.get(i + 1)
            && is_subcommand(bare(next))
        {
            found.push((column + 1, bare(next).to_owned()));
        }
        if bare(word) == "cargo" && words.get(i + 1).is_some_and(|(_, w)| *w == "run") {
            let rest = &words[i + 2..];
            if let Some(dashes) = rest.iter().position(|(_, w)| *w == "--")
                && let Some((column, next)) = rest.get(dashes + 1)
                && is_subcommand(bare(next))
            {
                found.push((column + 1, bare(next).to_owned()));
            }
        }
    }
    found
}

/// The `script/X` names in a line, each with its 1-based column.
fn scripts_in(line: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("script/") {
        let start = from + at;
        let before = line[..start].chars().next_back();
        let name: String = line[start + "script/".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
            .collect();
        let name = name.trim_end_matches('.').to_owned();
        if !name.is_empty() && !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '/') {
            found.push((start + 1, format!("script/{name}")));
        }
        from = start + "script/".len();
    }
    found
}

fn is_executable_file(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

#[test]
fn every_command_the_readme_runs_exists() {
    let readme_path = root().join("README.md");
    let readme = read(&readme_path);
    let known = subcommands();
    let mut violations = Vec::new();
    let mut commands = 0;
    let mut in_block = false;
    for (index, line) in readme.lines().enumerate() {
        let number = index + 1;
        if fence(line).is_some() {
            in_block = !in_block;
            continue;
        }
        if in_block {
            for (column, name) in commands_in(line) {
                commands += 1;
                if known.binary_search(&name).is_err() {
                    violations.push(format!(
                        "README.md:{number}:{column}: `{name}` is not a subcommand of disclose (it has: {})",
                        known.join(", ")
                    ));
                }
            }
        }
        for (column, script) in scripts_in(line) {
            if !is_executable_file(&root().join(&script)) {
                violations.push(format!(
                    "README.md:{number}:{column}: `{script}` is not an executable file in the repository"
                ));
            }
        }
    }
    assert!(
        commands > 10,
        "found only {commands} commands in the README's code blocks"
    );
    assert_none("every command the README runs exists", &violations);
}

/// What is wrong with the status lines of a decisions file, one message per
/// entry, each with its line.
fn bad_statuses(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let headings: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| line.strip_prefix("## ").map(|h| (i, h)))
        .collect();
    let mut wrong = Vec::new();
    for &(at, heading) in &headings {
        let status = lines[at + 1..]
            .iter()
            .enumerate()
            .find(|(_, line)| !line.trim().is_empty())
            .map(|(i, line)| (at + 1 + i, *line));
        let Some((number, line)) = status else {
            wrong.push((at + 1, format!("\"{heading}\" has no status line")));
            continue;
        };
        if line == "*Status: accepted.*" {
            continue;
        }
        let named = line
            .strip_prefix("*Status: superseded by \"")
            .or_else(|| line.strip_prefix("*Status: superseded in part by \""))
            .and_then(|rest| rest.strip_suffix("\".*"));
        let Some(named) = named else {
            wrong.push((
                number + 1,
                format!(
                    "\"{heading}\": the line under the heading must be `*Status: accepted.*` or \
                     `*Status: superseded [in part ]by \"<heading>\".*`, not `{line}`"
                ),
            ));
            continue;
        };
        match headings.iter().find(|(_, h)| *h == named) {
            Some(&(newer, _)) if newer > at => {}
            Some(_) => wrong.push((
                number + 1,
                format!("\"{heading}\" is superseded by \"{named}\", which is not a newer entry"),
            )),
            None => wrong.push((
                number + 1,
                format!(
                    "\"{heading}\" is superseded by \"{named}\", which is no heading of the file"
                ),
            )),
        }
    }
    wrong
}

#[test]
fn every_decision_carries_its_status() {
    let path = root().join("docs/decisions.md");
    let text = read(&path);
    assert!(text.lines().filter(|l| l.starts_with("## ")).count() > 50);
    let violations: Vec<String> = bad_statuses(&text)
        .into_iter()
        .map(|(line, wrong)| format!("docs/decisions.md:{line}:1: {wrong}"))
        .collect();
    assert_none("every decision carries its status", &violations);
}

#[test]
fn the_readers_find_what_they_should() {
    let decisions = "## A\n\n*Status: superseded by \"B\".*\n\n## B\n*Status: accepted.*\n\
                     ## C\n\ntext\n## D\n*Status: superseded in part by \"A\".*\n\
                     ## E\n*Status: superseded by \"Z\".*\n";
    let lines: Vec<usize> = bad_statuses(decisions)
        .into_iter()
        .map(|(l, _)| l)
        .collect();
    assert_eq!(lines, vec![9, 11, 13]);
    assert_eq!(missing_module_doc("\n//! Doc.\nfn f() {}\n"), None);
    assert_eq!(missing_module_doc("// not a doc\n//! Doc.\n"), Some(1));
    assert_eq!(missing_module_doc("\n\nuse x;\n"), Some(3));
    assert_eq!(
        link_targets("see [a](docs/x.md#y) and [b](<c d.md>)"),
        vec![(9, "docs/x.md#y".to_owned()), (30, "c d.md".to_owned())]
    );
    assert_eq!(
        link_targets(&blank_code_spans("`[c](no.md)` [d](e.md \"t\")")),
        vec![(18, "e.md".to_owned())]
    );
    assert_eq!(
        link_targets("[ref]: ../x.md"),
        vec![(8, "../x.md".to_owned())]
    );
    let readme = root().join("README.md");
    assert!(bad_link(&readme, "../outside.md").is_some());
    assert!(bad_link(&readme, "/etc/passwd").is_some());
    assert!(bad_link(&readme, "docs/missing.md").is_some());
    assert_eq!(bad_link(&readme, "docs/spec.md#5-describe"), None);
    assert_eq!(bad_link(&root().join("docs/spec.md"), "../README.md"), None);
    assert!(bad_link(&root().join("docs/spec.md"), "../../x").is_some());
    assert_eq!(bad_link(&readme, "https://example.com/x"), None);
    assert_eq!(
        commands_in(
            r#"cargo run --release --features m -- fuzz --impl "target/release/disclose serve""#
        ),
        vec![(37, "fuzz".to_owned()), (74, "serve".to_owned())]
    );
    assert_eq!(commands_in("disclose = { path = \"..\" }"), vec![]);
    assert_eq!(commands_in("cargo run --example agent_loop"), vec![]);
    assert_eq!(
        scripts_in("run script/bench, not .ci/script/x or script/."),
        vec![(5, "script/bench".to_owned())]
    );
}

/// The types declared `pub`, `pub(crate)` or `pub(super)` in one file's
/// text, each with its 1-based line: `struct`, `enum`, `type`, `trait` and
/// `union` items.
fn public_types(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix("pub") else {
            continue;
        };
        let rest = match rest.strip_prefix('(') {
            Some(scoped) => match scoped.split_once(')') {
                Some((_, after)) => after,
                None => continue,
            },
            None => rest,
        };
        let mut words = rest.split_whitespace();
        if !matches!(
            words.next(),
            Some("struct" | "enum" | "type" | "trait" | "union")
        ) {
            continue;
        }
        let name: String = words
            .next()
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            found.push((index + 1, name));
        }
    }
    found
}

/// Names two public types may share: the test kit's readable model of
/// SPEC §4 and §5 (`crates/testkit/src/model/`) names its types
/// after the library's types it mirrors.
const SHARED_ON_PURPOSE: [&str; 2] = ["Candidate", "Packed"];

#[test]
fn no_two_public_types_share_a_name() {
    let mut files = rust_files("src", true);
    files.extend(rust_files("crates", true));
    let mut seen: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for path in &files {
        for (line, name) in public_types(&read(path)) {
            seen.entry(name)
                .or_default()
                .push(format!("{}:{line}", shown(path)));
        }
    }
    assert!(seen.len() > 50, "found only {} public types", seen.len());
    let violations: Vec<String> = seen
        .iter()
        .filter(|(name, places)| places.len() > 1 && !SHARED_ON_PURPOSE.contains(&name.as_str()))
        .map(|(name, places)| {
            format!(
                "{}:1: `{name}` is declared {} times: {}",
                places[0],
                places.len(),
                places.join(", ")
            )
        })
        .collect();
    assert_none("no two public types share a name", &violations);
    assert_eq!(
        public_types(
            "pub struct A;\n    pub(crate) enum B<'a> {\npub(super) type C = u8;\npub fn d() {}\n    type E = u8;\n"
        ),
        vec![
            (1, "A".to_owned()),
            (2, "B".to_owned()),
            (3, "C".to_owned())
        ]
    );
}

/// The README's CI recipe builds the gate alone: cargo, given the recipe's
/// own package selection and features, resolves no gateway crate. At the
/// workspace's root without `-p`, the bindings (default members that take
/// the binary with its default features) would turn the gateway back on.
#[test]
fn the_readme_s_ci_recipe_builds_the_gate_alone() {
    let readme = read(&root().join("README.md"));
    let recipe = readme
        .lines()
        .find(|l| l.starts_with("cargo run") && l.contains("--no-default-features"))
        .expect("README.md: the CI recipe, a `cargo run … --no-default-features` line");
    let (cargo_args, _) = recipe.split_once(" -- ").expect("the recipe's `--`");
    // Its package selection and features, as `cargo tree` takes them.
    let selection: Vec<&str> = cargo_args
        .split_whitespace()
        .skip(2)
        .filter(|arg| *arg != "--release")
        .collect();
    let out = Command::new(env!("CARGO"))
        .current_dir(root())
        .args(["tree", "-e", "normal", "--prefix", "none"])
        .args(&selection)
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree {selection:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let tree = String::from_utf8_lossy(&out.stdout);
    let gateway: Vec<&str> = tree
        .lines()
        .filter(|l| {
            l.starts_with("disclose-mcp ") || l.starts_with("rmcp ") || l.starts_with("tokio ")
        })
        .collect();
    assert!(
        gateway.is_empty(),
        "README.md: `{recipe}` builds the gateway ({gateway:?})"
    );
}

/// The installing commands that reach a registry by name, each with the
/// words before the package's name (`npx -y` too).
const INSTALLERS: &[&str] = &[
    "pip install",
    "pip3 install",
    "uv add",
    "uv tool install",
    "uv pip install",
    "uvx",
    "pipx run",
    "pipx install",
    "npm install",
    "npm i",
    "npm add",
    "npx",
    "npx -y",
    "yarn add",
    "pnpm add",
    "cargo add",
    "cargo install",
    "cargo binstall",
];

/// The place in `line` of each installing command whose package is a bare
/// `disclose`: a name that is someone else's on PyPI, npm and the Cargo
/// registry (ours are `disclose-catalog` and `disclose-cli`).
fn strangers_installed(line: &str) -> Vec<usize> {
    let words: Vec<(usize, &str)> = line
        .split_whitespace()
        .map(|word| (word.as_ptr() as usize - line.as_ptr() as usize, word))
        .collect();
    let mut found = Vec::new();
    for (i, (column, _)) in words.iter().enumerate() {
        for installer in INSTALLERS {
            let parts: Vec<&str> = installer.split(' ').collect();
            let Some(after) = words.get(i + parts.len()) else {
                continue;
            };
            let matches = parts
                .iter()
                .enumerate()
                .all(|(k, part)| bare(words[i + k].1) == *part);
            if matches && bare(after.1) == "disclose" {
                found.push(column + 1);
            }
        }
    }
    found
}

/// No README or doc tells a user to install a name that is not ours
/// (issue 47): `pip install disclose` installs a 2014 test utility, `npm
/// install disclose` a ZeroMQ event source, `cargo add disclose` an
/// attribute macro.
#[test]
fn no_doc_installs_a_name_that_is_not_ours() {
    let mut files = markdown_files();
    for dir in ["crates", "bindings"] {
        for entry in WalkDir::new(root().join(dir)).max_depth(2) {
            let path = entry.expect("walking the packages").into_path();
            if path.file_name().is_some_and(|name| name == "README.md") {
                files.push(path);
            }
        }
    }
    let mut violations = Vec::new();
    for file in &files {
        for (number, line) in read(file).lines().enumerate() {
            for column in strangers_installed(line) {
                violations.push(format!(
                    "{}:{}:{column}: installs `disclose`, which is someone else's (ours: disclose-catalog, disclose-cli)",
                    shown(file),
                    number + 1
                ));
            }
        }
    }
    assert_none("no doc installs a name that is not ours", &violations);
}

#[test]
fn the_installers_reader_finds_strangers_only() {
    assert_eq!(strangers_installed("pip install disclose"), [1]);
    assert_eq!(strangers_installed("run `npx -y disclose check`"), [5]);
    assert_eq!(strangers_installed("then cargo add disclose;"), [6]);
    for ours in [
        "pip install disclose-catalog",
        "npx -y disclose-catalog check",
        "cargo install --locked disclose-cli",
        "cargo binstall disclose-cli",
        "pip install disclosed",
        "the disclose command",
    ] {
        assert_eq!(strangers_installed(ours), Vec::<usize>::new(), "{ours}");
    }
}
