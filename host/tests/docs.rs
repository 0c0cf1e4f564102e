//! The command samples in the README and README-host (```console blocks)
//! run as tests, from the workspace root as the documents show them, so a
//! stale sample fails CI. `[..]` stands for figures that change between runs.

#[test]
fn readme_samples() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::set_current_dir(&root).expect("the workspace root");
    trycmd::TestCases::new()
        .register_bin("nonohost", trycmd::cargo::cargo_bin!("nonohost"))
        .case("README.md")
        .case("host/README-host.md");
}
