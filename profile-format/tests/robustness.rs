//! The reader never panics, whatever the bytes; damaged valid files read back to a prefix of
//! what was written.

use fpgacl_profile_format::*;
use proptest::prelude::*;

fn original_records() -> Vec<Record> {
    (0..8).map(sample::record).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let _ = read_profile_bytes(&bytes);
        // Same bytes behind a valid magic, to get past the first check.
        let mut with_magic = frame::prefix(FORMAT_MAJOR, FORMAT_MINOR).to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = read_profile_bytes(&with_magic);
    }

    #[test]
    fn constructed_inputs_never_panic(input in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let file = fuzzing::file_from_input(&input);
        fuzzing::exercise(&file);
    }

    #[test]
    fn damaged_files_read_a_prefix(
        flips in proptest::collection::vec((any::<u16>(), 1u8..=255), 0..4),
        cut in proptest::option::of(any::<u16>()),
    ) {
        let original = fuzzing::sample_file(8);
        let mut boundaries = vec![];
        frame::scan(&original, frame::PREFIX_LEN, |f| boundaries.push(f.payload_start + f.payload_len));
        let mut file = original.clone();
        let len = file.len();
        for (pos, x) in &flips {
            file[*pos as usize % len] ^= x;
        }
        if let Some(c) = cut {
            file.truncate(c as usize % (len + 1));
        }
        match read_profile_bytes(&file) {
            Ok(p) => {
                let orig = original_records();
                prop_assert!(p.records.len() <= orig.len());
                prop_assert_eq!(&p.records[..], &orig[..p.records.len()]);
                if !p.truncated && p.warnings.is_empty() {
                    // Nothing reported lost or damaged: the file must be an undamaged prefix
                    // of the original ending exactly at a frame boundary.
                    prop_assert_eq!(&file[..], &original[..file.len()]);
                    prop_assert!(boundaries.contains(&file.len()));
                } else if p.truncated {
                    prop_assert!(!p.warnings.is_empty());
                }
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

#[test]
fn append_path_survives_damaged_files() {
    let dir = std::env::temp_dir().join(format!("fpgacl-pf-rob-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("damaged.mon");
    let base = fuzzing::sample_file(8);
    for i in 0..base.len() {
        let mut f = base.clone();
        f[i] ^= 0x5a;
        fuzzing::exercise_append(&f, &path).unwrap();
        // Whatever happened, the file still reads (or is refused with an error), no panic.
        let _ = read_profile(&path);
        let mut cut = base.clone();
        cut.truncate(i);
        fuzzing::exercise_append(&cut, &path).unwrap();
    }
}
