//! Text inside the Markdown reports (`check --summary`, the `--impl`
//! matrix, `diff --markdown`): one escaper for table cells and one for the
//! HTML of a `<details>` summary, where Markdown is not parsed.

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

/// `text` inside raw HTML (a `<summary>`): `&`, `<` and `>` as entities.
pub fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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
}
