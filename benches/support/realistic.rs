//! Deterministic generator of realistic catalogs and sessions
//! (docs/performance.md),
//! shared by the benches (`#[path]`-included) and `examples/gen_corpus.rs`.
//!
//! Shapes follow real MCP servers: a handful of host tools, then 3–4
//! servers (GitHub, Jira, Slack, Postgres, Sentry, Notion, Kubernetes, a
//! filesystem) whose tools are verb × noun with real-looking JSON Schemas.
//! A session declares ~50 tools and a few skills, starts, and makes ~20
//! requests: render, tool_defs, describes (exact and keyword), calls that fit
//! and calls that do not, a mode switch, and the prefix again after it.
//! Everything comes from a seeded SplitMix64: the same seed gives the same
//! bytes on every machine. It writes nothing itself; callers own the I/O.

// Each includer uses a different part of this file (the example only
// sessions, the benches also declarations and `fit` cases).
#![allow(dead_code)]

use disclose::{Approval, Effect, ToolDecl};
use serde_json::{Map, Value, json};

/// The fuzzer's seeded SplitMix64 (`disclose_testkit::generate::draw::Rng`: the same
/// bits on every platform), with the draws this generator makes.
pub struct Rng(disclose_testkit::generate::draw::Rng);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(disclose_testkit::generate::draw::Rng::new(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// One declared parameter of a tool's input schema.
#[derive(Clone, Copy)]
struct Param {
    name: &'static str,
    ty: &'static str,
    about: &'static str,
}

const fn p(name: &'static str, ty: &'static str, about: &'static str) -> Param {
    Param { name, ty, about }
}

/// A thing a server manages, with the fields that create or update it.
struct Noun {
    one: &'static str,
    many: &'static str,
    id: Param,
    fields: &'static [Param],
    note: &'static str,
}

/// An MCP server: its origin, what it calls its scope, and its nouns.
struct Server {
    origin: &'static str,
    product: &'static str,
    scope: &'static str,
    common: &'static [Param],
    nouns: &'static [Noun],
}

const PAGE: Param = p("page", "integer", "Page number of the results, from 1.");
const PER_PAGE: Param = p("per_page", "integer", "Results per page (max 100).");
const QUERY: Param = p("query", "string", "Search text; supports quoted phrases.");

const SERVERS: &[Server] = &[
    Server {
        origin: "github",
        product: "GitHub",
        scope: "a GitHub repository",
        common: &[
            p(
                "owner",
                "string",
                "Repository owner (user or organization).",
            ),
            p("repo", "string", "Repository name."),
        ],
        nouns: &[
            Noun {
                one: "issue",
                many: "issues",
                id: p("issue_number", "integer", "The issue number."),
                fields: &[
                    p("title", "string", "Issue title."),
                    p("body", "string", "Issue body in Markdown."),
                    p("labels", "array", "Label names to apply."),
                    p("assignees", "array", "Logins to assign."),
                ],
                note: "Labels that do not exist yet are created.",
            },
            Noun {
                one: "pull_request",
                many: "pull_requests",
                id: p("pull_number", "integer", "The pull request number."),
                fields: &[
                    p("title", "string", "Pull request title."),
                    p("head", "string", "The branch holding the changes."),
                    p("base", "string", "The branch to merge into."),
                    p("draft", "boolean", "Open it as a draft."),
                ],
                note: "Merging needs the checks on the head commit to pass.",
            },
            Noun {
                one: "branch",
                many: "branches",
                id: p("branch", "string", "The branch name."),
                fields: &[p("from_branch", "string", "Branch to start from.")],
                note: "Protected branches refuse deletion.",
            },
            Noun {
                one: "release",
                many: "releases",
                id: p("release_id", "integer", "The release id."),
                fields: &[
                    p("tag_name", "string", "The tag to release."),
                    p("name", "string", "Release title."),
                    p("prerelease", "boolean", "Mark as a pre-release."),
                ],
                note: "Release notes are generated from merged pull requests.",
            },
            Noun {
                one: "workflow_run",
                many: "workflow_runs",
                id: p("run_id", "integer", "The workflow run id."),
                fields: &[
                    p("workflow_id", "string", "Workflow file name or id."),
                    p("ref", "string", "Git ref to run on."),
                ],
                note: "Logs are kept for 90 days.",
            },
            Noun {
                one: "comment",
                many: "comments",
                id: p("comment_id", "integer", "The comment id."),
                fields: &[
                    p("issue_number", "integer", "Issue or pull request number."),
                    p("body", "string", "Comment text in Markdown."),
                ],
                note: "Mentions notify the people named.",
            },
        ],
    },
    Server {
        origin: "jira",
        product: "Jira",
        scope: "a Jira project",
        common: &[p("project_key", "string", "Project key, such as OPS.")],
        nouns: &[
            Noun {
                one: "ticket",
                many: "tickets",
                id: p("ticket_key", "string", "Ticket key, such as OPS-123."),
                fields: &[
                    p("summary", "string", "One-line summary."),
                    p("description", "string", "Details in Jira markup."),
                    p(
                        "priority",
                        "string",
                        "Highest, High, Medium, Low or Lowest.",
                    ),
                    p("story_points", "number", "Estimate in story points."),
                ],
                note: "Transitions follow the project's workflow.",
            },
            Noun {
                one: "sprint",
                many: "sprints",
                id: p("sprint_id", "integer", "The sprint id."),
                fields: &[
                    p("name", "string", "Sprint name."),
                    p("goal", "string", "Sprint goal."),
                ],
                note: "Only one sprint per board can be active.",
            },
            Noun {
                one: "worklog",
                many: "worklogs",
                id: p("worklog_id", "string", "The worklog id."),
                fields: &[
                    p("time_spent", "string", "Duration such as 3h 20m."),
                    p("comment", "string", "What the time went to."),
                ],
                note: "Time is rounded to minutes.",
            },
            Noun {
                one: "version",
                many: "versions",
                id: p("version_id", "string", "The version id."),
                fields: &[
                    p("name", "string", "Version name."),
                    p("release_date", "string", "ISO 8601 date."),
                    p("released", "boolean", "Whether it shipped."),
                ],
                note: "Releasing a version moves its open tickets.",
            },
        ],
    },
    Server {
        origin: "slack",
        product: "Slack",
        scope: "a Slack workspace",
        common: &[],
        nouns: &[
            Noun {
                one: "message",
                many: "messages",
                id: p("ts", "string", "Message timestamp, its id."),
                fields: &[
                    p("channel", "string", "Channel id or name."),
                    p("text", "string", "Message text in mrkdwn."),
                    p("thread_ts", "string", "Reply in this thread."),
                ],
                note: "Messages over 40,000 characters are truncated.",
            },
            Noun {
                one: "channel",
                many: "channels",
                id: p("channel_id", "string", "The channel id."),
                fields: &[
                    p("name", "string", "Channel name, lowercase."),
                    p("is_private", "boolean", "Create a private channel."),
                ],
                note: "Archived channels are read-only.",
            },
            Noun {
                one: "reaction",
                many: "reactions",
                id: p("name", "string", "Emoji name without colons."),
                fields: &[
                    p("channel", "string", "Channel id."),
                    p("timestamp", "string", "Timestamp of the message."),
                ],
                note: "Each user can react once per emoji.",
            },
            Noun {
                one: "reminder",
                many: "reminders",
                id: p("reminder_id", "string", "The reminder id."),
                fields: &[
                    p("text", "string", "What to be reminded of."),
                    p("time", "string", "When, such as in 15 minutes."),
                ],
                note: "Reminders fire in the user's time zone.",
            },
        ],
    },
    Server {
        origin: "postgres",
        product: "PostgreSQL",
        scope: "the connected PostgreSQL database",
        common: &[p("schema", "string", "Schema name; defaults to public.")],
        nouns: &[
            Noun {
                one: "table",
                many: "tables",
                id: p("table", "string", "Table name."),
                fields: &[
                    p("columns", "array", "Column definitions."),
                    p("if_not_exists", "boolean", "Skip when it exists."),
                ],
                note: "DDL runs in its own transaction.",
            },
            Noun {
                one: "row",
                many: "rows",
                id: p("primary_key", "object", "Primary key columns and values."),
                fields: &[
                    p("table", "string", "Table name."),
                    p("values", "object", "Column values."),
                    p("limit", "integer", "Maximum rows."),
                ],
                note: "Statements time out after 30 seconds.",
            },
            Noun {
                one: "index",
                many: "indexes",
                id: p("index", "string", "Index name."),
                fields: &[
                    p("table", "string", "Table name."),
                    p("columns", "array", "Indexed columns, in order."),
                    p("unique", "boolean", "Build a unique index."),
                ],
                note: "Indexes are built concurrently.",
            },
            Noun {
                one: "view",
                many: "views",
                id: p("view", "string", "View name."),
                fields: &[p("definition", "string", "The SELECT that defines it.")],
                note: "Materialized views are refreshed on demand.",
            },
        ],
    },
    Server {
        origin: "sentry",
        product: "Sentry",
        scope: "a Sentry organization",
        common: &[p("organization_slug", "string", "Organization slug.")],
        nouns: &[
            Noun {
                one: "issue",
                many: "issues",
                id: p("issue_id", "string", "The issue id."),
                fields: &[
                    p("status", "string", "resolved, unresolved or ignored."),
                    p("assigned_to", "string", "User or team."),
                ],
                note: "Resolved issues reopen on a new event.",
            },
            Noun {
                one: "event",
                many: "events",
                id: p("event_id", "string", "The event id."),
                fields: &[
                    p("project_slug", "string", "Project slug."),
                    p("full", "boolean", "Include the stack trace."),
                ],
                note: "Events are kept for 90 days.",
            },
            Noun {
                one: "alert_rule",
                many: "alert_rules",
                id: p("rule_id", "integer", "The rule id."),
                fields: &[
                    p("name", "string", "Rule name."),
                    p("threshold", "number", "Events per minute."),
                    p("environment", "string", "Environment filter."),
                ],
                note: "Rules are evaluated every minute.",
            },
        ],
    },
    Server {
        origin: "notion",
        product: "Notion",
        scope: "a Notion workspace",
        common: &[],
        nouns: &[
            Noun {
                one: "page",
                many: "pages",
                id: p("page_id", "string", "The page id."),
                fields: &[
                    p("parent_id", "string", "Parent page or database."),
                    p("title", "string", "Page title."),
                    p("properties", "object", "Database properties."),
                ],
                note: "Archived pages can be restored for 30 days.",
            },
            Noun {
                one: "database",
                many: "databases",
                id: p("database_id", "string", "The database id."),
                fields: &[
                    p("filter", "object", "A Notion filter object."),
                    p("sorts", "array", "Sort criteria."),
                ],
                note: "Queries return at most 100 results a page.",
            },
            Noun {
                one: "block",
                many: "blocks",
                id: p("block_id", "string", "The block id."),
                fields: &[
                    p("children", "array", "Blocks to append."),
                    p("type", "string", "Block type."),
                ],
                note: "Nesting is limited to two levels per request.",
            },
        ],
    },
    Server {
        origin: "k8s",
        product: "Kubernetes",
        scope: "the current Kubernetes cluster",
        common: &[p("namespace", "string", "Namespace; defaults to default.")],
        nouns: &[
            Noun {
                one: "pod",
                many: "pods",
                id: p("pod", "string", "Pod name."),
                fields: &[
                    p("container", "string", "Container name."),
                    p("tail_lines", "integer", "Log lines from the end."),
                ],
                note: "Deleted pods are recreated by their controller.",
            },
            Noun {
                one: "deployment",
                many: "deployments",
                id: p("deployment", "string", "Deployment name."),
                fields: &[
                    p("image", "string", "Container image with tag."),
                    p("replicas", "integer", "Desired replicas."),
                ],
                note: "Rollouts wait for readiness probes.",
            },
            Noun {
                one: "config_map",
                many: "config_maps",
                id: p("name", "string", "ConfigMap name."),
                fields: &[p("data", "object", "Keys and values.")],
                note: "Pods see changes after a restart.",
            },
            Noun {
                one: "service",
                many: "services",
                id: p("service", "string", "Service name."),
                fields: &[
                    p("port", "integer", "Port to expose."),
                    p("type", "string", "ClusterIP, NodePort or LoadBalancer."),
                ],
                note: "LoadBalancer services may take minutes to get an address.",
            },
        ],
    },
    Server {
        origin: "filesystem",
        product: "the file system",
        scope: "the allowed directories",
        common: &[],
        nouns: &[
            Noun {
                one: "file",
                many: "files",
                id: p("path", "string", "Path inside an allowed directory."),
                fields: &[
                    p("content", "string", "Full new content."),
                    p("encoding", "string", "utf-8 or base64."),
                ],
                note: "Paths outside the allowed directories are refused.",
            },
            Noun {
                one: "directory",
                many: "directories",
                id: p("path", "string", "Directory path."),
                fields: &[
                    p("recursive", "boolean", "Include subdirectories."),
                    p("exclude", "array", "Glob patterns to skip."),
                ],
                note: "Symlinks are not followed.",
            },
        ],
    },
];

/// The verbs every server offers on each noun.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    List,
    Get,
    Create,
    Update,
    Delete,
    Search,
}

const VERBS: [Verb; 6] = [
    Verb::List,
    Verb::Get,
    Verb::Create,
    Verb::Update,
    Verb::Delete,
    Verb::Search,
];

/// A generated tool declaration, with what the session needs to call it.
#[derive(Clone)]
pub struct Tool {
    /// The declaring origin.
    pub origin: String,
    /// The raw name.
    pub name: String,
    /// The full description.
    pub description: String,
    /// The input schema.
    pub schema: Value,
    /// The declared effect word.
    pub effect: Option<&'static str>,
    /// The declared approval word.
    pub approval: Option<&'static str>,
    params: Vec<Param>,
    required: Vec<&'static str>,
    closed: bool,
}

impl Tool {
    /// The minted name (SPEC §2).
    pub fn minted(&self) -> String {
        if self.origin == "host" {
            self.name.clone()
        } else {
            format!("{}__{}", self.origin, self.name)
        }
    }

    /// The declaration the library takes.
    pub fn decl(&self) -> ToolDecl {
        ToolDecl {
            origin: self.origin.clone(),
            name: self.name.clone(),
            description: self.description.clone(),
            input_schema: self.schema.clone().into(),
            effect: Effect::from_declared(self.effect),
            approval: Approval::from_declared(self.approval),
        }
    }

    /// Args that fit the schema: every required key, some optional ones.
    pub fn good_args(&self, rng: &mut Rng) -> Value {
        let mut args = Map::new();
        for param in &self.params {
            if self.required.contains(&param.name) || rng.chance(35) {
                args.insert(param.name.to_string(), sample(param, rng));
            }
        }
        Value::Object(args)
    }

    /// Args that do not fit: a required key missing, a mistyped value, or
    /// an unexpected key under `additionalProperties: false`.
    pub fn bad_args(&self, rng: &mut Rng) -> Value {
        let mut args = self.good_args(rng);
        let Value::Object(map) = &mut args else {
            return args;
        };
        match rng.below(3) {
            0 if !self.required.is_empty() => {
                map.remove(*rng.pick(&self.required));
            }
            1 if !self.params.is_empty() => {
                let param = rng.pick(&self.params);
                let wrong = if param.ty == "string" {
                    json!(42)
                } else {
                    json!("42")
                };
                map.insert(param.name.to_string(), wrong);
            }
            _ if self.closed => {
                map.insert("verbose".to_string(), json!(true));
            }
            _ => return json!(["not", "an", "object"]),
        }
        args
    }
}

/// A plausible value of a parameter's type.
fn sample(param: &Param, rng: &mut Rng) -> Value {
    match param.ty {
        "integer" => json!(1 + rng.below(500)),
        "number" => json!(rng.below(100) as f64 / 4.0 + 0.5),
        "boolean" => json!(rng.chance(50)),
        "array" => json!(["alpha", "beta"]),
        "object" => json!({"id": rng.below(1000), "note": "from the bench corpus"}),
        _ => {
            let words = [
                "acme",
                "widgets",
                "src/main.rs",
                "fix flaky login test",
                "OPS-1423",
                "#deploys",
                "users",
                "payments-api",
                "v2.4.1",
                "checkout fails on Safari",
            ];
            json!(rng.pick(&words))
        }
    }
}

fn title_case(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn schema_of(params: &[Param], required: &[&str], closed: bool) -> Value {
    let mut properties = Map::new();
    for param in params {
        let mut prop = Map::new();
        prop.insert("type".into(), json!(param.ty));
        prop.insert("description".into(), json!(param.about));
        match param.ty {
            "array" => {
                prop.insert("items".into(), json!({"type": "string"}));
            }
            "integer" => {
                prop.insert("minimum".into(), json!(0));
            }
            _ => {}
        }
        properties.insert(param.name.to_string(), Value::Object(prop));
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), json!(required));
    }
    if closed {
        schema.insert("additionalProperties".into(), json!(false));
    }
    Value::Object(schema)
}

