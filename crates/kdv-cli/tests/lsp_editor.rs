//! A real editor as `kdv lsp`'s client: Neovim (Debian's package, which `.ci/run` installs)
//! in headless mode starts the server with its built-in LSP client, opens a CRD with a
//! mistyped rule and a manifest with an unknown field, and writes the diagnostics it
//! received to a file this test reads. Without Neovim the test prints SKIPPED, unless
//! KDV_REQUIRE_EDITOR=1 (as `.ci/run` sets), where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use kdv_test_support::Scratch;
use serde_json::Value;

/// The Gizmo CRD of `lsp.rs`.
const CRD: &str = include_str!("fixtures/lsp/gizmo-crd.yaml");

/// The CRD without its first (valid) rule: the mistyped rule is the first, on line 20.
fn crd_with_one_rule() -> String {
    let first = "            - rule: \"self.size <= self.maxSize\"\n";
    assert!(CRD.contains(first), "the fixture's first rule");
    CRD.replacen(first, "", 1)
}

/// A Deployment with a misspelled field (`imagePullPolice`, line 14).
const DEPLOYMENT: &str = include_str!("fixtures/lsp/deployment.yaml");

/// The editor's script: attach the server to each file, wait for its diagnostics, write
/// them out, quit.
const INIT_LUA: &str = r#"
local dir = os.getenv("KDV_WORK")
local out = {}
local client = vim.lsp.start_client({
  name = "kdv",
  cmd = { os.getenv("KDV_BIN"), "lsp" },
  root_dir = dir,
  init_options = { kubernetesVersion = "1.35" },
})
local function check(file)
  vim.cmd("edit " .. dir .. "/" .. file)
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client)
  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, { file = file, lnum = d.lnum, col = d.col, end_col = d.end_col,
      severity = d.severity, source = d.source, message = d.message })
  end
end
check("gizmo-crd.yaml")
check("deploy.yaml")
local f = io.open(dir .. "/diagnostics.json", "w")
f:write(vim.fn.json_encode(out))
f:close()
vim.lsp.stop_client(client)
vim.cmd("qa!")
"#;

fn nvim() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("nvim"))
        .find(|p| p.is_file())
}

#[test]
fn neovim_receives_the_diagnostics() {
    let Some(nvim) = nvim() else {
        assert!(
            std::env::var("KDV_REQUIRE_EDITOR").as_deref() != Ok("1"),
            "KDV_REQUIRE_EDITOR=1 but nvim is not on PATH"
        );
        println!("SKIPPED: nvim is not on PATH (Debian package neovim)");
        return;
    };
    let scratch = Scratch::new("nvim");
    let dir = scratch.path();
    std::fs::write(dir.join("gizmo-crd.yaml"), crd_with_one_rule()).unwrap();
    std::fs::write(dir.join("deploy.yaml"), DEPLOYMENT).unwrap();
    std::fs::write(dir.join("init.lua"), INIT_LUA).unwrap();
    let status = Command::new(&nvim)
        .args(["--headless", "--clean", "-u"])
        .arg(dir.join("init.lua"))
        .env("KDV_WORK", dir)
        .env("KDV_BIN", env!("CARGO_BIN_EXE_kdv"))
        .env("XDG_STATE_HOME", dir)
        .env("XDG_DATA_HOME", dir)
        .current_dir(dir)
        .status()
        .expect("nvim runs");
    assert!(status.success(), "nvim: {status}");
    let found = read(&dir.join("diagnostics.json"));
    assert_eq!(
        found,
        [
            (
                "gizmo-crd.yaml".to_string(),
                19,
                24,
                29,
                "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: compilation failed: ERROR: <input>:1:5: undefined field 'sise'".to_string()
            ),
            (
                "deploy.yaml".to_string(),
                14,
                8,
                23,
                r#"unknown field "spec.template.spec.containers[0].imagePullPolice""#.to_string()
            ),
        ]
    );
}

/// (file, line, column, end column, message) of each diagnostic, all errors from kdv.
fn read(path: &Path) -> Vec<(String, u64, u64, u64, String)> {
    let text = std::fs::read_to_string(path).expect("the editor wrote its diagnostics");
    let all: Value = serde_json::from_str(&text).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["severity"], 1, "{d}");
            assert_eq!(d["source"], "kdv", "{d}");
            (
                d["file"].as_str().unwrap().to_string(),
                d["lnum"].as_u64().unwrap(),
                d["col"].as_u64().unwrap(),
                d["end_col"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}
