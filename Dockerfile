# syntax=docker/dockerfile:1
#
# The kdv image: `kdv serve` (the admission webhook of deploy/) by default, and the CLI for
# anything else: `docker run --rm -v "$PWD:/work" -w /work kdv:0.1.0 validate manifests/`.
#
#   docker build -t kdv:0.1.0 .
#
# Builder and runtime share Debian 12 (bookworm), so the glibc the binary links against is
# the one it runs with.
FROM rust:1.95-bookworm AS builder
WORKDIR /src
COPY . .
# The build scripts of kdv-k8s-openapi and kdv-k8s-api embed testdata/kubernetes-openapi and
# testdata/kubernetes-api (.dockerignore keeps them in the context).
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    cargo build --release -p kdv-cli --locked \
    && install -D -m 0755 target/release/kdv /out/kdv

# distroless "cc": glibc and libgcc, no shell, no package manager; its nonroot user is 65532.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=builder /out/kdv /usr/local/bin/kdv
USER 65532:65532
EXPOSE 8443
ENTRYPOINT ["/usr/local/bin/kdv"]
CMD ["serve", "--listen", "0.0.0.0:8443", "--tls-cert", "/etc/kdv/tls/tls.crt", "--tls-key", "/etc/kdv/tls/tls.key"]