/// A server's tool for `verb` on `noun`.
fn server_tool(server: &Server, noun: &Noun, verb: Verb, rng: &mut Rng) -> Tool {
    let mut params: Vec<Param> = server.common.to_vec();
    let mut required: Vec<&'static str> = server.common.iter().map(|p| p.name).collect();
    let (name, first, effect, approval) = match verb {
        Verb::List => {
            params.extend([PAGE, PER_PAGE]);
            (
                format!("list_{}", noun.many),
                format!("List {} in {}.", noun.many.replace('_', " "), server.scope),
                "read",
                Some("never"),
            )
        }
        Verb::Get => {
            params.push(noun.id);
            required.push(noun.id.name);
            (
                format!("get_{}", noun.one),
                format!(
                    "Get one {} from {} by its {}.",
                    noun.one.replace('_', " "),
                    server.product,
                    noun.id.name.replace('_', " ")
                ),
                "read",
                Some("never"),
            )
        }
        Verb::Create => {
            params.extend(noun.fields.iter().copied());
            required.extend(noun.fields.iter().take(1).map(|p| p.name));
            (
                format!("create_{}", noun.one),
                format!(
                    "Create a {} in {}.",
                    noun.one.replace('_', " "),
                    server.scope
                ),
                *rng.pick(&["reversible", "irreversible", "idempotent-write"]),
                None,
            )
        }
        Verb::Update => {
            params.push(noun.id);
            params.extend(noun.fields.iter().copied());
            required.push(noun.id.name);
            (
                format!("update_{}", noun.one),
                format!(
                    "Update a {}'s fields; fields left out are kept.",
                    noun.one.replace('_', " ")
                ),
                "idempotent-write",
                *rng.pick(&[None, Some("required")]),
            )
        }
        Verb::Delete => {
            params.push(noun.id);
            required.push(noun.id.name);
            (
                format!("delete_{}", noun.one),
                format!(
                    "Delete a {} from {} permanently.",
                    noun.one.replace('_', " "),
                    server.product
                ),
                "irreversible",
                Some("required"),
            )
        }
        Verb::Search => {
            params.extend([QUERY, PER_PAGE]);
            required.push(QUERY.name);
            (
                format!("search_{}", noun.many),
                format!(
                    "Search {} across {} by text.",
                    noun.many.replace('_', " "),
                    server.product
                ),
                "read",
                Some("never"),
            )
        }
    };
    let more = [
        noun.note,
        "Returns JSON.",
        "Needs a token with the right scopes.",
        "Rate limited per token.",
    ];
    let description = format!(
        "{first} {} {}\n\nArguments are checked before anything is sent to {}.",
        noun.note,
        rng.pick(&more[1..]),
        title_case(server.product)
    );
    let closed = rng.chance(60);
    // A few servers declare no effect at all (fail closed to irreversible).
    let effect = if rng.chance(10) { None } else { Some(effect) };
    Tool {
        origin: server.origin.to_string(),
        name,
        description,
        schema: schema_of(&params, &required, closed),
        effect,
        approval,
        params,
        required,
        closed,
    }
}

