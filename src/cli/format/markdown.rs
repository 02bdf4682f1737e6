//! The Markdown reports' writing (`check --summary`, the `--impl` matrix,
//! `diff --markdown`, `recall --markdown`): one escaper for table cells, one
//! for the HTML of a `<details>` summary (where Markdown is not parsed), one
//! table writer, and [`fit`], which keeps a step summary under GitHub's
//! limit by leaving out whole rows and saying where the whole report is.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

/// GitHub refuses a step summary over 1 MiB.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024;

/// The most `--summary` writes: GitHub's limit, less room for a heading or
/// a line the same step adds to its summary.
pub const SUMMARY_MAX: usize = STEP_SUMMARY_LIMIT - 8 * 1024;

/// `text` as literal text in a GitHub-flavoured Markdown table cell: every
/// ASCII punctuation character that could start emphasis, code, a link, an
/// HTML tag, an entity or a cell boundary is backslash-escaped (CommonMark
/// allows escaping any ASCII punctuation), and line breaks become spaces, so
/// a cell can never end a row or turn into markup.
pub fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// `text` with only `|` escaped: the narrower escaper `recall --markdown`
/// has always used for its queries, kept so its report's bytes stay as they
/// are (a query with `*` or `_` renders as emphasis there, unlike in every
/// other report, which uses [`cell`]).
pub fn pipes_escaped(text: &str) -> String {
    text.replace('|', "\\|")
}

/// `text` inside raw HTML (a `<summary>`): `&`, `<` and `>` as entities.
pub fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// How a column is aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// `---`.
    Left,
    /// `---:` (numbers).
    Right,
}

/// A GitHub-flavoured Markdown table written into a report. Cells are
/// Markdown as given: escape text with [`cell`] (a cell may be markup on
/// purpose, as `**all**` or a `` `path` ``).
pub struct Table<'a> {
    out: &'a mut String,
    columns: usize,
}

impl<'a> Table<'a> {
    /// Writes the header row and the alignment row.
    pub fn new(out: &'a mut String, header: &[(&str, Align)]) -> Table<'a> {
        let mut table = Table {
            out,
            columns: header.len(),
        };
        let names: Vec<&str> = header.iter().map(|(name, _)| *name).collect();
        table.row(&names);
        table.out.push('|');
        for (_, align) in header {
            table.out.push_str(match align {
                Align::Left => "---|",
                Align::Right => "---:|",
            });
        }
        table.out.push('\n');
        table
    }

    /// `| a | b |`: one cell per column. Returns where the row is in the
    /// text, for [`fit`].
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) -> Range<usize> {
        debug_assert_eq!(cells.len(), self.columns, "one cell per column");
        let start = self.out.len();
        self.out.push('|');
        for cell in cells {
            self.out.push(' ');
            self.out.push_str(cell.as_ref());
            self.out.push_str(" |");
        }
        self.out.push('\n');
        start..self.out.len()
    }

    /// `| a | b | | |`: the first cells, then the rest of the row empty.
    pub fn row_then_empty<S: AsRef<str>>(&mut self, cells: &[S]) {
        debug_assert!(cells.len() <= self.columns, "at most one cell per column");
        self.out.push('|');
        for cell in cells {
            self.out.push(' ');
            self.out.push_str(cell.as_ref());
            self.out.push_str(" |");
        }
        for _ in cells.len()..self.columns {
            self.out.push_str(" |");
        }
        self.out.push('\n');
    }
}

/// Where the whole of a report is, for a summary that left rows out: the
/// other reports asked for on the same command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Whole<'a> {
    /// `--json FILE`.
    pub json: Option<&'a Path>,
    /// `--junit FILE`.
    pub junit: Option<&'a Path>,
}

impl Whole<'_> {
    /// `the whole report is in report.json (JSON)`, or that it is only in
    /// the log.
    fn said(&self) -> String {
        let files: Vec<String> = [(self.json, "JSON"), (self.junit, "JUnit")]
            .into_iter()
            .filter_map(|(path, format)| {
                Some(format!("{} ({format})", cell(&path?.display().to_string())))
            })
            .collect();
        if files.is_empty() {
            "no --json or --junit report was asked for, so the whole report is only in the log"
                .into()
        } else {
            format!("the whole report is in {}", files.join(" and "))
        }
    }
}

/// `md` as a step summary of at most `max` bytes. Unchanged when it fits.
/// Otherwise the rows at `rows` (byte ranges of whole lines, in document
/// order) are left out from the last one back, as few as make it fit, and
/// a paragraph where the first of them was says how many, and where the
/// whole report is. Should leaving out every row not be enough, the text
/// is also cut after its last whole line that fits. Whole lines only, so
/// never inside a character.
pub fn fit(md: &str, rows: &[Range<usize>], max: usize, whole: &Whole) -> String {
    if md.len() <= max {
        return md.to_string();
    }
    let total = rows.len();
    let mut left_out = 0;
    for kept in (0..total).rev() {
        left_out += rows[kept].len();
        let note = note(total - kept, total, false, whole);
        if md.len() - left_out + note.len() <= max {
            return without(md, &rows[kept..], &note);
        }
    }
    let note = note(total, total, true, whole);
    let mut text = without(md, rows, "");
    let room = max.saturating_sub(note.len());
    let cut = text.as_bytes()[..room.min(text.len())]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |at| at + 1);
    text.truncate(cut);
    text.push_str(&note);
    text
}

/// The paragraph that says what was left out, a block of its own.
fn note(rows: usize, total: usize, cut: bool, whole: &Whole) -> String {
    let mut what = format!("{rows} of {total} rows");
    if cut {
        what.push_str(", and the end of this summary,");
    }
    let mut note = String::new();
    let _ = write!(
        note,
        "\n**{what} left out** to keep this summary under GitHub's 1 MiB limit; {}.\n",
        whole.said()
    );
    note
}

