//===- DeviceStreamTest.cpp - streams, events, copies on a stream ---------===//
//
// Part of the MaxGraph project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// DeviceStream, DeviceEvent and HostTensor::to(DeviceStream): on the CPU,
// and through the CUDA runtime over the stand-in of the driver, whose log
// shows what reaches the driver (which stream, which event, no host wait
// where there must be none). OpenCL's numbers are checked from Python
// (test_device_streams.py).
//
//===----------------------------------------------------------------------===//

#include "MaxGraph/Runtime/DeviceStream.h"
#include "CUDAStandInTesting.h"
#include "MaxGraph/Runtime/HostTensor.h"
#include "MaxGraph/Support/Error.h"
#include "gtest/gtest.h"
#include <string>
#include <thread>
#include <vector>

using namespace maxgraph;
using namespace maxgraph::unittest;

namespace {
[[maybe_unused]] const bool kStandIn = useTheStandIn();

/// The message of the std::invalid_argument that `body` throws ("" if none).
template <typename Body> std::string invalidArgumentOf(Body body) {
  try {
    body();
  } catch (const std::invalid_argument &error) {
    return error.what();
  }
  return "";
}

std::vector<float> valuesOf(const HostTensor &tensor) {
  const auto *data = tensor.data<float>();
  return std::vector<float>(data, data + tensor.numElements());
}

//===----------------------------------------------------------------------===//
// On the CPU
//===----------------------------------------------------------------------===//

TEST(CpuStreamTest, EventsCompleteWhenRecordedAndTimeTheHost) {
  DeviceStream stream(CPU());
  EXPECT_FALSE(stream.isDefault());
  EXPECT_EQ(stream.handle(), nullptr);
  EXPECT_EQ(stream.runtime(), nullptr);
  EXPECT_EQ(stream.nativeHandle(), 0u); // none on a CPU, as MAX's
  DeviceEvent start(CPU(), /*enableTiming=*/true);
  DeviceEvent end(CPU(), /*enableTiming=*/true);
  EXPECT_FALSE(start.isRecorded());
  EXPECT_TRUE(start.isReady());
  stream.recordEvent(start);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stream.recordEvent(end);
  EXPECT_TRUE(start.isRecorded());
  EXPECT_TRUE(end.isReady());
  float milliseconds = start.elapsedTime(end);
  EXPECT_GE(milliseconds, 20.0f);
  EXPECT_LT(milliseconds, 5000.0f);
  EXPECT_LE(end.elapsedTime(start), -20.0f);
  // Nothing to wait for on a CPU.
  stream.synchronize();
  stream.waitFor(end);
  DeviceStream::defaultStream(CPU()).waitFor(stream);
  EXPECT_TRUE(DeviceStream::defaultStream(CPU()) ==
              DeviceStream::defaultStream(CPU()));
  EXPECT_FALSE(stream == DeviceStream::defaultStream(CPU()));
}

TEST(CpuStreamTest, TimingNeedsTimedRecordedEventsOfOneDevice) {
  DeviceStream stream(CPU());
  DeviceEvent untimed(CPU()), timed(CPU(), true), unrecorded(CPU(), true);
  DeviceEvent other(CPU(1), true);
  stream.recordEvent(untimed);
  stream.recordEvent(timed);
  DeviceStream(CPU(1)).recordEvent(other);
  EXPECT_EQ(invalidArgumentOf([&] { untimed.elapsedTime(timed); }),
            "DeviceEvent of cpu:0: elapsedTime: the start event was made "
            "without timing (DeviceEvent(device, enable_timing=True))");
  EXPECT_EQ(invalidArgumentOf([&] { timed.elapsedTime(unrecorded); }),
            "DeviceEvent of cpu:0: elapsedTime: the end event was not "
            "recorded on a stream");
  EXPECT_EQ(invalidArgumentOf([&] { timed.elapsedTime(other); }),
            "DeviceEvent of cpu:0: elapsedTime: the end event is of cpu:1, "
            "another device");
  EXPECT_EQ(invalidArgumentOf([&] { stream.recordEvent(other); }),
            "a stream of cpu:0: recordEvent: the event is of cpu:1; record "
            "it on a stream of its own device");
}

TEST(CpuStreamTest, ACopyOnACpuStreamIsDoneWhenItReturns) {
  HostTensor tensor = HostTensor::from<float>({3}, {1, 2, 3});
  HostTensor same = tensor.to(DeviceStream(CPU()));
  EXPECT_TRUE(same.sharesStorageWith(tensor));
  EXPECT_EQ(valuesOf(same), (std::vector<float>{1, 2, 3}));
}

//===----------------------------------------------------------------------===//
// Through the CUDA runtime, over the stand-in
//===----------------------------------------------------------------------===//

class CUDAStreamTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Opens gpu:0 (its default stream is S1) before the log is cleared.
    HostTensor::uninitializedOnDevice(DType::Float32, {1}, GPU(0), "cuda");
    ASSERT_TRUE(standIn().loaded())
        << "the runtime did not load the stand-in of the CUDA driver";
    standIn().clearLog();
  }

  ExpectedLog log;
};