/// The host's own tools: the resident core and a few dormant extras.
fn host_tools() -> Vec<Tool> {
    let host = |name: &str,
                description: &str,
                params: &[Param],
                required: &[&'static str],
                effect: &'static str| Tool {
        origin: "host".to_string(),
        name: name.to_string(),
        description: description.to_string(),
        schema: schema_of(params, required, true),
        effect: Some(effect),
        approval: Some(if effect == "read" {
            "never"
        } else {
            "required"
        }),
        params: params.to_vec(),
        required: required.to_vec(),
        closed: true,
    };
    let path = p("path", "string", "Absolute path.");
    vec![
        host(
            "read",
            "Read a file from the workspace. Returns numbered lines; use offset and limit for large files.",
            &[
                path,
                p("offset", "integer", "First line, from 1."),
                p("limit", "integer", "Lines to read."),
            ],
            &["path"],
            "read",
        ),
        host(
            "search",
            "Search file contents with a regular expression. Respects .gitignore.",
            &[
                p("pattern", "string", "Regular expression."),
                p("path", "string", "Directory to search."),
                p("glob", "string", "Only files matching this glob."),
            ],
            &["pattern"],
            "read",
        ),
        host(
            "status",
            "Show the workspace status: branch, changed files and running jobs.",
            &[],
            &[],
            "read",
        ),
        host(
            "edit",
            "Replace an exact string in a file. The old string must be unique unless replace_all is set.",
            &[
                path,
                p("old_string", "string", "Text to replace."),
                p("new_string", "string", "Replacement."),
                p("replace_all", "boolean", "Replace every occurrence."),
            ],
            &["path", "old_string", "new_string"],
            "reversible",
        ),
        host(
            "exec",
            "Run a shell command in the workspace. Output over 30,000 characters is cut.",
            &[
                p("command", "string", "The command line."),
                p("timeout_ms", "integer", "Kill it after this long."),
            ],
            &["command"],
            "irreversible",
        ),
        host(
            "web_fetch",
            "Fetch a URL and return its text. HTML is converted to Markdown.",
            &[
                p("url", "string", "An http or https URL."),
                p("prompt", "string", "What to extract."),
            ],
            &["url"],
            "read",
        ),
        host(
            "todo_write",
            "Replace the session's task list. Keep exactly one task in progress.",
            &[p("todos", "array", "The whole list.")],
            &["todos"],
            "idempotent-write",
        ),
        host(
            "glob",
            "Find files by glob pattern, newest first.",
            &[p("pattern", "string", "Glob such as **/*.rs."), path],
            &["pattern"],
            "read",
        ),
        host(
            "notebook_edit",
            "Replace, insert or delete one cell of a Jupyter notebook.",
            &[
                p("notebook_path", "string", "Absolute path to the .ipynb."),
                p("cell_id", "string", "The cell to edit."),
                p("new_source", "string", "The cell's new source."),
            ],
            &["notebook_path", "new_source"],
            "reversible",
        ),
    ]
}

