//! Parallel work that must not run on rayon's pool: work done while initialising a
//! value other jobs of the pool wait for (a `OnceLock`).
//!
//! A rayon worker that waits for a part of its parallel work another worker took runs
//! other jobs of the pool meanwhile (rayon-core's `wait_until` steals). If it is
//! initialising a `OnceLock` at the time, and the job it runs (the check of another
//! file) asks for the same `OnceLock`, that job waits for an initialisation its own
//! thread is in the middle of: the run never ends. It takes three workers or more and
//! an unlucky order of steals, so it is rare; but a hang is never acceptable. So such
//! work runs on threads of its own, which take no job of the pool: the worker that
//! started it only waits, and the others asking for the value wait until it is there.
//!
//! Architecture Invariant: no `OnceLock` initialiser reached from a check runs rayon
//! itself; where one needs every core, it uses [`map_reduce`].

/// `map` over `items`, combined with `reduce` in the items' order (so the result is
/// the one a sequential fold gives, for an associative `reduce`), on as many scoped
/// threads of its own as rayon's pool has, each taking a contiguous part of the items.
pub fn map_reduce<T, R>(
    items: &[T],
    map: impl Fn(&T) -> R + Sync,
    identity: impl Fn() -> R + Sync,
    reduce: impl Fn(R, R) -> R + Sync,
) -> R
where
    T: Sync,
    R: Send,
{
    let threads = rayon::current_num_threads().clamp(1, items.len().max(1));
    let fold = |part: &[T]| part.iter().map(&map).fold(identity(), &reduce);
    if threads == 1 {
        return fold(items);
    }
    let parts: Vec<&[T]> = (0..threads)
        .map(|i| &items[i * items.len() / threads..(i + 1) * items.len() / threads])
        .collect();
    std::thread::scope(|scope| {
        // The first part on this thread, the others on threads of their own.
        let others: Vec<_> = parts[1..]
            .iter()
            .map(|part| scope.spawn(|| fold(part)))
            .collect();
        let first = fold(parts[0]);
        others.into_iter().fold(first, |acc, handle| {
            // A panic in a part is raised here, as it would have been on this thread.
            let part = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            reduce(acc, part)
        })
    })
}

/// What one file being parsed or checked takes in memory, per byte of its source, while
/// it is worked on (measured on large manifests: an 8 MB one took 316 MB to check alone,
/// and each more thread on a file as large about 100 MB more).
pub const WORKING_BYTES_PER_SOURCE_BYTE: u64 = 40;

/// The working memory the files parsed or checked at once may take together, by
/// estimate. Real files never come near it (128 files of 100 KB fit); a run of many
/// files of megabytes on many threads works on as many at once as fit, so its peak does
/// not grow with `--threads`.
pub const RUN_WORKING_MEMORY: u64 = 512 << 20;

/// Memory shared by the files worked on at once: each reserves its estimate before it
/// starts and gives it back when done; a file that does not fit waits for others to end.
/// A file larger than the whole waits until it is alone.
pub struct MemoryPool {
    capacity: u64,
    in_use: std::sync::Mutex<u64>,
    returned: std::sync::Condvar,
}

thread_local! {
    /// How many reservations this thread holds. A rayon worker waiting for part of its
    /// own work runs other jobs meanwhile; one of them waiting for memory its own thread
    /// holds further down the stack would wait forever, so a thread holding memory never
    /// waits for more (it may go past the capacity by what it nests).
    static HELD: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Memory reserved from a [`MemoryPool`], returned when dropped, on the thread that
/// reserved it (it cannot be sent elsewhere: the thread's count of what it holds).
pub struct Reservation<'a> {
    pool: &'a MemoryPool,
    bytes: u64,
    _this_thread: std::marker::PhantomData<*const ()>,
}

impl MemoryPool {
    pub const fn new(capacity: u64) -> MemoryPool {
        MemoryPool {
            capacity,
            in_use: std::sync::Mutex::new(0),
            returned: std::sync::Condvar::new(),
        }
    }

