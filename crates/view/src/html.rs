//! Escaping text for HTML and SVG, in one place so that every name and action of a model (which
//! may hold `<`, `&` or quotes) reaches the page as text, never as markup.

/// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content and quoted attributes.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// JSON text made safe inside a `<script>` element: `<` escaped so that no `</script>` (or
/// `<!--`) in a model's names can end the element early.
pub(crate) fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// A count as a coordinate factor (counts on a page are far below 2^32; larger ones saturate).
pub(crate) fn px(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped() {
        assert_eq!(escape("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        assert_eq!(script_json("\"</script>\""), "\"\\u003c/script>\"");
    }
}
