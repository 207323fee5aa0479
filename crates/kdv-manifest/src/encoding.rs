//! Text encodings other than UTF-8: UTF-16 with a byte order mark, as kubectl reads files
//! (`unicode.BOMOverride` of golang.org/x/text: a UTF-16 BOM selects UTF-16 of that byte
//! order; anything else is read as UTF-8).

/// The UTF-8 text of a UTF-16 stream that starts with a byte order mark (little-endian
/// `FF FE`, big-endian `FE FF`), the mark dropped; `None` for any other stream. An unpaired
/// surrogate or a trailing odd byte becomes U+FFFD, as Go's decoder makes it.
pub fn transcode_utf16(bytes: &[u8]) -> Option<Vec<u8>> {
    let little = match bytes {
        [0xFF, 0xFE, ..] => true,
        [0xFE, 0xFF, ..] => false,
        _ => return None,
    };
    let body = &bytes[2..];
    let units = body.chunks_exact(2).map(|pair| {
        let pair = [pair[0], pair[1]];
        if little {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    let mut text = String::with_capacity(body.len() / 2 * 3 / 2);
    text.extend(char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)));
    if body.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Some(text.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, little: bool) -> Vec<u8> {
        let mut bytes = if little {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for unit in text.encode_utf16() {
            bytes.extend(if little {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        bytes
    }

    #[test]
    fn item_10_utf16_with_a_bom_is_transcoded() {
        let text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: \"é😀\"\n";
        for little in [true, false] {
            assert_eq!(
                transcode_utf16(&utf16(text, little)).unwrap(),
                text.as_bytes()
            );
        }
        assert_eq!(transcode_utf16(text.as_bytes()), None);
        assert_eq!(transcode_utf16(b"\xEF\xBB\xBFa: 1"), None);
        // An unpaired surrogate and an odd trailing byte.
        assert_eq!(
            transcode_utf16(&[0xFF, 0xFE, 0x00, 0xD8, b'a', 0, 7]).unwrap(),
            "\u{FFFD}a\u{FFFD}".as_bytes()
        );
    }
}
