import NIOCore
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Writing to a client's socket without NIO's outbound path (`ClientConnection`): per client per
/// frame, NIO's pipeline, pending-writes bookkeeping and flush cost more than the `send` itself
/// (docs/performance.md, "Fifth round").
///
/// NIO accepted the socket and keeps owning it (it reads, watches writability, closes), and it
/// exposes no descriptor: the descriptor is found by the kernel's identity of the socket, its
/// cookie (`SO_COOKIE`, Linux 4.12), among the process's descriptors (`/proc/self/fd`), once per
/// client. Everything here runs on the daemon's event loop, where NIO closes that descriptor
/// too: a channel still active has it open.
enum DirectSocket {
    /// `SO_COOKIE`: a socket's 64-bit identity, unique while the system runs.
    static let cookieOption: Int32 = 57

    /// The descriptor of the channel's socket; nil when it cannot be found (no `/proc`, a kernel
    /// without `SO_COOKIE`), and the client is written through NIO as before.
    static func descriptor(of channel: Channel) -> Int32? {
        let cookie: UInt64? = SocketOption.read(channel, cookieOption)
        guard let cookie, cookie != 0, let names = try? Files.names(in: "/proc/self/fd") else { return nil }
        for name in names {
            if let fd = Int32(name), DirectSocket.cookie(of: fd) == cookie { return fd }
        }
        return nil
    }

    /// The cookie of the socket `fd` is; nil for a descriptor that is no socket.
    static func cookie(of fd: Int32) -> UInt64? {
        var value: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(fd, SOL_SOCKET, cookieOption, &value, &length) == 0 else { return nil }
        return value
    }

    /// Sends what the socket takes of `buffer` now, without blocking or `SIGPIPE`: the number of
    /// bytes taken (0 when it takes none), or nil after an error (the caller hands the bytes to
    /// NIO, whose write meets the same error, reports it and closes the channel).
    static func send(_ fd: Int32, _ buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { bytes -> Int? in
            do throws(Errno) {
                return try Syscall.retrying { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            } catch {
                return error == .resourceTemporarilyUnavailable ? 0 : nil
            }
        }
    }

    /// `SO_MEMINFO`'s `SK_MEMINFO_WMEM_ALLOC`: memory of the socket's writes its reader has not
    /// read yet (`ClientConnection.unreadBytes`), read straight from the descriptor.
    static func unreadBytes(_ fd: Int32) -> UInt32? {
        var info = SocketMemoryInfo()
        var length = socklen_t(MemoryLayout<SocketMemoryInfo>.size)
        guard getsockopt(fd, SOL_SOCKET, SocketMemoryInfo.option, &info, &length) == 0 else { return nil }
        return info.unreadBytes
    }
}
