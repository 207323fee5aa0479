//! `kdv conformance validation-gen`: upstream's validation-gen tests against kdv (the
//! harness is `kdv-conformance`); `kdv conformance cel-spec`: the cel-spec suite against
//! `kdv-cel`.

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
        ConformanceCommand::CelSpec(args) => {
            let mut forwarded = vec!["--data".to_string(), args.data.display().to_string()];
            if args.verbose {
                forwarded.push("--verbose".into());
            }
            if let Some(file) = &args.file {
                forwarded.extend(["--file".to_string(), file.clone()]);
            }
            let code = kdv_cel::conformance::conformance_main(&forwarded, out);
            Ok(u8::try_from(code).unwrap_or(2))
        }
    }
}
