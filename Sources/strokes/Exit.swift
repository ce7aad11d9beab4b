import ArgumentParser
import InputCore
import StrokeClient
import StrokeProtocol
import StrokeRecording
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// sysexits(3) codes, so scripts can tell bad input from a missing file.
enum Exit {
    /// `EX_USAGE`: the command line asks for something that cannot be (as ArgumentParser's
    /// validation errors).
    static let usage = ExitCode(64)
    /// `EX_DATAERR`: the input is malformed or cannot be decoded.
    static let dataError = ExitCode(65)
    /// `EX_NOINPUT`: the input file cannot be opened or read.
    static let noInput = ExitCode(66)
    /// `EX_UNAVAILABLE`: a service (the daemon, a helper program) is not there.
    static let unavailable = ExitCode(69)
    /// `EX_PROTOCOL`: the daemon speaks another protocol (or none).
    static let protocolError = ExitCode(76)
    /// `EX_SOFTWARE`: a helper program failed.
    static let software = ExitCode(70)
    /// `EX_CANTCREAT`: the output file cannot be created.
    static let cannotCreate = ExitCode(73)
    /// `EX_IOERR`: the output cannot be written.
    static let ioError = ExitCode(74)
}

/// Writes a diagnostic line to standard error, control characters escaped (`terminalSafe`):
/// messages quote what a daemon, a device or a file said, and a line on a terminal or in the
/// journal must stay one line that cannot move the cursor or retitle the window.
func printError(_ message: String) {
    writeAll(2, Array(("strokes: " + terminalSafe(message) + "\n").utf8))
}

/// Buffered standard output: a replay writes tens of thousands of lines.
struct OutputBuffer {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0a)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes and EINTR. A closed pipe ends the process
/// quietly by `SIGPIPE`, as `head` users expect, even where the signal was inherited ignored (a
/// service, some shells and runtimes): exiting 0 there made cut output look complete. Any other
/// failure ends it with `EX_IOERR` (74), said on standard error unless that is what failed.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buf in
        var offset = 0
        while offset < buf.count {
            do throws(Errno) {
                offset += try Syscall.retrying { write(fd, buf.baseAddress! + offset, buf.count - offset) }
            } catch .brokenPipe {
                diedOfBrokenPipe()
            } catch {
                if fd != 2 { printError("cannot write: \(error)") }
                exit(Exit.ioError.rawValue)
            }
        }
    }
}

/// What goes through the C library's `stdout` (ArgumentParser's `--help`, `--version`, usage) is
/// flushed at exit, where a failure (a full disk, a closed descriptor) was lost and the status 0:
/// checked, as every other output of ours is (`EX_IOERR`, 74). Registered with `atexit`.
func checkStandardOutputAtExit() {
    guard fflush(nil) != 0 else { return }
    if errno == EPIPE { diedOfBrokenPipe() }
    let message = "strokes: cannot write standard output: \(String(cString: strerror(errno)))\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    _exit(74)
}

/// Ends the process as the default `SIGPIPE` would (status 141 to a shell).
private func diedOfBrokenPipe() -> Never {
    signal(SIGPIPE, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGPIPE)
    sigprocmask(SIG_UNBLOCK, &set, nil)
    raise(SIGPIPE)
    exit(128 + SIGPIPE)
}

/// Reads a recording, or says why not on standard error (after flushing `out`, so the message
/// follows what was already printed) and throws the exit status: 66 unreadable, 65 malformed.
func loadRecording(_ path: String, flushing out: inout OutputBuffer) throws -> Recording {
    do {
        return try RecordingReader.read(path: path)
    } catch {
        throw report(error, flushing: &out)
    }
}

/// Opens a recording and reads its header, or says why not as `loadRecording` does.
func openRecording(_ path: String, flushing out: inout OutputBuffer) throws -> RecordingStream {
    do {
        return try RecordingStream.open(path: path)
    } catch {
        throw report(error, flushing: &out)
    }
}

/// Prints a recording's error after what `out` holds, and gives the exit status to throw.
private func report(_ error: RecordingError, flushing out: inout OutputBuffer) -> ExitCode {
    out.flush()
    printError(error.description)
    return error.line == nil && error.message.hasPrefix("cannot ") ? Exit.noInput : Exit.dataError
}

/// Checks the daemon's first line, its greeting: a `hello` of the protocol this client speaks
/// (`ProtocolVersion.current`), as `StrokeClient` does; another version's messages would be read
/// as this one's. Otherwise a message and `EX_PROTOCOL`.
func checkGreeting(_ line: String, from path: String) throws {
    guard case .hello(let hello)? = try? ServerMessage(line: line) else {
        printError("\(path) did not greet with the strokes protocol's hello: \(line.prefix(200))")
        throw Exit.protocolError
    }
    guard hello.protocol == ProtocolVersion.current else {
        printError("\(path) speaks protocol \(hello.protocol), this client \(ProtocolVersion.current)")
        throw Exit.protocolError
    }
}

/// Connects to the daemon's socket, or says why not and throws `EX_UNAVAILABLE` (69).
func connectToDaemon(_ path: String) throws -> LineSocket {
    do {
        return try LineSocket(path: path)
    } catch {
        printError("\(error)")
        throw Exit.unavailable
    }
}
