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

#[cfg(test)]
mod tests {
    use super::map_reduce;
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
}
