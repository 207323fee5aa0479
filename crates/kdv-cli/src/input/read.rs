//! Reading a file or standard input with a size cap, and handing out its documents.
//!
//! Limits (decision): `--max-size` (default 3 MiB, the API server's request body limit)
//! caps each *document*, as the API server caps each object; a multi-document file may be
//! larger as long as each document fits. A file or stream is read whole, up to
//! [`ReadLimits::max_stream`] (256 MiB, or `--max-size` when larger); past that nothing of
//! it is validated. A `.json` file holds one document, so it is read up to `--max-size`
//! only. Reads never go further than the cap, so `/dev/zero` through a FIFO or a pipe ends
//! in an error, not in exhausted memory.
//!
//! Encoding (decision): UTF-8, or UTF-16 (either byte order) after a byte order mark,
//! transcoded as kubectl transcodes files (`kdv_manifest::transcode_utf16`; standard input
//! too: a BOM is unambiguous). UTF-16 without a BOM is not guessed: its NUL bytes are
//! reported as such.

use std::fs;
use std::io::Read;

use kdv_manifest::{DocumentError, Entry, ErrorKind, Limits, Syntax, format_size};

use super::{InputError, Source};

/// Most bytes read from one file or stream when `--max-size` is smaller.
pub const DEFAULT_MAX_STREAM_BYTES: usize = 256 << 20;

/// How much is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Largest document (`--max-size`).
    pub max_document: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_document: kdv_manifest::DEFAULT_MAX_DOCUMENT_BYTES,
        }
    }
}

impl ReadLimits {
    /// Most bytes read from one YAML file or stream.
    pub fn max_stream(&self) -> usize {
        DEFAULT_MAX_STREAM_BYTES.max(self.max_document)
    }

    fn manifest_limits(&self) -> Limits {
        Limits {
            max_document_bytes: self.max_document,
            ..Limits::default()
        }
    }
}

/// The bytes of one file or of standard input.
#[derive(Debug, Clone)]
pub struct Stream {
    /// The name used in messages.
    pub name: String,
    /// How its text is read.
    pub syntax: Syntax,
    bytes: Vec<u8>,
    limits: ReadLimits,
}

impl Stream {
    /// Reads `source`, up to the cap its syntax allows.
    pub fn read(source: &Source, limits: ReadLimits) -> Result<Stream, InputError> {
        let name = source.display_name();
        let syntax = source.syntax();
        let cap = match syntax {
            Syntax::Json => limits.max_document,
            Syntax::Yaml => limits.max_stream(),
        };
        let cannot = |e: std::io::Error| InputError::file(&name, format!("cannot read: {e}"));
        let too_large = || {
            let hint = match syntax {
                Syntax::Json => "--max-size to raise the limit".to_string(),
                Syntax::Yaml if cap > limits.max_document => format!(
                    "the most kdv reads from one file or stream; --max-size above {} raises it",
                    format_size(cap)
                ),
                Syntax::Yaml => "--max-size to raise the limit".to_string(),
            };
            InputError::file(&name, format!("larger than {} ({hint})", format_size(cap)))
        };
        let mut bytes = Vec::new();
        match source {
            Source::Stdin => {
                read_capped(std::io::stdin().lock(), cap, &mut bytes).map_err(cannot)?;
            }
            Source::File(path) => {
                let file = fs::File::open(path).map_err(cannot)?;
                // The plan checked the kind of file, but it may have been replaced since.
                let meta = file.metadata().map_err(cannot)?;
                if let Some(kind) = super::discover::special_kind(&meta.file_type())
                    && kind != "FIFO"
                {
                    return Err(InputError::file(
                        &name,
                        format!("is a {kind}, not a file; kdv reads files, FIFOs and `-`"),
                    ));
                }
                if meta.is_file() && meta.len() > cap as u64 {
                    return Err(too_large());
                }
                if meta.is_file() {
                    // Room for the whole file and the byte that would make it too large: read in
                    // one call (a `Take` hides the size, and read_to_end then probes and grows
                    // in small steps: 7-8 reads a manifest).
                    bytes.reserve_exact(meta.len() as usize + 1);
                }
                read_capped(file, cap, &mut bytes).map_err(cannot)?;
            }
        }
        if bytes.len() > cap {
            return Err(too_large());
        }
        if let Some(text) = kdv_manifest::transcode_utf16(&bytes) {
            bytes = text;
        }
        Ok(Stream {
            name,
            syntax,
            bytes,
            limits,
        })
    }

    /// A stream of bytes read elsewhere (an old revision from git), named `name`.
    pub fn from_bytes(name: String, syntax: Syntax, bytes: Vec<u8>, limits: ReadLimits) -> Stream {
        let bytes = kdv_manifest::transcode_utf16(&bytes).unwrap_or(bytes);
        Stream {
            name,
            syntax,
            bytes,
            limits,
        }
    }

    /// The bytes read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The stream's documents, parsed one at a time as the iterator reaches them; a
    /// document that cannot be read is an input error and the others are still produced.
    pub fn documents(&self) -> impl Iterator<Item = Result<Entry<'_>, InputError>> + '_ {
        kdv_manifest::documents(&self.bytes, self.syntax, self.limits.manifest_limits())
            .map(|entry| entry.map_err(|e| self.error(e)))
    }

    fn error(&self, e: DocumentError) -> InputError {
        let mut message = e.message;
        if e.kind == ErrorKind::TooLarge {
            message.push_str(" (--max-size to raise the limit)");
        }
        InputError::document(&self.name, e.index, e.position, message)
    }
}

/// Reads at most `cap + 1` bytes (one more than allowed tells "too large" from "exactly
/// the cap").
fn read_capped(reader: impl Read, cap: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
    let limit = u64::try_from(cap).unwrap_or(u64::MAX).saturating_add(1);
    reader.take(limit).read_to_end(out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stop_at_the_cap() {
        let mut out = Vec::new();
        read_capped(std::io::repeat(b'x'), 10, &mut out).unwrap();
        assert_eq!(out.len(), 11);
        let limits = ReadLimits { max_document: 100 };
        assert_eq!(limits.max_stream(), DEFAULT_MAX_STREAM_BYTES);
        let big = ReadLimits {
            max_document: 1 << 30,
        };
        assert_eq!(big.max_stream(), 1 << 30);
    }
}
