//! Reading files safely on repositories pupcheck did not write: every read opens only a
//! regular file (a FIFO, a device or a directory is refused before a byte is read, and
//! opening never blocks) and stops at a size limit while reading, so a symlink to
//! `/dev/zero` or a FIFO planted where a `metadata.json` belongs can neither hang a run
//! nor grow its memory.

use std::fmt;
use std::io::Read;
use std::path::Path;

/// The limit for small files pupcheck reads on its own: `metadata.json`,
/// `environment.conf`, `pupcheck.toml`, `.puppet-lint.rc`.
pub const SMALL_FILE_LIMIT: u64 = 4 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The path is not a regular file (what it is instead).
    NotRegular(&'static str),
    /// The file holds more than the limit (in bytes).
    TooLarge(u64),
    Io(std::io::Error),
    /// The file's real path (given) lies outside the folder it had to be in.
    Outside(std::path::PathBuf),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular(what) => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge(limit) => write!(f, "it is larger than {}", human_size(*limit)),
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::Outside(target) => {
                write!(
                    f,
                    "it is a link to {}, outside the folders checked",
                    target.display()
                )
            }
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        ReadError::Io(e)
    }
}

/// `n` bytes for people: `128 MB`, `4 MB`, `512 KB`.
pub fn human_size(n: u64) -> String {
    if n >= 1024 * 1024 {
        format!("{} MB", n / (1024 * 1024))
    } else if n >= 1024 {
        format!("{} KB", n / 1024)
    } else {
        format!("{n} bytes")
    }
}

/// What a file type is, for messages.
fn describe(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// Opens `path` (following symlinks) for reading if it is a regular file. On Unix the
/// file is opened non-blocking, so a FIFO with no writer cannot hang the open itself;
/// its type is then checked on the open handle, so it cannot be swapped in between.
fn open_regular(path: &Path) -> Result<(std::fs::File, u64), ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    let file_type = metadata.file_type();
    if !file_type.is_file() {
        return Err(ReadError::NotRegular(describe(&file_type)));
    }
    Ok((file, metadata.len()))
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (file, size) = open_regular(path)?;
    // Room for the whole file and the byte that would pass the limit, so that it is
    // read in one call rather than in doubling steps (the size is a hint: the file may
    // grow or shrink meanwhile, and the limit still holds).
    let room = size.min(limit).saturating_add(1);
    bounded_into(
        Vec::with_capacity(usize::try_from(room).unwrap_or(0)),
        file,
        limit,
    )
}

/// The bytes of the regular file at `path`, at most `limit` of them, when its real path
/// lies in `root` (a real folder): read through its folder opened without following a
/// link ([`super::confined::Folder`]), so a folder on the way swapped for a link after
/// the path was resolved makes the read fail rather than leave the root.
pub fn read_bytes_within(path: &Path, root: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let real = std::fs::canonicalize(path)?;
    if !root.is_absolute() || !real.starts_with(root) {
        return Err(ReadError::Outside(real));
    }
    let (Some(folder), Some(name)) = (real.parent(), real.file_name()) else {
        return Err(ReadError::NotRegular("a directory"));
    };
    let file = super::confined::Folder::open(folder)?.open_read(name)?;
    let metadata = file.metadata()?;
    if !metadata.file_type().is_file() {
        return Err(ReadError::NotRegular(describe(&metadata.file_type())));
    }
    let room = metadata.len().min(limit).saturating_add(1);
    bounded_into(
        Vec::with_capacity(usize::try_from(room).unwrap_or(0)),
        file,
        limit,
    )
}

/// The bytes of the regular file at `path`, at most `limit` of them, for a file no one
/// writes to once it is there (a cache entry, renamed into place whole): as many as the
/// file has when opened, in one call, without another to find its end (a tenth of the
/// system calls of a warm one-file check read entries).
pub fn read_written_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let (mut file, size) = open_regular(path)?;
    let size = usize::try_from(size)
        .ok()
        .filter(|&size| size as u64 <= limit)
        .ok_or(ReadError::TooLarge(limit))?;
    let mut bytes = vec![0; size];
    file.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// The text of the regular file at `path` (UTF-8), at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    utf8(read_bytes(path, limit)?)
}

/// Bytes read as UTF-8 text.
pub fn utf8(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|_| {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "it is not valid UTF-8",
        ))
    })
}

/// Everything `reader` gives, refusing more than `limit` bytes as soon as it is passed
/// (never after reading it all).
pub fn read_bounded(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    bounded_into(Vec::new(), reader, limit)
}

fn bounded_into(mut bytes: Vec<u8>, reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_longer_than_the_limit_is_refused_after_reading_one_byte_more() {
        let endless = std::io::repeat(b'x');
        let err = read_bounded(endless, 1000).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(1000)), "{err}");
        assert_eq!(read_bounded(&b"abc"[..], 3).unwrap(), b"abc");
    }

    #[test]
    fn a_directory_is_not_read() {
        let err = read_bytes(Path::new("."), 10).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn dev_zero_is_a_device_and_never_read() {
        let err = read_bytes(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(err.to_string().contains("device"), "{err}");
        let err = read_written_file(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(err.to_string().contains("device"), "{err}");
    }

    #[test]
    fn a_written_file_is_read_whole_within_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("entry");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read_written_file(&path, 10).unwrap(), b"0123456789");
        let err = read_written_file(&path, 9).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge(9)), "{err}");
        std::fs::write(&path, b"").unwrap();
        assert_eq!(read_written_file(&path, 0).unwrap(), b"");
        assert!(read_written_file(&dir.path().join("missing"), 10).is_err());
        assert!(read_written_file(dir.path(), 10).is_err());
    }
}
