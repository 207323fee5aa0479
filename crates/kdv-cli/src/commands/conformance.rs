//! `kdv conformance validation-gen`: upstream's validation-gen tests against kdv (the
//! harness is `kdv-conformance`).

use std::io::Write;

use crate::cli::ConformanceCommand;
use crate::error::CliError;

/// Runs the suite named by the subcommand and writes its report on `out`.
pub fn run(cmd: &ConformanceCommand, out: &mut dyn Write) -> Result<u8, CliError> {
    match cmd {
        ConformanceCommand::ValidationGen(args) => {
            let code = kdv_conformance::cli::run_command(
                std::env::var_os(kdv_conformance::cli::CODEGEN_ENV),
                args.verbose,
                args.package.clone(),
                out,
            )?;
            Ok(u8::try_from(code).unwrap_or(2))
        }
    }
}
