//! Every kernel of the corpus (the source documents' kernels, completed, and feature kernels)
//! compiles without errors or warnings, and each produces at least one kernel.

use fpgacl_kernel_compiler::{build, SourceFile};
use std::path::Path;

fn corpus_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ok");
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_kernel_compiles_cleanly() {
    let files = corpus_files();
    assert!(files.len() >= 30, "corpus too small: {}", files.len());
    let mut failures = vec![];
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let out = build(
            &[SourceFile {
                name: name.clone(),
                text,
            }],
            "",
        )
        .expect("options");
        match &out.module {
            Some(m) if out.diagnostics.is_empty() => {
                assert!(!m.kernels.is_empty(), "{name}: no kernels");
                for k in &m.kernels {
                    assert!(
                        !k.blocks.is_empty(),
                        "{name}: kernel {} has no blocks",
                        k.name
                    );
                }
            }
            _ => failures.push(format!("{name}:\n{}", out.log)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} corpus file(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn seed_kernels_are_all_present() {
    // The documents' kernels (by their names in the source documents) all appear in the corpus.
    let mut names = std::collections::BTreeSet::new();
    for f in corpus_files() {
        let text = std::fs::read_to_string(&f).unwrap();
        let out = build(
            &[SourceFile {
                name: "x.cl".into(),
                text,
            }],
            "",
        )
        .unwrap();
        if let Some(m) = out.module {
            for k in &m.kernels {
                names.insert(k.name.clone());
            }
        }
    }
    for want in [
        "accum_swg",
        "accum_ndr",
        "t",
        "big_lmem_4r_4w_nosplit",
        "matrix_square",
        "matrix_square_v1",
        "matrix_square_v2",
        "matrix_square_v3",
        "matrix_square_v4",
        "bank_arb_consecutive_multidim",
        "bank_arb_consecutive_multidim_origin",
        "structure",
        "order",
        "serially_execute",
        "simple_loop",
        "nd",
        "choose",
        "mirror_content",
        "burst_coalesced",
        "prefetching",
        "streaming",
        "semi_streaming",
        "local_pipelined",
        "global_infrequent",
        "constant_pipelined",
        "atomic_pipelined",
        "cached",
        "write_ack",
        "non_aligned",
        "never_stall",
        "producer",
        "consumer",
        "example",
        "test",
        "update",
        "myKernel",
        "add",
        "proc",
        "unoptimized",
        "optimized",
        "double_add_1",
        "double_add_2",
        "sum",
        "matrixMult",
        "bad_shift_reg",
        "baseline",
        "memory",
        "compute",
        "unsafe_mlcd",
    ] {
        assert!(
            names.contains(want),
            "kernel {want} missing from the corpus"
        );
    }
}
