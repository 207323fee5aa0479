//! The character classes Go's `regexp/syntax` knows by name, as Go 1.25 defines them: the
//! Perl and POSIX ASCII groups, and the Unicode classes `\p{...}` accepts (general
//! categories and their long aliases, scripts, `Any`, `ASCII`, `Assigned`). The class
//! contents come from `regex-syntax`'s Unicode tables; the names are Go's (Unicode 15.0),
//! so a name Go does not know is rejected even when `regex-syntax` would know it.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, HirKind};

/// A named ASCII group: its ranges (inclusive).
pub(super) type Group = &'static [(char, char)];

/// `\d`, `\s`, `\w` (Go's `perlGroup`; `\D`, `\S`, `\W` negate them).
pub(super) fn perl_group(c: u8) -> Option<(Group, bool)> {
    const DIGIT: Group = &[('0', '9')];
    const SPACE: Group = &[('\t', '\n'), ('\x0C', '\r'), (' ', ' ')];
    const WORD: Group = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
    Some(match c {
        b'd' => (DIGIT, false),
        b'D' => (DIGIT, true),
        b's' => (SPACE, false),
        b'S' => (SPACE, true),
        b'w' => (WORD, false),
        b'W' => (WORD, true),
        _ => return None,
    })
}

/// `[:name:]` / `[:^name:]` (Go's `posixGroup`), given the text between the brackets.
pub(super) fn posix_group(name: &str) -> Option<(Group, bool)> {
    let (negated, name) = match name.strip_prefix('^') {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    let group: Group = match name {
        "alnum" => &[('0', '9'), ('A', 'Z'), ('a', 'z')],
        "alpha" => &[('A', 'Z'), ('a', 'z')],
        "ascii" => &[('\0', '\x7F')],
        "blank" => &[('\t', '\t'), (' ', ' ')],
        "cntrl" => &[('\0', '\x1F'), ('\x7F', '\x7F')],
        "digit" => &[('0', '9')],
        "graph" => &[('!', '~')],
        "lower" => &[('a', 'z')],
        "print" => &[(' ', '~')],
        "punct" => &[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        "space" => &[('\t', '\r'), (' ', ' ')],
        "upper" => &[('A', 'Z')],
        "word" => &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')],
        "xdigit" => &[('0', '9'), ('A', 'F'), ('a', 'f')],
        _ => return None,
    };
    Some((group, negated))
}

/// The class of a group.
pub(super) fn group_class(group: Group) -> ClassUnicode {
    ClassUnicode::new(group.iter().map(|&(lo, hi)| ClassUnicodeRange::new(lo, hi)))
}

/// Go's `unicode.Categories` (with `Cn`, new in Go 1.25).
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn",
    "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm",
    "So", "Z", "Zl", "Zp", "Zs",
];

/// Go 1.25's `unicode.CategoryAliases`: the long names of the general categories
/// (Unicode's `PropertyValueAliases.txt`).
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Cased_Letter", "LC"),
    ("Close_Punctuation", "Pe"),
    ("Combining_Mark", "M"),
    ("Connector_Punctuation", "Pc"),
    ("Control", "Cc"),
    ("cntrl", "Cc"),
    ("Currency_Symbol", "Sc"),
    ("Dash_Punctuation", "Pd"),
    ("Decimal_Number", "Nd"),
    ("digit", "Nd"),
    ("Enclosing_Mark", "Me"),
    ("Final_Punctuation", "Pf"),
    ("Format", "Cf"),
    ("Initial_Punctuation", "Pi"),
    ("Letter", "L"),
    ("Letter_Number", "Nl"),
    ("Line_Separator", "Zl"),
    ("Lowercase_Letter", "Ll"),
    ("Mark", "M"),
    ("Math_Symbol", "Sm"),
    ("Modifier_Letter", "Lm"),
    ("Modifier_Symbol", "Sk"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Open_Punctuation", "Ps"),
    ("Other", "C"),
    ("Other_Letter", "Lo"),
    ("Other_Number", "No"),
    ("Other_Punctuation", "Po"),
    ("Other_Symbol", "So"),
    ("Paragraph_Separator", "Zp"),
    ("Private_Use", "Co"),
    ("Punctuation", "P"),
    ("punct", "P"),
    ("Separator", "Z"),
    ("Space_Separator", "Zs"),
    ("Spacing_Mark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecase_Letter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercase_Letter", "Lu"),
];

/// Go's `unicode.Scripts` (Unicode 15.0.0).
const SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];

