//! The webhook's transport with a judge that does no work: it allows every object, and
//! panics on kind `Panic` (for fault runs). Its throughput and latency on a machine are the
//! floor under `kdv serve`'s (benches/serve/README.md):
//!
//! ```sh
//! cargo run --release -p kdv-serve --example floor_server -- 127.0.0.1:18443 cert.pem key.pem
//! ```

use std::sync::Arc;

use kdv_serve::{Config, Judge, Loader, Rules, Server, Subject, TlsFiles, Verdict};

fn judge(subject: &Subject<'_>) -> Verdict {
    if subject.kind.kind == "Panic" {
        panic!("a rule panicked (floor_server's kind Panic)");
    }
    Verdict::Checked {
        errors: Vec::new(),
        warnings: Vec::new(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [listen, cert, key] = args.as_slice() else {
        return Err("usage: floor_server LISTEN CERT KEY".into());
    };
    let mut config = Config::new(listen.parse()?);
    config.tls = Some(TlsFiles {
        cert: cert.into(),
        key: key.into(),
    });
    let loader: Loader = Arc::new(|| {
        Ok(Rules {
            live: Arc::new(judge) as Arc<dyn Judge>,
            candidate: None,
        })
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Server::bind(config, loader).await?;
        server
            .run(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
