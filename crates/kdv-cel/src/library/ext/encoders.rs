//! cel-go's encoders extension (`ext.Encoders`, `cel.lib.ext.encoders`): `base64.encode`,
//! `base64.decode`. Not part of the Kubernetes environment; used by the cel-spec conformance
//! environment.

use std::sync::Arc;

use crate::library::{
    CallCtx, Declarations, Functions, Library, Overload, ParamType as P, cached, g, nso,
};
use crate::types::Type;
use crate::value::{EvalError, Value};

/// The library's name.
const NAME: &str = "cel.lib.ext.encoders";

/// The library.
pub fn library() -> Library {
    Library::new(NAME, 0, |_| declarations(), |_| functions())
}

// ---- declarations ------------------------------------------------------------------------

/// cel-go's encoders extension (`ext.Encoders`). Not part of Kubernetes' environment.
pub fn declarations() -> Arc<Declarations> {
    cached("encoders", 0, |_| {
        let mut lib = Declarations::new(NAME);
        lib.function(
            "base64.decode",
            vec![g("base64_decode_string", vec![Type::String], Type::Bytes)],
        );
        lib.function(
            "base64.encode",
            vec![g("base64_encode_bytes", vec![Type::Bytes], Type::String)],
        );
        lib
    })
}

// ---- implementations and runtime costs ----------------------------------------------

type R<'a> = Result<Value<'a>, EvalError>;

/// Standard base64 with padding.
pub fn base64_encode(data: &[u8]) -> String {
    kdv_runtime::gofmt::base64_std(data)
}

/// Standard base64, padded or unpadded; `None` on invalid input.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let trimmed = match bytes.iter().rposition(|&b| b != b'=') {
        Some(p) => &bytes[..=p],
        None => &bytes[..0],
    };
    let pad = bytes.len() - trimmed.len();
    if pad > 2 || (pad > 0 && !bytes.len().is_multiple_of(4)) {
        return None;
    }
    if trimmed.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(trimmed.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for &c in trimmed {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = acc << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // Leftover bits must be zero (canonical encoding, as Go's strict decoder requires).
    if acc != 0 {
        return None;
    }
    Some(out)
}

fn encode<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::Bytes(b) => Ok(Value::string(base64_encode(b))),
        _ => Err(nso()),
    }
}

fn decode<'a>(_: &CallCtx<'_>, a: &[Value<'a>]) -> R<'a> {
    match &a[0] {
        Value::String(s) => base64_decode(s)
            .map(Value::bytes)
            .ok_or_else(|| EvalError::new("illegal base64 data")),
        _ => Err(nso()),
    }
}

/// The encoders extension.
pub fn functions() -> Functions {
    Functions {
        name: NAME,
        overloads: vec![
            Overload::new(
                "base64_encode_bytes",
                "base64.encode",
                false,
                &[P::BYTES],
                encode,
            ),
            Overload::new(
                "base64_decode_string",
                "base64.decode",
                false,
                &[P::STRING],
                decode,
            ),
        ],
        regex_functions: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "",
            "f",
            "fo",
            "foo",
            "foob",
            "fooba",
            "foobar",
            "hello world\u{1}",
        ] {
            let e = base64_encode(s.as_bytes());
            assert_eq!(base64_decode(&e).unwrap(), s.as_bytes(), "{e}");
            assert_eq!(
                base64_decode(e.trim_end_matches('=')).unwrap(),
                s.as_bytes()
            );
        }
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert!(base64_decode("a").is_none());
        assert!(base64_decode("aGVsbG9=").is_none());
        assert!(base64_decode("!!!!").is_none());
    }
}
