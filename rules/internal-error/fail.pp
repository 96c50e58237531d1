# pupcheck-test-panic-marker: in a debug build with PUPCHECK_TEST_PANIC_MARKER set to that text, checking this file fails (tests/hostile.rs)