/// `md` without `rows` (in document order), and `note` where the first of
/// them was, followed by a blank line.
fn without(md: &str, rows: &[Range<usize>], note: &str) -> String {
    let Some(first) = rows.first() else {
        return md.to_string();
    };
    let mut rest = String::new();
    for (row, next) in rows.iter().zip(rows.iter().skip(1)) {
        rest.push_str(&md[row.end..next.start]);
    }
    rest.push_str(&md[rows[rows.len() - 1].end..]);
    let mut out = String::with_capacity(md.len());
    out.push_str(&md[..first.start]);
    out.push_str(note);
    if !note.is_empty() && !rest.is_empty() && !rest.starts_with('\n') {
        out.push('\n');
    }
    out.push_str(&rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_cannot_break_the_row_or_become_markup() {
        assert_eq!(cell("plain suite/case-1"), "plain suite/case-1");
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cell("x\r\ny\nz"), "x y z");
        assert_eq!(
            cell("call_unknown *x* `y`"),
            "call\\_unknown \\*x\\* \\`y\\`"
        );
        assert_eq!(
            cell("<b>&amp;</b> [l](u) \\"),
            "\\<b\\>\\&amp;\\</b\\> \\[l\\](u) \\\\"
        );
    }

    #[test]
    fn html_escapes_the_three_characters() {
        assert_eq!(html("a<b> & c"), "a&lt;b&gt; &amp; c");
    }

    #[test]
    fn a_table_has_its_header_alignment_and_rows() {
        let mut out = String::new();
        let mut table = Table::new(&mut out, &[("case", Align::Left), ("n", Align::Right)]);
        table.row(&["a", "1"]);
        table.row(&["", ""]);
        table.row_then_empty(&["b"]);
        assert_eq!(
            out,
            "| case | n |\n|---|---:|\n| a | 1 |\n|  |  |\n| b | |\n"
        );
        assert_eq!(pipes_escaped("a|b *c*"), "a\\|b *c*");
    }

    /// A heading, a table of `n` rows of `é` (2 bytes each) and a closing
    /// line, with the rows' places.
    fn table_of(n: usize) -> (String, Vec<Range<usize>>) {
        let mut md = String::from("# t\n\n");
        let mut table = Table::new(&mut md, &[("case", Align::Left)]);
        let rows = (0..n)
            .map(|i| table.row(&[format!("{i} {}", "é".repeat(20))]))
            .collect();
        md.push_str("\nclosing\n");
        (md, rows)
    }

    #[test]
    fn a_summary_that_fits_is_unchanged() {
        let (md, rows) = table_of(50);
        assert_eq!(fit(&md, &rows, md.len(), &Whole::default()), md);
    }

    #[test]
    fn past_the_cap_whole_rows_are_left_out_from_the_end_and_counted() {
        let (md, rows) = table_of(50);
        let json = Path::new("out/r.json");
        let junit = Path::new("r_1.xml");
        let whole = Whole {
            json: Some(json),
            junit: Some(junit),
        };
        let max = 1000;
        let fitted = fit(&md, &rows, max, &whole);
        assert!(fitted.len() <= max, "{}", fitted.len());
        // The kept rows are the first ones, whole; the note is a block of
        // its own where the first left-out row was; the rest follows.
        let kept: Vec<&str> = fitted
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| case"))
            .collect();
        // 20 bytes of heading and header, 9 of closing, 140 of note: 17
        // rows of 47 and 48 bytes fit in the 831 left (975 in all).
        assert_eq!(fitted.len(), 975);
        assert_eq!(kept.len(), 17, "{fitted}");
        for (i, row) in kept.iter().enumerate() {
            assert_eq!(*row, format!("| {i} {} |", "é".repeat(20)));
        }
        assert!(
            fitted.contains(&format!(
                "| 16 {} |\n\n**33 of 50 rows left out** to keep this summary under GitHub's 1 MiB limit; the whole report is in out/r.json (JSON) and r\\_1.xml (JUnit).\n\nclosing\n",
                "é".repeat(20)
            )),
            "{fitted}"
        );
        // One byte less room, one more row left out.
        let tighter = fit(&md, &rows, fitted.len() - 1, &whole);
        assert!(tighter.contains("**34 of 50 rows left out**"), "{tighter}");
        // The same input, the same cut.
        assert_eq!(fit(&md, &rows, max, &whole), fitted);
    }

    #[test]
    fn with_no_other_report_the_note_says_the_log_has_it_all() {
        let (md, rows) = table_of(50);
        let fitted = fit(&md, &rows, 600, &Whole::default());
        assert!(
            fitted.contains("left out** to keep this summary under GitHub's 1 MiB limit; no --json or --junit report was asked for, so the whole report is only in the log.\n"),
            "{fitted}"
        );
    }

    #[test]
    fn when_rows_are_not_enough_the_end_is_cut_at_a_whole_line() {
        let (mut md, rows) = table_of(3);
        md.push_str(&format!("{}\n", "ü".repeat(300)).repeat(3));
        let fitted = fit(&md, &rows, 900, &Whole::default());
        assert!(fitted.len() <= 900, "{}", fitted.len());
        assert!(
            fitted.starts_with("# t\n\n| case |\n|---|\n\nclosing\n"),
            "{fitted}"
        );
        assert!(fitted.ends_with("**3 of 3 rows, and the end of this summary, left out** to keep this summary under GitHub's 1 MiB limit; no --json or --junit report was asked for, so the whole report is only in the log.\n"), "{fitted}");
        // What is kept of the tail is whole lines.
        assert!(
            fitted
                .lines()
                .all(|l| !l.starts_with('ü') || l == "ü".repeat(300))
        );
    }
}
