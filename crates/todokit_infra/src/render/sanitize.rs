//! Making model-written text inert on a terminal.

use std::borrow::Cow;

/// `text` with every character that could steer a terminal or hide text
/// from the person reading it replaced by a visible stand-in: C0 controls
/// (including ESC, BEL, CR and LF) by their Unicode control pictures (`␛`,
/// `␇`, `␍`, `␊`), DEL by `␡`, and C1 controls, bidirectional overrides,
/// format characters and Unicode's other default-ignorable code points (tag
/// characters, fillers, variation selectors) by a `\u{…}` escape. One
/// text or emoji presentation selector (U+FE0E, U+FE0F) right after a
/// visible character is kept, so `❤️` stays an emoji; any other selector is
/// escaped, so no run of them can carry a hidden message. Text without any
/// of these is returned as it is.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| steers_terminal(c) || is_presentation_selector(c))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    // Whether the last character written was a visible one a presentation
    // selector may follow.
    let mut after_visible = false;
    for c in text.chars() {
        match c {
            '\u{0}'..='\u{1f}' => out.push(char::from_u32(0x2400 + u32::from(c)).unwrap_or('\u{fffd}')),
            '\u{7f}' => out.push('\u{2421}'),
            c if is_presentation_selector(c) && after_visible => {
                out.push(c);
                after_visible = false;
                continue;
            }
            c if steers_terminal(c) || is_presentation_selector(c) => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)))
            }
            c => {
                out.push(c);
                after_visible = true;
                continue;
            }
        }
        after_visible = false;
    }
    Cow::Owned(out)
}

/// True for a character that could steer a terminal or hide text from the
/// person reading it: controls, bidirectional overrides, format characters
/// (Unicode's general category Cf) and the other default-ignorable code
/// points, which terminals draw as nothing. The two presentation selectors
/// (U+FE0E, U+FE0F) are not among them: they change how the character
/// before them looks ([`sanitize`] keeps one after a visible character).
pub fn steers_terminal(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{ad}'
        | '\u{34f}'
        | '\u{600}'..='\u{605}'
        | '\u{61c}'
        | '\u{6dd}'
        | '\u{70f}'
        | '\u{890}'..='\u{891}'
        | '\u{8e2}'
        | '\u{115f}'..='\u{1160}'
        | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180f}'
        | '\u{200b}'..='\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}'
        | '\u{3164}'
        | '\u{fe00}'..='\u{fe0d}'
        | '\u{feff}'
        | '\u{ffa0}'
        | '\u{fff0}'..='\u{fffb}'
        | '\u{110bd}'
        | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}'
        | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0000}'..='\u{e0fff}'
    )
}

/// U+FE0E and U+FE0F: text or emoji presentation of the character before.
fn is_presentation_selector(c: char) -> bool {
    matches!(c, '\u{fe0e}' | '\u{fe0f}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn ordinary_text_is_borrowed_untouched() {
        let fixture = "Ünïcode, emoji 🦀 and `code`";
        let actual = sanitize(fixture);
        let expected: Cow<'_, str> = Cow::Borrowed(fixture);
        assert_eq!((matches!(actual, Cow::Borrowed(_)), actual), (true, expected));
    }

    #[test]
    fn controls_become_visible_and_inert() {
        let fixture = "a\u{1b}[2Jb\u{7}\r\n\t\u{7f}\u{9b}31m\u{202e}rtl\u{200b}";
        let actual = sanitize(fixture).into_owned();
        let expected = "a␛[2Jb␇␍␊␉␡\\u{9b}31m\\u{202e}rtl\\u{200b}";
        assert_eq!(actual, expected);
    }

    /// `word` spelled in Unicode tag characters, which draw as nothing.
    fn tags(word: &str) -> String {
        word.chars()
            .filter_map(|c| char::from_u32(0xe0000 + u32::from(c)))
            .collect()
    }

    #[test]
    fn tags_fillers_and_every_other_invisible_character_are_escaped() {
        let fixture = [
            format!("visible{}end", tags("hi")),
            "a\u{206a}b\u{206f}c\u{180e}d\u{ad}e\u{3164}f\u{115f}g\u{34f}h".to_owned(),
            "x\u{fe00}y\u{e0100}z\u{1d173}w\u{e0001}".to_owned(),
        ];
        let actual: Vec<String> = fixture.iter().map(|text| sanitize(text).into_owned()).collect();
        let expected = vec![
            "visible\\u{e0068}\\u{e0069}end".to_owned(),
            "a\\u{206a}b\\u{206f}c\\u{180e}d\\u{ad}e\\u{3164}f\\u{115f}g\\u{34f}h".to_owned(),
            "x\\u{fe00}y\\u{e0100}z\\u{1d173}w\\u{e0001}".to_owned(),
        ];
        assert_eq!(actual, expected);
    }

    #[test]
    fn one_presentation_selector_after_a_visible_character_stays_and_no_other() {
        let fixture = [
            "love \u{2764}\u{fe0f} and text \u{2764}\u{fe0e}",
            "\u{fe0f}at the start",
            "a\u{fe0f}\u{fe0f}\u{fe0e} run",
            "\u{200b}\u{fe0f} after an escaped one",
        ];
        let actual: Vec<String> = fixture.iter().map(|text| sanitize(text).into_owned()).collect();
        let expected = vec![
            "love \u{2764}\u{fe0f} and text \u{2764}\u{fe0e}".to_owned(),
            "\\u{fe0f}at the start".to_owned(),
            "a\u{fe0f}\\u{fe0f}\\u{fe0e} run".to_owned(),
            "\\u{200b}\\u{fe0f} after an escaped one".to_owned(),
        ];
        assert_eq!(actual, expected);
    }
}