    /// The pool of a run's parsing and checking.
    pub fn for_files() -> &'static MemoryPool {
        static FILES: MemoryPool = MemoryPool::new(RUN_WORKING_MEMORY);
        &FILES
    }

    /// Reserves what a file of `source_bytes` takes to work on, waiting until it fits.
    pub fn reserve_for_source(&self, source_bytes: u64) -> Reservation<'_> {
        self.reserve(source_bytes.saturating_mul(WORKING_BYTES_PER_SOURCE_BYTE))
    }

    /// Reserves `bytes` (at most the capacity), waiting until they fit.
    pub fn reserve(&self, bytes: u64) -> Reservation<'_> {
        let bytes = bytes.min(self.capacity);
        let mut in_use = self.in_use.lock().unwrap_or_else(|e| e.into_inner());
        if HELD.get() == 0 {
            while *in_use > 0 && *in_use + bytes > self.capacity {
                in_use = self
                    .returned
                    .wait(in_use)
                    .unwrap_or_else(|e| e.into_inner());
            }
        }
        *in_use += bytes;
        HELD.set(HELD.get() + 1);
        Reservation {
            pool: self,
            bytes,
            _this_thread: std::marker::PhantomData,
        }
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        let mut in_use = self.pool.in_use.lock().unwrap_or_else(|e| e.into_inner());
        *in_use -= self.bytes;
        HELD.set(HELD.get() - 1);
        drop(in_use);
        self.pool.returned.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::{map_reduce, MemoryPool};
    use rayon::prelude::*;
    use std::sync::OnceLock;

    #[test]
    fn the_result_is_the_sequential_fold() {
        let items: Vec<u32> = (0..1000).collect();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let joined = pool.install(|| {
            map_reduce(
                &items,
                |i| vec![*i],
                Vec::new,
                |mut a, b| {
                    a.extend(b);
                    a
                },
            )
        });
        assert_eq!(joined, items);
        assert_eq!(map_reduce(&[] as &[u32], |i| *i, || 0, |a, b| a + b), 0);
    }

    /// Work long enough that the pool's other workers look for more meanwhile.
    fn slow(i: &u64) -> u64 {
        std::thread::sleep(std::time::Duration::from_micros(100));
        i % 7
    }

    /// Jobs of a pool wait for one value while its initialisation runs in parallel,
    /// and others have work of their own meanwhile: every job finishes, with the value.
    /// (The hang this module avoids needs an unlucky order of steals, which a test
    /// cannot force; this holds the helper to working under a busy pool.)
    #[test]
    fn jobs_waiting_for_a_value_initialised_in_parallel_all_finish() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(8)
                .build()
                .unwrap();
            for _ in 0..5 {
                let value: OnceLock<u64> = OnceLock::new();
                let items: Vec<u64> = (0..400).collect();
                let total: u64 = pool.install(|| {
                    (0..256u32)
                        .into_par_iter()
                        .with_max_len(1)
                        .map(|job| {
                            if job % 4 != 0 {
                                slow(&0);
                                return 0;
                            }
                            *value.get_or_init(|| map_reduce(&items, slow, || 0, |a, b| a + b))
                        })
                        .sum()
                });
                assert_eq!(total, 64 * (0..400u64).map(|i| i % 7).sum::<u64>());
            }
            let _ = done.send(());
        });
        finished
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("every job finished");
    }

    #[test]
    fn files_share_the_pool_and_one_larger_than_it_runs_alone() {
        let pool = MemoryPool::new(100);
        let at_once = std::sync::Mutex::new((0u64, 0u64));
        let sizes = [30u64, 30, 30, 30, 500, 10, 60, 60, 5, 5, 5, 5];
        let pool_threads = rayon::ThreadPoolBuilder::new()
            .num_threads(8)
            .build()
            .unwrap();
        pool_threads.install(|| {
            sizes.par_iter().for_each(|&size| {
                let _held = pool.reserve(size);
                {
                    let mut now = at_once.lock().unwrap();
                    now.0 += size.min(100);
                    now.1 = now.1.max(now.0);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
                at_once.lock().unwrap().0 -= size.min(100);
            });
        });
        let (left, peak) = *at_once.lock().unwrap();
        assert_eq!(left, 0);
        assert!(peak <= 100, "{peak} at once");
        assert_eq!(*pool.in_use.lock().unwrap(), 0);
    }

    #[test]
    fn a_thread_holding_memory_never_waits_for_more() {
        let pool = MemoryPool::new(10);
        let outer = pool.reserve(10);
        // Would wait forever for `outer`, held lower on this thread's stack.
        let nested = pool.reserve(10);
        drop(nested);
        drop(outer);
        let again = pool.reserve(10);
        drop(again);
    }
}
