//! `kdv completions` and `kdv man`: shell completion scripts and man pages generated from the
//! clap definitions (`cli::command`), so they never drift from what the binary parses.

use std::io::Write;

use crate::cli::{self, CompletionsArgs, ManArgs};
use crate::error::CliError;

/// `kdv completions SHELL`: the completion script on `out`.
pub fn completions(args: &CompletionsArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let mut command = cli::command();
    // clap_complete panics when its writer fails (a closed pipe): it writes to memory, and
    // a failed write to `out` is an error like any other output error.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "kdv", &mut script);
    out.write_all(&script)?;
    Ok(0)
}

/// `kdv man [--dir DIR]`: kdv's page on `out`, or every command's page written into DIR.
pub fn man(args: &ManArgs, out: &mut dyn Write) -> Result<u8, CliError> {
    let command = cli::command();
    let Some(dir) = &args.dir else {
        clap_mangen::Man::new(command).render(out)?;
        return Ok(0);
    };
    let failed = |e: std::io::Error| {
        CliError::Usage(format!("man --dir {}: {e}", crate::file_name::display(dir)))
    };
    std::fs::create_dir_all(dir).map_err(failed)?;
    clap_mangen::generate_to(command, dir).map_err(failed)?;
    Ok(0)
}
