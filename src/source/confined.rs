//! Folders opened without following a link, and the operations `--fix` and the cache
//! write through, so that a folder swapped for a link while pupcheck runs cannot send
//! a write outside the tree.
//!
//! A [`Folder`] is opened by walking its canonical path from `/` one component at a
//! time, each with `O_NOFOLLOW`. A canonical path holds no link, so a link met on the
//! way was swapped in since it was resolved, and the open fails (`ELOOP`/`ENOTDIR`).
//! Every later operation is relative to the open folder (`openat`, `renameat`,
//! `unlinkat`, `fstatat` with `AT_SYMLINK_NOFOLLOW`): the handle stays the folder it
//! was opened as even if its name is pointed elsewhere afterwards, and a link planted
//! at a file's name inside it is never followed.
//!
//! On systems without the `*at` calls (not Unix), the same operations go through paths.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// An open folder every file operation is relative to.
#[derive(Debug)]
pub struct Folder {
    /// The canonical path it was opened at, for messages.
    path: PathBuf,
    #[cfg(unix)]
    fd: std::os::fd::OwnedFd,
}

#[cfg(unix)]
mod unix {
    use super::*;
    use rustix::fs::{AtFlags, Mode, OFlags, CWD};
    use std::os::unix::ffi::OsStrExt;

    const FOLDER_FLAGS: OFlags = OFlags::RDONLY
        .union(OFlags::DIRECTORY)
        .union(OFlags::NOFOLLOW)
        .union(OFlags::CLOEXEC);

    impl Folder {
        /// Opens `path`, which must be absolute and canonical (no `.`, `..` or link in
        /// it), one component at a time without following a link.
        pub fn open(path: &Path) -> io::Result<Folder> {
            if !path.is_absolute() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not an absolute path",
                ));
            }
            let mut fd = rustix::fs::openat(CWD, "/", FOLDER_FLAGS, Mode::empty())?;
            for component in path.components().skip(1) {
                let std::path::Component::Normal(name) = component else {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "not a canonical path",
                    ));
                };
                fd = rustix::fs::openat(&fd, name, FOLDER_FLAGS, Mode::empty())?;
            }
            Ok(Folder {
                path: path.to_path_buf(),
                fd,
            })
        }

        /// The folder `name` inside this one, made first when `create` is set and it
        /// does not exist; a link there is refused.
        pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Folder> {
            if create {
                match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) => {}
                    Err(rustix::io::Errno::EXIST) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            let fd = rustix::fs::openat(&self.fd, name, FOLDER_FLAGS, Mode::empty())?;
            Ok(Folder {
                path: self.path.join(name),
                fd,
            })
        }

        /// Opens `name` for reading, whatever it is but a link (opening never blocks:
        /// a FIFO opens, and its type is for the caller to judge).
        pub fn open_read(&self, name: &OsStr) -> io::Result<File> {
            let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())?;
            Ok(File::from(fd))
        }

        /// Opens the regular file `name` for reading; a link, a FIFO or a device is
        /// refused (opening never blocks).
        pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
            let file = self.open_read(name)?;
            if !file.metadata()?.is_file() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    "not a regular file",
                ));
            }
            Ok(file)
        }

        /// Creates the file `name`, which must not exist (`O_EXCL`: a link planted at the
        /// name is never followed), readable and writable by its owner only.
        pub fn create_new(&self, name: &OsStr) -> io::Result<File> {
            let flags =
                OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = rustix::fs::openat(&self.fd, name, flags, Mode::from_raw_mode(0o600))?;
            Ok(File::from(fd))
        }

        /// Renames `from` to `to`, both in this folder; `to` is replaced whole.
        pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::renameat(&self.fd, from, &self.fd, to)?)
        }

        /// Removes the file (or link) `name`, never what a link points to.
        pub fn remove(&self, name: &OsStr) -> io::Result<()> {
            Ok(rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?)
        }

        /// Whether `name` is a regular file (a link is not).
        pub fn is_file(&self, name: &OsStr) -> bool {
            rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW).is_ok_and(|stat| {
                rustix::fs::FileType::from_raw_mode(stat.st_mode)
                    == rustix::fs::FileType::RegularFile
            })
        }

        /// The names of the entries in this folder.
        pub fn entry_names(&self) -> io::Result<Vec<OsString>> {
            let mut names = Vec::new();
            for entry in rustix::fs::Dir::read_from(&self.fd)? {
                let name = entry?.file_name().to_bytes().to_vec();
                if name != b"." && name != b".." {
                    names.push(OsStr::from_bytes(&name).to_os_string());
                }
            }
            Ok(names)
        }
    }
}

#[cfg(not(unix))]
mod paths {
    use super::*;

    impl Folder {
        pub fn open(path: &Path) -> io::Result<Folder> {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a folder"));
            }
            Ok(Folder {
                path: path.to_path_buf(),
            })
        }

        pub fn child(&self, name: &OsStr, create: bool) -> io::Result<Folder> {
            let path = self.path.join(name);
            if create {
                let _ = std::fs::create_dir(&path);
            }
            Folder::open(&path)
        }

        pub fn open_read(&self, name: &OsStr) -> io::Result<File> {
            File::open(self.path.join(name))
        }

        pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
            File::open(self.path.join(name))
        }

        pub fn create_new(&self, name: &OsStr) -> io::Result<File> {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(self.path.join(name))
        }

        pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
            std::fs::rename(self.path.join(from), self.path.join(to))
        }

        pub fn remove(&self, name: &OsStr) -> io::Result<()> {
            std::fs::remove_file(self.path.join(name))
        }

        pub fn is_file(&self, name: &OsStr) -> bool {
            std::fs::symlink_metadata(self.path.join(name)).is_ok_and(|m| m.is_file())
        }

        pub fn entry_names(&self) -> io::Result<Vec<OsString>> {
            std::fs::read_dir(&self.path)?
                .map(|entry| entry.map(|e| e.file_name()))
                .collect()
        }
    }
}

impl Folder {
    /// The canonical path the folder was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_anywhere_on_the_path_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir_all(root.join("real/inner")).unwrap();
        std::os::unix::fs::symlink(root.join("real"), root.join("link")).unwrap();
        assert!(Folder::open(&root.join("real/inner")).is_ok());
        assert!(Folder::open(&root.join("link/inner")).is_err());
        assert!(Folder::open(&root.join("link")).is_err());
        assert!(Folder::open(Path::new("relative")).is_err());
        let folder = Folder::open(&root).unwrap();
        assert!(folder.child(OsStr::new("link"), true).is_err());
        assert!(folder.child(OsStr::new("made"), true).is_ok());
        assert!(root.join("made").is_dir());
    }

    #[test]
    fn files_are_created_once_and_links_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::write(root.join("victim"), "keep").unwrap();
        std::os::unix::fs::symlink(root.join("victim"), root.join("planted")).unwrap();
        let folder = Folder::open(&root).unwrap();
        assert!(folder.create_new(OsStr::new("planted")).is_err());
        assert!(folder.open_file(OsStr::new("planted")).is_err());
        assert!(!folder.is_file(OsStr::new("planted")));
        assert!(folder.is_file(OsStr::new("victim")));
        folder.remove(OsStr::new("planted")).unwrap();
        assert_eq!(
            std::fs::read_to_string(root.join("victim")).unwrap(),
            "keep"
        );
        let mut names = folder.entry_names().unwrap();
        names.sort();
        assert_eq!(names, vec![OsString::from("victim")]);
    }
}
