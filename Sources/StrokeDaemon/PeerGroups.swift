import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// The peer's supplementary groups, from `SO_PEERGROUPS` (Linux 4.13 and later), which the
/// kernel records at connect time like `SO_PEERCRED`.
///
/// Read into a fixed buffer of 128 groups (NIO's socket options have a fixed size and drop the
/// returned length): a peer in more groups than that, or a kernel without the option, gets nil
/// and only its primary group is matched. Group 0 is ignored in the list, since the buffer's
/// unused tail is zero; the primary group matches it.
enum PeerGroups {
    static let capacity = 128
    typealias Buffer = (gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t, gid_t)

    static func read(_ channel: Channel) -> Set<UInt32>? {
        let buffer: Buffer? = SocketOption.read(channel, 59)  // SO_PEERGROUPS
        return buffer.map { buffer in
            withUnsafeBytes(of: buffer) { raw in Set(raw.bindMemory(to: gid_t.self).filter { $0 != 0 }.map { UInt32($0) }) }
        }
    }
}