/// The tools of a server, one per verb × noun.
fn server_pool(server: &Server, rng: &mut Rng) -> Vec<Tool> {
    let mut tools = Vec::new();
    for noun in server.nouns {
        for verb in VERBS {
            tools.push(server_tool(server, noun, verb, rng));
        }
    }
    tools
}

/// `n` dormant tool declarations with distinct minted names and distinct
/// schemas (for the scale benches): the server pools, cycled over numbered
/// origins.
pub fn decls(n: usize, seed: u64) -> Vec<ToolDecl> {
    let mut rng = Rng::new(seed);
    let pools: Vec<Vec<Tool>> = SERVERS.iter().map(|s| server_pool(s, &mut rng)).collect();
    let mut out = Vec::with_capacity(n);
    let mut round = 0usize;
    while out.len() < n {
        for (server, pool) in SERVERS.iter().zip(&pools) {
            for tool in pool {
                if out.len() == n {
                    return out;
                }
                let mut decl = tool.decl();
                // Distinct origins keep every minted name and key distinct.
                decl.origin = format!("{}-{round}", server.origin);
                // A distinct schema per tool, as at real scale (many servers,
                // many versions): no per-schema memo may hide the cost.
                if let Some(schema) =
                    std::sync::Arc::make_mut(&mut decl.input_schema).as_object_mut()
                {
                    schema.insert(
                        "title".to_string(),
                        Value::from(format!("{} {}", decl.origin, decl.name)),
                    );
                }
                out.push(decl);
            }
        }
        round += 1;
    }
    out
}

