//! Tree-sitter's C runtime allocates its parse stacks and subtrees with `malloc`; a
//! check makes millions of them. Routed to mimalloc (the Rust side's allocator, see
//! `main.rs`), they cost a fraction of glibc's: per-thread free lists instead of arena
//! locks and consolidation.

use std::ffi::c_void;

unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    // SAFETY: mi_malloc has malloc's contract (16-byte alignment, null on failure).
    unsafe { libmimalloc_sys::mi_malloc(size) }
}

unsafe extern "C" fn calloc(count: usize, size: usize) -> *mut c_void {
    let Some(bytes) = count.checked_mul(size) else {
        return std::ptr::null_mut();
    };
    // SAFETY: a fresh block of `bytes` bytes (or null), zeroed as calloc's are.
    unsafe {
        let block = libmimalloc_sys::mi_malloc(bytes);
        if !block.is_null() {
            std::ptr::write_bytes(block.cast::<u8>(), 0, bytes);
        }
        block
    }
}

unsafe extern "C" fn realloc(block: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: `block` came from these functions (tree-sitter frees and grows only
    // what it allocated through them).
    unsafe { libmimalloc_sys::mi_realloc(block, size) }
}

unsafe extern "C" fn free(block: *mut c_void) {
    // SAFETY: as for realloc.
    unsafe { libmimalloc_sys::mi_free(block) }
}

/// Makes tree-sitter allocate with mimalloc.
///
/// # Safety
/// Call it before any tree-sitter parser or tree exists (at the start of `main`, before
/// any thread starts): what was allocated with one allocator must not be freed by the
/// other.
pub unsafe fn use_mimalloc() {
    // SAFETY: the four functions are one allocator family and keep malloc's
    // alignment; the caller guarantees no tree-sitter object exists yet.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc,
            calloc,
            realloc,
            free,
        }));
    }
}
