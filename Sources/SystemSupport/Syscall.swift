import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// The one funnel for system calls and for C libraries that report errors the same ways
/// (`swift-system`'s `valueOrErrno(retryOnInterrupt:)`, NIO's `syscall(blocking:where:_:)`):
///
/// - a call interrupted by a signal (`EINTR`) is made again;
/// - any other failure is thrown as a typed `Errno`, never ignored;
/// - an errno that can only mean a bug in the caller (`EBADF`, `EFAULT`: a descriptor or pointer
///   the program got wrong) traps, like NIO's `preconditionIsNotUnacceptableErrno`, instead of
///   being handled as if the outside world had failed.
///
/// `close(2)` is not made through `retrying`: on Linux the descriptor is gone even when close
/// reports `EINTR`, and closing it again could close a descriptor another thread was just given.
/// Use `closeDescriptor(_:)`.
public enum Syscall {
    /// Calls `call`, which returns -1 and sets `errno` on failure (the POSIX convention), until
    /// it does not fail with `EINTR`; returns its result.
    @inlinable
    public static func retrying<Result: FixedWidthInteger>(
        file: StaticString = #fileID, line: UInt = #line, _ call: () -> Result
    ) throws(Errno) -> Result {
        while true {
            let result = call()
            guard result == -1 else { return result }
            let error = Errno(rawValue: errno)
            if error == .interrupted { continue }
            preconditionIsNotProgrammerError(error, file: file, line: line)
            throw error
        }
    }

    /// Calls `call`, which returns a negated errno on failure and zero or more on success (the
    /// kernel's and libevdev's convention), until it does not fail with `-EINTR`.
    @inlinable
    public static func retryingNegatedErrno<Result: FixedWidthInteger & SignedInteger>(
        file: StaticString = #fileID, line: UInt = #line, _ call: () -> Result
    ) throws(Errno) -> Result {
        while true {
            let result = call()
            guard result < 0 else { return result }
            let error = Errno(rawValue: CInt(truncatingIfNeeded: -result))
            if error == .interrupted { continue }
            preconditionIsNotProgrammerError(error, file: file, line: line)
            throw error
        }
    }

    /// `close(2)`, once (see the type's notes on `EINTR`). Errors other than `EINTR` are thrown.
    public static func closeDescriptor(_ fd: CInt, file: StaticString = #fileID, line: UInt = #line) throws(Errno) {
        guard close(fd) == -1 else { return }
        let error = Errno(rawValue: errno)
        if error == .interrupted { return }
        preconditionIsNotProgrammerError(error, file: file, line: line)
        throw error
    }

    /// Traps on the errnos that mean the program, not the system, is wrong.
    @inlinable
    public static func preconditionIsNotProgrammerError(_ error: Errno, file: StaticString = #fileID, line: UInt = #line) {
        precondition(
            error != .badFileDescriptor && error != .badAddress,
            "unacceptable errno \(error.rawValue) (\(error)): a bug in the caller", file: file, line: line)
    }
}