/// The same declarations with `salt` in every schema (`$comment`), so each
/// measured iteration admits schemas the process has never seen: a memo of
/// schema verdicts cannot turn a scale bench into a lookup bench.
pub fn salted_decls(decls: &[ToolDecl], salt: u64) -> Vec<ToolDecl> {
    decls
        .iter()
        .map(|decl| {
            let mut decl = decl.clone();
            if let Some(schema) = std::sync::Arc::make_mut(&mut decl.input_schema).as_object_mut() {
                schema.insert("$comment".to_string(), Value::from(format!("salt {salt}")));
            }
            decl
        })
        .collect()
}

/// A session's bytes with `salt` in every tool's schema (see
/// [`salted_decls`]).
pub fn salted_session(text: &str, salt: u64) -> String {
    text.replace(
        "\"input_schema\":{",
        &format!("\"input_schema\":{{\"$comment\":\"salt {salt}\","),
    )
}

/// Realistic keyword queries for `describe`.
pub const QUERIES: [&str; 8] = [
    "create issue",
    "list pull requests on github",
    "send a slack message to a channel",
    "delete branch",
    "search tickets by text",
    "restart deployment pods",
    "query rows in postgres table",
    "resolve sentry issue",
];

/// One JSON Lines op, `op` first as a recorder writes it.
fn line(out: &mut String, op: &str, fields: &[(&str, Value)]) {
    out.push_str("{\"op\":");
    out.push_str(&Value::from(op).to_string());
    for (key, value) in fields {
        out.push(',');
        out.push_str(&Value::from(*key).to_string());
        out.push(':');
        out.push_str(&value.to_string());
    }
    out.push_str("}\n");
}