TEST_F(CUDAStreamTest, StreamsAndEventsReachTheDriver) {
  {
    DeviceStream stream(GPU(0), "cuda");
    EXPECT_NE(stream.handle(), nullptr);
    DeviceEvent event(GPU(0), /*enableTiming=*/false, "cuda");
    EXPECT_TRUE(event.isReady()); // never recorded: nothing to ask
    stream.recordEvent(event);
    EXPECT_TRUE(event.isReady());
    event.synchronize();
    DeviceStream::defaultStream(GPU(0), "cuda").waitFor(event);
    // A stream waiting for another: an event recorded there, then released.
    DeviceStream::defaultStream(GPU(0), "cuda").waitFor(stream);
    stream.synchronize();
  }
  log.expect({"cuStreamCreate -> $S", "cuEventCreate -> $V",
              "cuEventRecord $V stream=$S", "cuEventQuery $V -> ready",
              "cuEventSynchronize $V", "cuStreamWaitEvent S1 $V",
              "cuEventCreate -> $W", "cuEventRecord $W stream=$S",
              "cuStreamWaitEvent S1 $W", "cuEventDestroy $W",
              "cuStreamSynchronize $S", "cuEventDestroy $V",
              "cuStreamDestroy $S"});
}

TEST_F(CUDAStreamTest, NativeHandlesAreTheDriversStreams) {
  DeviceStream first(GPU(0), "cuda"), second(GPU(0), "cuda");
  DeviceStream byDefault = DeviceStream::defaultStream(GPU(0), "cuda");
  uintptr_t a = first.nativeHandle(), b = second.nativeHandle(),
            c = byDefault.nativeHandle();
  // The stand-in's CUstreams: nonzero, one per stream, the default stream
  // being S1 (the one the setup's allocation opened).
  EXPECT_NE(a, 0u);
  EXPECT_NE(b, 0u);
  EXPECT_NE(a, b);
  EXPECT_NE(c, 0u);
  EXPECT_NE(c, a);
  EXPECT_EQ(byDefault.nativeHandle(), c);
  // Asking makes no driver call.
  log.expect({"cuStreamCreate -> $S", "cuStreamCreate -> $T"});
}

TEST_F(CUDAStreamTest, TimedEventsMeasureBetweenTheirRecords) {
  DeviceStream stream(GPU(0), "cuda");
  DeviceEvent start(GPU(0), true, "cuda"), end(GPU(0), true, "cuda");
  stream.recordEvent(start);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stream.recordEvent(end);
  float milliseconds = start.elapsedTime(end);
  EXPECT_GE(milliseconds, 20.0f);
  EXPECT_LT(milliseconds, 5000.0f);
  log.expect({"cuStreamCreate -> $S", "cuEventCreate timed -> $A",
              "cuEventCreate timed -> $B", "cuEventRecord $A stream=$S",
              "cuEventRecord $B stream=$S", "cuEventSynchronize $A",
              "cuEventSynchronize $B", "cuEventElapsedTime $A $B"});
  // Of another device: refused before the driver sees it.
  EXPECT_EQ(invalidArgumentOf([&] { start.elapsedTime(DeviceEvent(CPU())); }),
            "DeviceEvent of gpu:0: elapsedTime: the end event was made "
            "without timing (DeviceEvent(device, enable_timing=True))");
}

TEST_F(CUDAStreamTest, ACopyOnAStreamDoesNotMakeTheHostWait) {
  HostTensor pinned = HostTensor::pinned(DType::Float32, {4}, "cuda");
  float *values = pinned.data<float>();
  for (int i = 0; i < 4; ++i)
    values[i] = 1.5f * i;
  standIn().clearLog();
  DeviceStream stream(GPU(0), "cuda");
  HostTensor onDevice = pinned.to(stream);
  EXPECT_TRUE(onDevice.isOnDevice());
  EXPECT_EQ(onDevice.device(), GPU(0));
  // Allocated and filled on the stream, an event behind the copy, and no
  // host wait.
  log.expect({"cuStreamCreate -> $S",
              "cuMemAllocFromPoolAsync bytes=16 stream=$S -> $P",
              "cuMemcpyAsync bytes=16 dst=$P src=pinned stream=$S",
              "cuEventCreate -> $V", "cuEventRecord $V stream=$S"});
  // Reading it waits for the event first, once.
  HostTensor back = onDevice.to(CPU());
  EXPECT_EQ(valuesOf(back), (std::vector<float>{0, 1.5f, 3, 4.5f}));
  (void)onDevice.deviceData();
  log.expect({"cuEventSynchronize $V", "cuEventDestroy $V",
              "cuMemcpyAsync bytes=16 dst=host src=$P stream=S1",
              "cuStreamSynchronize S1"});
  // Already on the stream's device: itself.
  EXPECT_EQ(onDevice.to(stream).deviceData(), onDevice.deviceData());
}

TEST_F(CUDAStreamTest, ATensorFreedBeforeItWasReadWaitsForItsCopy) {
  HostTensor host = HostTensor::from<float>({2}, {1, 2});
  {
    DeviceStream stream(GPU(0), "cuda");
    HostTensor onDevice = host.to(stream);
  }
  log.expect({"cuStreamCreate -> $S",
              "cuMemAllocFromPoolAsync bytes=8 stream=$S -> $P",
              "cuMemcpyAsync bytes=8 dst=$P src=host stream=$S",
              "cuEventCreate -> $V", "cuEventRecord $V stream=$S",
              "cuEventSynchronize $V", "cuEventDestroy $V",
              "cuMemFreeAsync $P stream=S1", "cuStreamDestroy $S"});
}

TEST_F(CUDAStreamTest, AnEventOfAnotherRuntimeOrDeviceIsRefused) {
  DeviceStream stream(GPU(0), "cuda");
  DeviceEvent onCpu(CPU());
  EXPECT_EQ(invalidArgumentOf([&] { stream.recordEvent(onCpu); }),
            "a stream of gpu:0: recordEvent: the event is of cpu:0; record "
            "it on a stream of its own device");
  // A CPU event is done: a GPU stream has nothing to wait for.
  DeviceStream(CPU()).recordEvent(onCpu);
  stream.waitFor(onCpu);
  log.expect({"cuStreamCreate -> $S"});
}
} // namespace
