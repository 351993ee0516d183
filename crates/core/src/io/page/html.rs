//! HTML text made safe: every piece of user text (a scenario's title, an order, a file name, an
//! engine's words) goes into a page through [`esc`], and data for the page's script through
//! [`script_json`], so no text can close an element or a script block.

use std::fmt::Write as _;

/// `text` escaped for an HTML text node or a quoted attribute value
/// ([`crate::base::text::markup`]: markup characters as references, control and invisible
/// characters as [`crate::base::text::multi_line`] shows them).
pub fn esc(text: &str) -> String {
    crate::base::text::markup(text)
}

/// A JSON value written for a `<script type="application/json">` block: `<`, `>` and `&` as
/// `\u003c`, `\u003e`, `\u0026` (so `</script>` or `<!--` in a string cannot end or bend the
/// block), and the line separators U+2028 and U+2029 escaped too. `JSON.parse` reads it back
/// unchanged.
pub fn script_json(value: &serde_json::Value) -> String {
    let raw = value.to_string();
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: the document around `body`, with the shared style sheet, `extra_style` and,
/// when given, one inline script at the end of the body. No external reference of any kind.
pub fn document(title: &str, extra_style: &str, body: &str, script: Option<&str>) -> String {
    let mut out = String::with_capacity(body.len() + 8192);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"generator\" content=\"dipsandbox report\">\n");
    // No network: nothing may be fetched, whatever a picture or a text holds.
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
    );
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    out.push_str("<style>\n");
    out.push_str(STYLE);
    out.push_str(extra_style);
    out.push_str("</style>\n</head>\n<body>\n");
    out.push_str(body);
    if let Some(js) = script {
        out.push_str("<script>\n");
        out.push_str(js);
        out.push_str("\n</script>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The style both pages share: plain, readable, printable; verdicts by colour and by word.
const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; background: #fff; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { text-align: left; padding: .15em .6em; border-bottom: 1px solid #eee; vertical-align: top; }
code, .mono { font-family: ui-monospace, monospace; }
.meta { color: #555; }
.picture svg { max-width: 100%; height: auto; border: 1px solid #ddd; }
.v-succeeds { color: #1a7f37; } .v-fails { color: #b3261e; } .v-illegal { color: #8250df; } .v-void { color: #6e7781; }
.met { color: #1a7f37; } .missed { color: #b3261e; font-weight: bold; }
.changed { font-weight: bold; }
.error { color: #b3261e; }
"#;

/// Standard base64 (RFC 4648, with padding), for pictures in `data:` addresses.
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
