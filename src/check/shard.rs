//! `--shard I/N`: one of N parts of a run, for estates checked by parallel CI jobs.
//! The split is by module (a file in no module goes with its environment's or
//! folder's other files), so a module's files and its Hiera data are judged in one
//! job, and every job still reads the whole modulepath for the definitions they name.
//! Each job walks the same paths and assigns the same parts: the modules, largest
//! first, each to the part with the fewest files so far (ties to the lowest part);
//! a data file of a module no planned file is in goes by a hash of its module's path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// This job's part: `index` of `total` (1-based, as CI systems number their jobs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub total: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let (index, total) = text
            .split_once('/')
            .ok_or_else(|| format!("'{text}' is not I/N (e.g. 2/4)"))?;
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{text}' is not I/N (e.g. 2/4)"))
        };
        let (index, total) = (number(index)?, number(total)?);
        if total == 0 || index == 0 || index > total {
            return Err(format!(
                "shard {index}/{total}: I must be between 1 and N (e.g. 2/4)"
            ));
        }
        Ok(Shard { index, total })
    }
}

/// Which part each key (module) of the planned files goes to.
#[derive(Debug, Clone)]
pub struct Assignment {
    shard: Shard,
    parts: HashMap<String, usize>,
}

impl Assignment {
    /// Splits the planned files' modules between the parts.
    pub fn new<'a>(shard: Shard, files: impl Iterator<Item = &'a Path>) -> Assignment {
        let mut sizes: HashMap<String, usize> = HashMap::new();
        for file in files {
            *sizes.entry(key_of(file)).or_default() += 1;
        }
        let mut keys: Vec<(String, usize)> = sizes.into_iter().collect();
        keys.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let mut load = vec![0usize; shard.total];
        let mut parts = HashMap::with_capacity(keys.len());
        for (key, size) in keys {
            let part = (0..shard.total)
                .min_by_key(|&p| (load[p], p))
                .expect("at least one part");
            load[part] += size;
            parts.insert(key, part + 1);
        }
        Assignment { shard, parts }
    }

    /// Whether `path` (a planned file, or a data file found beside them) is this job's.
    pub fn is_mine(&self, path: &Path) -> bool {
        let key = key_of(path);
        let part = match self.parts.get(&key) {
            Some(part) => *part,
            None => (stable_hash(&key) % self.shard.total as u64) as usize + 1,
        };
        part == self.shard.index
    }
}

/// The module a file belongs to, else its environment, else its folder: as a path
/// relative to the working folder, so that jobs in different checkouts agree.
fn key_of(path: &Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let group: PathBuf = crate::env::checked_module_root(&absolute)
        .map(Path::to_path_buf)
        .or_else(|| crate::env::environment_root(&absolute))
        .or_else(|| absolute.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| group.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .unwrap_or(group);
    relative.to_string_lossy().into_owned()
}

/// FNV-1a: the same on every machine and Rust version (std's hasher is not).
fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_as_i_of_n() {
        assert_eq!("2/4".parse(), Ok(Shard { index: 2, total: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "1/2/3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_file_is_in_exactly_one_part_and_parts_are_balanced() {
        let files: Vec<PathBuf> = (0..6)
            .flat_map(|m| {
                (0..=m).map(move |f| PathBuf::from(format!("mods/m{m}/manifests/f{f}.pp")))
            })
            .collect();
        let total = 3;
        let mut counts = vec![0; total];
        for file in &files {
            let owners: Vec<usize> = (1..=total)
                .filter(|&index| {
                    Assignment::new(Shard { index, total }, files.iter().map(PathBuf::as_path))
                        .is_mine(file)
                })
                .collect();
            assert_eq!(owners.len(), 1, "{}", file.display());
            counts[owners[0] - 1] += 1;
        }
        // 21 files in modules of 1..6 files: 7 each.
        assert_eq!(counts, [7, 7, 7]);
    }
}
