import Dispatch
import Synchronization
import SystemPackage
import SystemSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class SyscallTests: XCTestCase {
    /// A signal whose handler is installed without `SA_RESTART` interrupts a blocking read with
    /// `EINTR`; the funnel makes the call again, and the read returns the byte written later.
    func testRetriesABlockingReadInterruptedByASignal() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0  // no SA_RESTART: the kernel returns EINTR instead of restarting
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &action, &previous), 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        defer { for fd in ends { close(fd) } }
        let state = ReaderState()
        let readFD = ends[0]
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            state.thread.withLock { $0 = pthread_self() }
            var byte: UInt8 = 0
            let result = Result { () throws(Errno) -> Int in
                try Syscall.retrying {
                    state.attempts.add(1, ordering: .sequentiallyConsistent)
                    return read(readFD, &byte, 1)
                }
            }
            state.result.withLock { $0 = result.map { _ in byte } }
            done.signal()
        }
        thread.start()
        // Signal the reader until it has been interrupted at least once (each signal that lands
        // while it blocks makes it read again), then give it the byte.
        let deadline = DispatchTime.now() + .seconds(20)
        while state.attempts.load(ordering: .sequentiallyConsistent) < 2 && DispatchTime.now() < deadline {
            if let t = state.thread.withLock({ $0 }) { pthread_kill(t, SIGUSR2) }
            usleep(2_000)
        }
        var byte: UInt8 = 42
        XCTAssertEqual(write(ends[1], &byte, 1), 1)
        XCTAssertEqual(done.wait(timeout: .now() + 20), .success)
        XCTAssertGreaterThanOrEqual(state.attempts.load(ordering: .sequentiallyConsistent), 2, "never interrupted")
        XCTAssertEqual(try state.result.withLock { $0 }?.get(), 42)
    }

    func testFailureIsATypedErrno() {
        XCTAssertThrowsError(try Syscall.retrying { open("/nonexistent/strokes", O_RDONLY) }) { error in
            XCTAssertEqual(error as? Errno, .noSuchFileOrDirectory)
        }
    }

    func testNegatedErrnoConventionRetriesEINTRAndTypesTheRest() throws {
        var calls = 0
        let value = try Syscall.retryingNegatedErrno { () -> Int32 in
            calls += 1
            return calls < 3 ? -EINTR : 7
        }
        XCTAssertEqual(value, 7)
        XCTAssertEqual(calls, 3)
        XCTAssertThrowsError(try Syscall.retryingNegatedErrno { -ENODEV }) { error in
            XCTAssertEqual(error as? Errno, .operationNotSupportedByDevice)
            XCTAssertEqual("\(error)", "No such device")
        }
    }
}

private final class ReaderState: Sendable {
    let attempts = Atomic<Int>(0)
    let thread = Mutex<pthread_t?>(nil)
    let result = Mutex<Result<UInt8, Errno>?>(nil)
}
