// The C peer for decode + track (`../shared/peers/c_slot_loop.c`, see its README): compiled once
// per invocation with `gcc -O2` and run on the same recordings, so that strokes' figure and the
// peer's come from the same run on the same (shared, noisy) machine.

#if canImport(Glibc)
import Glibc
#endif

struct SlotLoopPeer {
    /// The compiled peer.
    let binary: String

    /// The peer's source, relative to the repository (where `swift run` runs).
    static let source = "../shared/peers/c_slot_loop.c"

    /// Compiles the peer; nil, with the reason printed, when its source or `gcc` is missing.
    static func build() -> SlotLoopPeer? {
        guard access(source, R_OK) == 0 else {
            print("note: \(source) not found: no C peer figures in this run")
            return nil
        }
        let binary = "/tmp/strokes-bench-c_slot_loop-\(getpid())"
        guard system("gcc -O2 \(source) -o \(binary)") == 0 else {
            print("note: `gcc -O2 \(source)` failed: no C peer figures in this run")
            return nil
        }
        return SlotLoopPeer(binary: binary)
    }

    /// One run of the peer over `path`, `repeats` times through its events: events per second, as
    /// it prints them (its timer covers the loop over events already in memory, not the parsing).
    func eventsPerSecond(_ path: String, repeats: Int) -> Double? {
        guard let pipe = popen("\(binary) '\(path)' \(repeats)", "r") else { return nil }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard pclose(pipe) == 0 else { return nil }
        // "N events x R reps in T s: X M events/s (...)"
        guard let colon = output.lastIndex(of: ":") else { return nil }
        let figure = output[output.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
        return figure.map { $0 * 1e6 }
    }

    func remove() { unlink(binary) }
}
