//! Errors of reading and writing `profile.mon` files, with messages meant for users.

use std::path::PathBuf;

use thiserror::Error;

/// Why the bytes of a file are not a readable profile.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FormatProblem {
    /// The file has no bytes at all.
    #[error("the file is empty (the host may have been stopped before profiling started)")]
    Empty,
    /// The file does not start with the `profile.mon` magic number.
    #[error("not an fpgacl profile.mon file (unrecognised magic number)")]
    NotAProfile,
    /// The file ends before its version and header are complete.
    #[error(
        "the file ends inside its header ({len} bytes): the writer was stopped while creating it"
    )]
    TruncatedHeader {
        /// File length in bytes.
        len: usize,
    },
    /// Written by a newer fpgacl whose format this reader cannot decode.
    #[error(
        "written with profile format {file_major}.{file_minor}, newer than this fpgacl \
         understands (format {supported_major}.x); upgrade fpgacl to read it"
    )]
    NewerMajor {
        /// Major version in the file.
        file_major: u16,
        /// Minor version in the file.
        file_minor: u16,
        /// Major version this reader reads.
        supported_major: u16,
    },
    /// Written by an old format this reader no longer decodes.
    #[error(
        "written with profile format {file_major}.{file_minor}, older than any this fpgacl \
         reads (format {supported_major}.x)"
    )]
    OlderMajor {
        /// Major version in the file.
        file_major: u16,
        /// Minor version in the file.
        file_minor: u16,
        /// Major version this reader reads.
        supported_major: u16,
    },
    /// The header frame is damaged or missing.
    #[error("damaged header: {0}")]
    BadHeader(String),
    /// A frame in the body is damaged (reported when appending: frames written after it would
    /// be unreadable, and cutting the file there would destroy the frames that follow).
    #[error("damaged frame at byte {offset} ({reason}); not appending to a damaged file")]
    DamagedBody {
        /// Offset of the damaged frame.
        offset: u64,
        /// What is wrong with it.
        reason: String,
    },
}

/// Error of [`crate::read_profile`] and friends.
#[derive(Debug, Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("cannot read profile {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file's bytes are not a readable profile.
    #[error("cannot read profile {}: {problem}", path.display())]
    Format {
        /// The file (`<memory>` for in-memory reads).
        path: PathBuf,
        /// What is wrong.
        problem: FormatProblem,
    },
}

impl ReadError {
    /// The format problem, if the error is not an I/O error.
    pub fn problem(&self) -> Option<&FormatProblem> {
        match self {
            ReadError::Format { problem, .. } => Some(problem),
            ReadError::Io { .. } => None,
        }
    }
}

/// Error of [`crate::ProfileWriter`].
#[derive(Debug, Error)]
pub enum WriteError {
    /// Creating, opening or writing the file failed.
    #[error("cannot write profile {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The existing file cannot be appended to.
    #[error("cannot append to profile {}: {problem}", path.display())]
    Append {
        /// The file.
        path: PathBuf,
        /// Why (e.g. it is not a profile, or a newer major format).
        problem: FormatProblem,
    },
    /// Another writer (another process, or another writer of this one) holds the file's lock:
    /// it is being written, and writing it too would mix or lose data.
    #[error("profile {} is being written by another process (its lock is held)", path.display())]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// A value could not be encoded (should not happen for the model's types).
    #[error("cannot encode a profile frame: {0}")]
    Encode(String),
    /// The encoded frame is larger than the format allows.
    #[error("profile frame of {len} bytes exceeds the {max} byte limit")]
    FrameTooLarge {
        /// Encoded length.
        len: usize,
        /// Limit.
        max: usize,
    },
}
