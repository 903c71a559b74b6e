//! Where the reader gets bytes from: a file read piece by piece with positioned reads (so a
//! big profile is never held in memory whole), or bytes already in memory.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

/// Random-access bytes the reader walks.
pub(crate) trait Source: Sync {
    /// Total length in bytes (at the time reading started).
    fn len(&self) -> u64;

    /// The bytes `[off, off + len)`, or fewer if the source ends first. Borrowed when the
    /// source is in memory, read into `buf` otherwise.
    fn bytes<'a>(&'a self, off: u64, len: usize, buf: &'a mut Vec<u8>) -> io::Result<&'a [u8]>;

    /// Preferred size of one read.
    fn piece_len(&self) -> usize;
}

impl Source for [u8] {
    fn len(&self) -> u64 {
        <[u8]>::len(self) as u64
    }

    fn bytes<'a>(&'a self, off: u64, len: usize, _buf: &'a mut Vec<u8>) -> io::Result<&'a [u8]> {
        let start = (off.min(<[u8]>::len(self) as u64)) as usize;
        let end = start.saturating_add(len).min(<[u8]>::len(self));
        Ok(&self[start..end])
    }

    fn piece_len(&self) -> usize {
        usize::MAX
    }
}

/// A file and the length it had when reading started (growth after that is ignored).
pub(crate) struct FileSource {
    pub file: File,
    pub len: u64,
    /// Size of one read ([`FILE_PIECE`] except in tests of the piece boundaries).
    pub piece: usize,
}

impl FileSource {
    /// A source reading `file` (of length `len`) in pieces of [`FILE_PIECE`].
    pub fn new(file: File, len: u64) -> Self {
        FileSource {
            file,
            len,
            piece: FILE_PIECE,
        }
    }
}

/// Pieces of 8 MiB: large enough that system calls cost nothing, small enough to stay in
/// cache and keep memory flat.
pub(crate) const FILE_PIECE: usize = 8 << 20;

impl Source for FileSource {
    fn len(&self) -> u64 {
        self.len
    }

    fn bytes<'a>(&'a self, off: u64, len: usize, buf: &'a mut Vec<u8>) -> io::Result<&'a [u8]> {
        let len = (len as u64).min(self.len.saturating_sub(off)) as usize;
        // Reuse the buffer without zeroing it again: the read overwrites what it returns.
        if buf.len() < len {
            buf.resize(len, 0);
        } else {
            buf.truncate(len);
        }
        let mut got = 0;
        while got < len {
            match self.file.read_at(&mut buf[got..], off + got as u64) {
                Ok(0) => break, // the file shrank since reading started
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        buf.truncate(got);
        Ok(&buf[..])
    }

    fn piece_len(&self) -> usize {
        self.piece.max(1)
    }
}

/// Bytes in memory served in pieces of a given size, copied like file reads: lets tests and
/// the fuzzer drive the piece logic of the file path without I/O.
pub(crate) struct Pieces<'b> {
    pub bytes: &'b [u8],
    pub piece: usize,
}

impl Source for Pieces<'_> {
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn bytes<'a>(&'a self, off: u64, len: usize, buf: &'a mut Vec<u8>) -> io::Result<&'a [u8]> {
        let mut scratch = Vec::new();
        let s = <[u8] as Source>::bytes(self.bytes, off, len, &mut scratch)?;
        buf.clear();
        buf.extend_from_slice(s);
        Ok(&buf[..])
    }

    fn piece_len(&self) -> usize {
        self.piece.max(1)
    }
}
