//! A whole connection against the in-memory engine (`ilion::fuzzing::dispatch::connection`),
//! with a counting global allocator measuring what each message costs.
#![no_main]

use ilion::fuzzing::dispatch::{connection, Meter};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The system allocator, counting the bytes live now and the most live since a reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static BASE: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let live = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(live, Relaxed);
}

// SAFETY: every call goes straight to `System` with the caller's arguments; the counters
// are plain atomics and never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            // While a realloc copies, both blocks exist: count the new one first.
            grew(new_size);
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        q
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

struct Counted;

impl Meter for Counted {
    fn start(&self) {
        let live = LIVE.load(Relaxed);
        BASE.store(live, Relaxed);
        PEAK.store(live, Relaxed);
    }
    fn peak_growth(&self) -> usize {
        PEAK.load(Relaxed).saturating_sub(BASE.load(Relaxed))
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| connection(data, &Counted));
