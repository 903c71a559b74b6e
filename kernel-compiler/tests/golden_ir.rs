//! Golden IR dumps (insta snapshots, reviewed) of representative kernels of the corpus.

use fpgacl_kernel_compiler::{build, dump::dump_module, SourceFile};
use std::path::Path;

fn dump(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/ok")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let out = build(
        &[SourceFile {
            name: file.to_string(),
            text,
        }],
        "",
    )
    .unwrap();
    let m = out
        .module
        .unwrap_or_else(|| panic!("{file} failed:\n{}", out.log));
    dump_module(&m)
}

macro_rules! golden {
    ($test:ident, $file:expr) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(stringify!($test), dump($file));
        }
    };
}

golden!(vector_add, "vector_add.cl");
golden!(shift_register_optimized, "shift_register_optimized.cl");
golden!(channels_producer_consumer, "guide_channels_vs_pipes_1.cl");
golden!(pipes_producer_consumer, "guide_channels_vs_pipes_2.cl");
golden!(nonblocking_channels, "guide_nb_channels.cl");
golden!(paper_listing4, "paper_listing4.cl");
golden!(kernel_attributes, "features_kernel_attrs.cl");
golden!(vector_update, "guide_vector_update.cl");
golden!(local_memory_banks, "localmem_banks.cl");
golden!(channel_arrays_autorun, "features_channels.cl");
