# -*- Python -*-
# Runs every GoogleTest binary under unittests/*/bin, one lit test per TEST.
import os

import lit.formats

config.name = "MaxGraph-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.maxgraph_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest("bin", "Tests")
if config.sanitizers:
    # allocator_may_return_null: a huge allocation returns null, which the
    # runtime reports as a RuntimeError (the allocation-failure tests).
    config.environment["ASAN_OPTIONS"] = (
        "allow_user_poisoning=0:detect_leaks=1:allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
# Every pass of compile()'s lowering is verified, not only the last.
config.environment["MAXGRAPH_VERIFY_EACH_PASS"] = "1"
# Compiled code goes to a cache under the build tree, never the user's.
config.environment["MAXGRAPH_CACHE_DIR"] = os.path.join(
    config.maxgraph_obj_root, "unittests", "compile-cache")