/// Go's `canonicalName` as a comparison key: ASCII case ignored, spaces, underscores and
/// hyphens dropped.
fn loose(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// A class from `regex-syntax`'s tables by its property syntax (`gc=Lu`, `sc=Greek`).
fn property(spec: &str) -> Option<ClassUnicode> {
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&format!("\\p{{{spec}}}"))
        .ok()?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Some(c.clone()),
        // A class of one character (`Zl`, `Zp`) comes back as a literal.
        HirKind::Literal(lit) => {
            let c = std::str::from_utf8(&lit.0).ok()?.chars().next()?;
            Some(ClassUnicode::new([ClassUnicodeRange::new(c, c)]))
        }
        _ => None,
    }
}

/// A general category as Go's table holds it. Go's `C` (and its alias `Other`) has no
/// unassigned code points (`Cn` is its own table).
fn category(short: &str) -> Option<ClassUnicode> {
    // Surrogates are no scalar values: no text holds one, and `regex-syntax` has no class
    // for them.
    if short == "Cs" {
        return Some(ClassUnicode::empty());
    }
    if short == "C" {
        let mut c = ClassUnicode::empty();
        for part in ["Cc", "Cf", "Co"] {
            c.union(&property(&format!("gc={part}"))?);
        }
        return Some(c);
    }
    property(&format!("gc={short}"))
}

/// Go's `unicodeTable(name)`: the class of a `\p{name}` and whether Go's table is the
/// complement (`Assigned` is the negation of `Cn`). `None` when Go knows no such name.
pub(super) fn unicode_table(name: &str) -> Option<(ClassUnicode, bool)> {
    let key = loose(name);
    match key.as_str() {
        "any" => {
            return Some((
                ClassUnicode::new([ClassUnicodeRange::new('\0', char::MAX)]),
                false,
            ));
        }
        "assigned" => return Some((category("Cn")?, true)),
        "ascii" => {
            return Some((
                ClassUnicode::new([ClassUnicodeRange::new('\0', '\x7F')]),
                false,
            ));
        }
        "lc" => return Some((category("LC")?, false)),
        _ => {}
    }
    if let Some(short) = CATEGORIES.iter().find(|c| loose(c) == key) {
        return Some((category(short)?, false));
    }
    if let Some(script) = SCRIPTS.iter().find(|s| loose(s) == key) {
        return Some((property(&format!("sc={script}"))?, false));
    }
    let (_, short) = CATEGORY_ALIASES
        .iter()
        .find(|(alias, _)| loose(alias) == key)?;
    Some((category(short)?, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_go_name_resolves() {
        for name in CATEGORIES
            .iter()
            .chain(SCRIPTS)
            .chain(CATEGORY_ALIASES.iter().map(|(a, _)| a))
        {
            assert!(unicode_table(name).is_some(), "{name}");
        }
        for name in [
            "Any",
            "ASCII",
            "Assigned",
            "LC",
            "upper case-let ter",
            "__Lu",
            "old italic",
        ] {
            assert!(unicode_table(name).is_some(), "{name}");
        }
        // Names regex-syntax knows but Go does not.
        for name in [
            "Alphabetic",
            "isGreek",
            "Garay",
            "Emoji",
            "sc=Greek",
            "Greek_And_Coptic",
        ] {
            assert!(unicode_table(name).is_none(), "{name}");
        }
        // Go's C has no unassigned code points.
        let (c, _) = unicode_table("C").unwrap();
        let (cn, _) = unicode_table("Cn").unwrap();
        let mut both = c.clone();
        both.intersect(&cn);
        assert!(both.ranges().is_empty());
        assert!(!cn.ranges().is_empty());
    }
}
