//! The Markdown reports' writing (`check --summary`, the `--impl` matrix,
//! `diff --markdown`, `recall --markdown`): one escaper for table cells, one
//! for the HTML of a `<details>` summary (where Markdown is not parsed), and
//! one table writer.

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

    /// `| a | b |`: one cell per column.
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        debug_assert_eq!(cells.len(), self.columns, "one cell per column");
        self.out.push('|');
        for cell in cells {
            self.out.push(' ');
            self.out.push_str(cell.as_ref());
            self.out.push_str(" |");
        }
        self.out.push('\n');
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
}
