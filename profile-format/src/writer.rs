//! Writing a `profile.mon` as the host runs: [`ProfileWriter`].
//!
//! Durability policy: every `write_*` call encodes its whole frame into a reusable buffer and
//! hands it to the operating system in one `write_all` before returning; nothing is kept in a
//! user-space buffer. A host killed at any moment (even by SIGKILL) therefore loses at most the
//! frame being written, and the reader drops that incomplete frame. [`ProfileWriter::sync`]
//! additionally asks the OS to put the data on disk (only needed to survive a power loss).
//!
//! The writer is `Send + Sync`: a mutex serialises frames from several threads, so frames never
//! interleave. The file is opened in append mode, so frames also land whole at the end of the
//! file when two writers share it.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;

use crate::error::{FormatProblem, WriteError};
use crate::frame::{self, FrameKind, ScanEnd, PREFIX_LEN};
use crate::model::{Header, Program, Record, FORMAT_MAJOR, FORMAT_MINOR};
use crate::reader::{self, Fail};
use crate::source::FileSource;

/// Takes the exclusive advisory lock (`flock`) of a profile for as long as `file` stays open:
/// a second writer of the same file, in this process or another, gets
/// [`WriteError::Locked`] instead of truncating or interleaving with the first.
fn lock(file: &File, path: &Path) -> Result<(), WriteError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => Err(WriteError::Locked {
            path: path.to_path_buf(),
        }),
        Err(std::fs::TryLockError::Error(source)) => Err(WriteError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Appends frames to a `profile.mon` file. See the module documentation for the durability
/// and threading guarantees.
#[derive(Debug)]
pub struct ProfileWriter {
    path: PathBuf,
    header: Header,
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    file: File,
    /// Reused encoding buffer: steady-state writes do not allocate.
    buf: Vec<u8>,
}

impl ProfileWriter {
    /// Creates (or truncates) `path` and writes the prefix and `header`. The header's format
    /// version fields are set to this crate's version.
    pub fn create(path: impl AsRef<Path>, header: &Header) -> Result<Self, WriteError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| WriteError::Io {
            path: path.clone(),
            source,
        };
        let mut header = header.clone();
        header.format_major = FORMAT_MAJOR;
        header.format_minor = FORMAT_MINOR;
        let mut buf = Vec::with_capacity(4096);
        buf.extend_from_slice(&frame::prefix(FORMAT_MAJOR, FORMAT_MINOR));
        frame::encode_frame(FrameKind::Header, &header, &mut buf)?;
        // Opened without truncating: the file is emptied only once this writer holds its lock,
        // so a profile another process is writing is never cut under it.
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(io)?;
        lock(&file, &path)?;
        file.set_len(0).map_err(io)?;
        file.write_all(&buf).map_err(io)?;
        buf.clear();
        Ok(ProfileWriter {
            path,
            header,
            inner: Mutex::new(Inner { file, buf }),
        })
    }

    /// Opens an existing profile to append records to it. The file must be a readable profile
    /// of this major version (any minor). If it ends with an incomplete frame (an earlier
    /// writer was killed mid-write), the file is cut back to its last whole frame first, so the
    /// new frames stay readable. A file with a damaged frame (bad checksum) is refused and
    /// left as it is.
    pub fn append(path: impl AsRef<Path>) -> Result<Self, WriteError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| WriteError::Io {
            path: path.clone(),
            source,
        };
        let refuse = |problem: FormatProblem| WriteError::Append {
            path: path.clone(),
            problem,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(io)?;
        // Checked (and released) before anything is cut; the append handle takes it again.
        lock(&file, &path)?;
        let len = file.metadata().map_err(io)?.len();
        let src = FileSource::new(file, len);
        let (_minor, header, body_start) = match reader::source_header(&src) {
            Ok(h) => h,
            Err(Fail::Format(p)) => return Err(refuse(p)),
            Err(Fail::Io(e)) => return Err(io(e)),
        };
        let end = reader::scan_source(&src, body_start, |_, _| {}).map_err(io)?;
        let valid = match end {
            ScanEnd::Clean => len,
            ScanEnd::Truncated { offset } => offset as u64,
            ScanEnd::Corrupt { offset, reason } => {
                return Err(refuse(FormatProblem::DamagedBody {
                    offset: offset as u64,
                    reason,
                }))
            }
        };
        if valid < len {
            src.file.set_len(valid).map_err(io)?;
        }
        drop(src);
        let file = OpenOptions::new().append(true).open(&path).map_err(io)?;
        lock(&file, &path)?;
        debug_assert!(valid >= PREFIX_LEN as u64);
        Ok(ProfileWriter {
            path,
            header,
            inner: Mutex::new(Inner {
                file,
                buf: Vec::with_capacity(4096),
            }),
        })
    }

    /// Appends to `path` if it already holds a profile, else creates it with `header`: a
    /// missing or empty file, or one cut off before its header was complete, is (re)created.
    /// A foreign file or one of another major version is refused, never overwritten.
    pub fn append_or_create(path: impl AsRef<Path>, header: &Header) -> Result<Self, WriteError> {
        let path = path.as_ref();
        let len = match std::fs::metadata(path) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(source) => {
                return Err(WriteError::Io {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        if len == 0 {
            return Self::create(path, header);
        }
        match Self::append(path) {
            Err(WriteError::Append {
                problem: FormatProblem::TruncatedHeader { .. },
                ..
            }) => Self::create(path, header),
            other => other,
        }
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's header (for an appended file, the one already in it).
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Appends a program (sources and static report).
    pub fn write_program(&self, program: &Program) -> Result<(), WriteError> {
        self.write_frame(FrameKind::Program, program)
    }

    /// Appends a record.
    pub fn write_record(&self, record: &Record) -> Result<(), WriteError> {
        self.write_frame(FrameKind::Record, record)
    }

    /// Appends several records with one write: either all of them reach the OS or, if the
    /// process dies during the write, a prefix of them is readable.
    pub fn write_records(&self, records: &[Record]) -> Result<(), WriteError> {
        let mut inner = self.lock();
        let Inner { file, buf } = &mut *inner;
        buf.clear();
        for r in records {
            frame::encode_frame(FrameKind::Record, r, buf)?;
        }
        let res = file.write_all(buf);
        shrink_if_huge(buf);
        res.map_err(|source| self.io_err(source))
    }

    /// Makes sure everything written so far has been handed to the OS. Every `write_*` call
    /// already does this before returning, so this only reports errors of the file handle.
    pub fn flush(&self) -> Result<(), WriteError> {
        self.lock()
            .file
            .flush()
            .map_err(|source| self.io_err(source))
    }

    /// Flushes and asks the OS to store the file durably (fsync).
    pub fn sync(&self) -> Result<(), WriteError> {
        let inner = self.lock();
        inner.file.sync_data().map_err(|source| self.io_err(source))
    }

    fn write_frame<T: Serialize>(&self, kind: FrameKind, value: &T) -> Result<(), WriteError> {
        let mut inner = self.lock();
        let Inner { file, buf } = &mut *inner;
        buf.clear();
        frame::encode_frame(kind, value, buf)?;
        let res = file.write_all(buf);
        shrink_if_huge(buf);
        res.map_err(|source| self.io_err(source))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic in another thread while holding the lock cannot leave a half-written frame
        // in the buffer that matters (it is cleared before use), so poisoning is ignored.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn io_err(&self, source: std::io::Error) -> WriteError {
        WriteError::Io {
            path: self.path.clone(),
            source,
        }
    }
}

/// Keeps one huge program frame from pinning its buffer for the rest of the session.
fn shrink_if_huge(buf: &mut Vec<u8>) {
    if buf.capacity() > (1 << 20) {
        buf.clear();
        buf.shrink_to(4096);
    }
}