const SKILLS: [(&str, &str); 6] = [
    (
        "release-notes",
        "Write release notes from merged pull requests and closed tickets.",
    ),
    (
        "incident-triage",
        "Triage a production incident: gather errors, recent deploys and owners.",
    ),
    (
        "pdf-forms",
        "Fill PDF forms field by field and check the result.",
    ),
    (
        "sql-review",
        "Review a SQL migration for locks, long rewrites and missing indexes.",
    ),
    (
        "k8s-rollback",
        "Roll a deployment back safely and confirm the pods are healthy.",
    ),
    (
        "onboarding",
        "Walk a new teammate through the repository layout and the CI gate.",
    ),
];

/// A whole session shaped like a real agent run, from `seed`.
pub fn session(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    line(
        &mut out,
        "session",
        &[
            ("format", json!(1)),
            (
                "about",
                json!(format!(
                    "generated realistic agent run {seed}: ~50 tools from 3-4 servers, ~20 requests"
                )),
            ),
        ],
    );
    if rng.chance(20) {
        line(
            &mut out,
            "dev",
            &[("text", json!("bench corpus build; tools from a fixture"))],
        );
    }

    // Host tools: the resident core (edit/exec usually), then dormant extras.
    let mut tools: Vec<Tool> = host_tools()
        .into_iter()
        .filter(|t| match t.name.as_str() {
            "read" | "search" | "status" => true,
            "edit" | "exec" => rng.chance(90),
            _ => rng.chance(60),
        })
        .collect();

    // 3–4 servers, ~40 of their tools together.
    let mut order: Vec<usize> = (0..SERVERS.len()).collect();
    rng.shuffle(&mut order);
    let servers = 3 + rng.below(2);
    let per_server = 40 / servers;
    for &index in &order[..servers] {
        let mut pool = server_pool(&SERVERS[index], &mut rng);
        rng.shuffle(&mut pool);
        let take = (per_server + rng.below(5))
            .saturating_sub(2)
            .min(pool.len());
        pool.truncate(take);
        tools.extend(pool);
    }
    for tool in &tools {
        let mut fields = vec![
            ("origin", json!(tool.origin)),
            ("name", json!(tool.name)),
            ("description", json!(tool.description)),
            ("input_schema", tool.schema.clone()),
        ];
        if let Some(effect) = tool.effect {
            fields.push(("effect", json!(effect)));
        }
        if let Some(approval) = tool.approval {
            fields.push(("approval", json!(approval)));
        }
        line(&mut out, "tool", &fields);
    }
    // The building declines one tool now and then (SPEC §0), and a server
    // sometimes declares a tool twice.
    if rng.chance(40) {
        line(
            &mut out,
            "tool",
            &[
                ("origin", json!("shell-plus")),
                ("name", json!("run_as_root")),
                (
                    "description",
                    json!("Run a command as root. Not for agents."),
                ),
                ("input_schema", json!({"type": "object"})),
                ("admitted", json!(false)),
            ],
        );
    }
    if rng.chance(15) {
        let twice = &tools[rng.below(tools.len())];
        line(
            &mut out,
            "tool",
            &[
                ("origin", json!(twice.origin)),
                ("name", json!(twice.name)),
                ("description", json!(twice.description)),
                ("input_schema", twice.schema.clone()),
            ],
        );
    }
    let mut skills: Vec<&str> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let (name, disclosure) = *rng.pick(&SKILLS);
        if skills.contains(&name) {
            continue;
        }
        skills.push(name);
        if rng.chance(70) {
            let hash: String = (0..4).map(|_| format!("{:016x}", rng.next_u64())).collect();
            line(
                &mut out,
                "skill",
                &[
                    ("name", json!(name)),
                    ("disclosure", json!(disclosure)),
                    ("address", json!(format!("skills/{name}/SKILL.md"))),
                    ("hash", json!(hash)),
                ],
            );
        } else {
            line(
                &mut out,
                "carried_skill",
                &[
                    ("name", json!(name)),
                    ("disclosure", json!(disclosure)),
                    (
                        "body",
                        json!(format!(
                            "# {name}\n\n{disclosure}\n\n1. Read the inputs.\n2. Do the work.\n3. Check it.\n"
                        )),
                    ),
                ],
            );
        }
    }

    let chat = rng.chance(60);
    let mode = if chat { "chat" } else { "work" };
    if rng.chance(10) {
        line(
            &mut out,
            "start",
            &[("mode", json!(mode)), ("profile", json!("scout"))],
        );
    } else {
        line(&mut out, "start", &[("mode", json!(mode))]);
    }
    line(&mut out, "render", &[]);
    line(&mut out, "tool_defs", &[]);

    let dormant: Vec<&Tool> = tools.iter().filter(|t| t.origin != "host").collect();
    let mut requests: Vec<String> = Vec::new();
    let mut call_id = 0;
    let mut next_id = || {
        call_id += 1;
        format!("call_{call_id:03}")
    };
    let push = |requests: &mut Vec<String>, op: &str, fields: &[(&str, Value)]| {
        let mut text = String::new();
        line(&mut text, op, fields);
        requests.push(text);
    };
    for _ in 0..3 {
        push(
            &mut requests,
            "describe",
            &[("name", json!(rng.pick(&QUERIES)))],
        );
    }
    for _ in 0..2 {
        let tool = rng.pick(&dormant);
        push(&mut requests, "describe", &[("name", json!(tool.minted()))]);
    }
    for _ in 0..5 {
        let tool = rng.pick(&dormant);
        let args = tool.good_args(&mut rng);
        push(
            &mut requests,
            "call",
            &[
                ("id", json!(next_id())),
                ("name", json!("call")),
                ("args", json!({"name": tool.minted(), "args": args})),
            ],
        );
    }
    for _ in 0..2 {
        let tool = rng.pick(&dormant);
        let args = tool.bad_args(&mut rng);
        push(
            &mut requests,
            "call",
            &[
                ("id", json!(next_id())),
                ("name", json!("call")),
                ("args", json!({"name": tool.minted(), "args": args})),
            ],
        );
    }
    // A typo'd name: call.unknown with the nearest names.
    let typo = {
        let mut name = rng.pick(&dormant).minted();
        name.remove(name.len() / 2);
        name
    };
    push(
        &mut requests,
        "call",
        &[
            ("id", json!(next_id())),
            ("name", json!("call")),
            ("args", json!({"name": typo, "args": {}})),
        ],
    );
    // Direct calls: a resident read, a dormant tool named directly.
    push(
        &mut requests,
        "call",
        &[
            ("id", json!(next_id())),
            ("name", json!("read")),
            ("args", json!({"path": "/work/src/lib.rs", "limit": 200})),
        ],
    );
    push(
        &mut requests,
        "call",
        &[
            ("id", json!(next_id())),
            ("name", json!(rng.pick(&dormant).minted())),
            ("args", json!({})),
        ],
    );
    push(
        &mut requests,
        "describe",
        &[("name", json!("quantum zebra teleport"))],
    );
    if let Some(skill) = skills.first() {
        push(&mut requests, "expand", &[("name", json!(skill))]);
    }
    rng.shuffle(&mut requests);
    // The mode switch lands mid-run; then an edit, and the prefix again.
    let at = requests.len() / 2 + rng.below(3);
    requests.insert(at.min(requests.len()), {
        let mut text = String::new();
        line(
            &mut text,
            "switch_mode",
            &[("mode", json!(if chat { "work" } else { "chat" }))],
        );
        text
    });
    for request in requests {
        out.push_str(&request);
    }
    line(
        &mut out,
        "call",
        &[
            ("id", json!(next_id())),
            ("name", json!("edit")),
            (
                "args",
                json!({"path": "/work/src/lib.rs", "old_string": "todo!()", "new_string": "Ok(())"}),
            ),
        ],
    );
    line(&mut out, "render", &[]);
    // The last tool list in the shape of the provider the host talks to
    // (SPEC §11 `provider`; absent is `anthropic`).
    match rng.below(4) {
        0 => line(&mut out, "tool_defs", &[]),
        1 => line(&mut out, "tool_defs", &[("provider", json!("anthropic"))]),
        2 => line(&mut out, "tool_defs", &[("provider", json!("openai_chat"))]),
        _ => line(
            &mut out,
            "tool_defs",
            &[("provider", json!("openai_responses"))],
        ),
    }
    if rng.chance(30) {
        line(&mut out, "digests", &[]);
    }
    if rng.chance(20) {
        line(&mut out, "pins", &[]);
    }
    out
}

/// `fit` cases: realistic schemas with top-level constraints only, and args
/// that fit and that do not (a third misfit).
pub fn fit_cases(n: usize, seed: u64) -> Vec<(Value, Value)> {
    let mut rng = Rng::new(seed);
    let mut pool: Vec<Tool> = SERVERS
        .iter()
        .flat_map(|s| server_pool(s, &mut rng))
        .collect();
    pool.extend(host_tools());
    (0..n)
        .map(|i| {
            let tool = pool[rng.below(pool.len())].clone();
            let args = if i % 3 == 2 {
                tool.bad_args(&mut rng)
            } else {
                tool.good_args(&mut rng)
            };
            // Top-level constraints only: drop the per-property keywords the
            // full validator would also check (minimum, items).
            let mut schema = tool.schema.clone();
            if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
                for prop in props.values_mut() {
                    if let Some(prop) = prop.as_object_mut() {
                        prop.remove("minimum");
                        prop.remove("items");
                    }
                }
            }
            (schema, args)
        })
        .collect()
}
