# -*- Python -*-
import os
import platform
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "MaxGraph"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.maxgraph_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%maxgraph_src", config.maxgraph_src_root))
config.substitutions.append(("%maxgraph_obj", config.maxgraph_obj_root))
config.substitutions.append(
    ("%maxgraph_plugin", os.path.join(config.maxgraph_lib_dir, "MaxGraphPlugin.so")))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cxx", config.cmake_cxx_compiler))
# `-I` for LLVM's headers (on Debian, MLIR's share the directory), and for
# MaxGraph's own and generated ones: what a translation unit of our headers
# needs, for the header layering and compile-error tests.
config.substitutions.append(
    ("%llvm_includes",
     " ".join("-I" + d for d in config.llvm_include_dirs.split(";") if d)))
config.substitutions.append(
    ("%maxgraph_includes",
     "-I{0}/include -I{1}/include".format(config.maxgraph_src_root,
                                          config.maxgraph_obj_root)))
config.substitutions.append(("%mlir_dir", config.mlir_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# Every pass of compile()'s lowering is verified, not only the last.
config.environment["MAXGRAPH_VERIFY_EACH_PASS"] = "1"
# Compiled code goes to a cache under the build tree, never the user's.
config.environment["MAXGRAPH_CACHE_DIR"] = os.path.join(
    config.maxgraph_obj_root, "test", "compile-cache")
config.environment.pop("MAXGRAPH_CACHE", None)
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.maxgraph_tools_dir, append_path=True)

# Upstream's mlir-opt, for the plugin tests.
config.substitutions.append(
    ("%upstream_mlir_opt", os.path.join(config.llvm_tools_dir, "mlir-opt")))

tool_dirs = [config.maxgraph_tools_dir, config.llvm_tools_dir]
tools = ["max-opt", "max-lsp-server", "max-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

config.substitutions.append(
    ("%consumer_flags", "-fsanitize=address,undefined" if config.sanitizers else ""))

# An empty environment (installed tools must not need LD_LIBRARY_PATH), with
# the sanitizer options below kept under ASan.
config.substitutions.append(
    ("%empty_env", "env -i" + (
        " ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=1"
        ":allocator_may_return_null=1"
        " UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
        if config.sanitizers else "")))

# The GPU back ends' tools: `ptxas` (cubins from the NVVM back end) and
# `llvm-spirv` (SPIR for OpenCL) where configure found them, and `opencl`
# where an OpenCL platform has a device to run the OpenCL kernels on (PoCL's
# CPU device here), probed the way the runtime loads OpenCL.
if config.cuda_toolkit:
    config.available_features.add("ptxas")
    config.substitutions.append(("%cuda_toolkit", config.cuda_toolkit))
if config.llvm_spirv:
    config.available_features.add("llvm-spirv")


def opencl_devices():
    import ctypes
    try:
        library = ctypes.CDLL("libOpenCL.so.1")
    except OSError:
        return 0
    platforms = (ctypes.c_void_p * 16)()
    count = ctypes.c_uint32(0)
    if library.clGetPlatformIDs(16, platforms, ctypes.byref(count)) != 0:
        return 0
    devices = 0
    for platform in platforms[: count.value]:
        found = ctypes.c_uint32(0)
        # CL_DEVICE_TYPE_ALL
        if library.clGetDeviceIDs(ctypes.c_void_p(platform),
                                  ctypes.c_uint64(0xFFFFFFFF), 0, None,
                                  ctypes.byref(found)) == 0:
            devices += found.value
    return devices


if config.llvm_spirv and opencl_devices() > 0:
    config.available_features.add("opencl")


def cuda_devices():
    """The CUDA devices of compute capability 9.0 or later that the driver
    (libcuda.so.1) shows, probed the way the runtime loads it."""
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    count = ctypes.c_int(0)
    if driver.cuInit(0) != 0 or driver.cuDeviceGetCount(ctypes.byref(count)):
        return 0
    usable = 0
    for ordinal in range(count.value):
        device, major = ctypes.c_int(0), ctypes.c_int(0)
        # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
        if (driver.cuDeviceGet(ctypes.byref(device), ordinal) == 0 and
                driver.cuDeviceGetAttribute(ctypes.byref(major), 75,
                                            device) == 0 and major.value >= 9):
            usable += 1
    return usable


# `cuda-device`: an NVIDIA GPU the CUDA runtime can run MaxGraph's sm_90
# kernels on (scripts/gpu-check.sh runs these tests on such a machine).
# %cuda_standin: the test stand-in of the CUDA driver, which records calls
# and runs no kernels (unittests/Runtime/Drivers/CUDAStandIn); %cuda_standin_env
# points the runtime at it, for the driver and for NCCL (the same library
# stands in for libnccl.so.2, computing collectives on its host memory).
# `cuda-devices-2`: two or more, for a process per GPU under mpirun.
usable_cuda_devices = cuda_devices()
if usable_cuda_devices > 0:
    config.available_features.add("cuda-device")
if usable_cuda_devices > 1:
    config.available_features.add("cuda-devices-2")
if config.cuda_standin:
    config.substitutions.append(("%cuda_standin_env", (
        "env MAXGRAPH_CUDA_DRIVER_LIBRARY=" + config.cuda_standin +
        " MAXGRAPH_NCCL_LIBRARY=" + config.cuda_standin +
        " MAXGRAPH_CUDA_STANDIN=1")))
    config.substitutions.append(("%cuda_standin", config.cuda_standin))

# MPI: MPICH's launcher (Debian's `mpich`), for the multi-process SPMD tests
# (`REQUIRES: mpi`); %mpirun runs it with the hydra launcher on this host.
# MAXGRAPH_TEST_NO_MPI=1 hides it, to check the suite without MPI. Not
# under the sanitizers: MPICH's UCX transport patches mmap in the process
# (libucm's "bistro"), which crashes against ASan's interceptors; with UCX's
# hooks off (UCX_MEM_MMAP_HOOK_MODE=none UCX_MEM_MALLOC_HOOKS=no) the runs
# pass but LeakSanitizer reports about 1 KB from frames it cannot name, not
# explained yet. The release build runs the MPI tests.
mpirun = shutil.which("mpiexec.hydra") or shutil.which("mpirun")
if (mpirun and not os.environ.get("MAXGRAPH_TEST_NO_MPI")
        and not config.sanitizers):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", mpirun))
    for name in ["MAXGRAPH_MPI_TIMEOUT", "MAXGRAPH_MPI_LIBRARY"]:
        if name in os.environ:
            config.environment[name] = os.environ[name]

# The host's architecture: the CPU pipeline's x86-only passes (streaming
# stores and their sfence) run where it is x86-64.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("host-x86_64")

if config.sanitizers:
    config.available_features.add("asan")
    # LLVM's inline allocators poison memory under ASan; libMLIR itself is not
    # instrumented and writes to it legitimately, so manual poisoning only
    # yields false reports. Everything else ASan and UBSan check stays on.
    # allocator_may_return_null: a huge allocation returns null, which the
    # runtime reports as a RuntimeError (the allocation-failure tests).
    config.environment["ASAN_OPTIONS"] = (
        "allow_user_poisoning=0:detect_leaks=1:allocator_may_return_null=1")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    # Upstream mlir-opt is not instrumented: loading an ASan plugin into it
    # needs the runtime preloaded, which the plugin tests do not attempt.
else:
    config.available_features.add("no-asan")
