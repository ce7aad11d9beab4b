import Foundation
import Synchronization
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A recording whose file name is not UTF-8 (a Latin-1 name from an old archive) is read, and
/// written to, under that name; Swift's own argument decoding made it another name (U+FFFD), so
/// `describe`, `replay`, `render` and `daemon --replay` said "No such file" (adversary round 7).
@Suite struct FileNameCLITests {
    @Test func aFileNameThatIsNotUTF8OpensAndIsPrintedAsItsBytes() throws {
        let dir = NSTemporaryDirectory() + "strokes-latin1-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // "café-touch.evemu" and "café.svg" in Latin-1.
        let recording = FileName.decode(Array((dir + "/caf").utf8) + [0xe9] + Array("-touch.evemu".utf8))
        let output = FileName.decode(Array((dir + "/caf").utf8) + [0xe9] + Array(".svg".utf8))
        let fixture = try #require(try Files.contents(of: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu")))
        try Files.writeAtomically(fixture, to: recording)

        // ChildProcess hands the child each argument's original bytes (FileName.withCString).
        let (rendered, errors) = try ChildProcess.run(CLI.binary.path, arguments: ["render", recording, "-o", output])
        #expect(rendered == .exited(0), "\(String(decoding: errors, as: UTF8.self))")
        let svg = try #require(try Files.contents(of: output))
        #expect(String(decoding: svg, as: UTF8.self).contains("<path"))

        let missing = FileName.decode(Array((dir + "/gone").utf8) + [0xe9, 0xff])
        let (failed, message) = try ChildProcess.run(CLI.binary.path, arguments: ["describe", missing])
        #expect(failed == .exited(66))
        #expect(String(decoding: message, as: UTF8.self) == "strokes: \(dir)/gone\\xe9\\xff: cannot open: No such file or directory\n")
    }
}

/// What the OS refuses (the tenth black-box round, Tests/adversary/REPORT.md).
@Suite struct OutputRefusedCLITests {
    /// With SIGPIPE inherited ignored (a service, some shells), a closed pipe made `replay` exit
    /// 0: cut output looked complete. It ends as the default signal would, status 141.
    @Test func aClosedPipeEndsTheReplayAsSIGPIPEWouldEvenWhenItIsIgnored() throws {
        let dir = NSTemporaryDirectory() + "strokes-epipe-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = #"trap "" PIPE; ("$0" replay "$1"; echo $? > "$2") | true"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, CLI.binary.path, CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"), dir + "/status"]
        try process.run()
        process.waitUntilExit()
        let status = try String(contentsOfFile: dir + "/status", encoding: .utf8)
        #expect(status == "141\n")
    }

    /// `render -o` over a FIFO, a symbolic link or a device writes through it, as `>` does; it
    /// renamed a regular file over them (`-o /dev/stdout` wrote nothing, as root `-o /dev/null`
    /// replaced the device).
    @Test func renderWritesThroughASymbolicLinkAndAFIFO() throws {
        let dir = NSTemporaryDirectory() + "strokes-special-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "old".write(toFile: dir + "/target.svg", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.svg", withDestinationPath: dir + "/target.svg")
        let fixture = CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        #expect(try CLI.run(["render", fixture, "-o", dir + "/link.svg"]).status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/link.svg")
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is still a link")
        #expect(try String(contentsOfFile: dir + "/target.svg", encoding: .utf8).contains("<svg"))
        // A FIFO, read as the command writes it (a private one: a regression must not replace the
        // machine's /dev/null).
        let fifo = dir + "/viewer.svg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let read = Mutex<[UInt8]>([])
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = Glibc.read(fd, &chunk, chunk.count)
                if n <= 0 { break }
                read.withLock { $0 += chunk[0..<n] }
            }
        }
        reader.start()
        #expect(try CLI.run(["render", fixture, "-o", fifo]).status == 0)
        for _ in 0..<2000 where !reader.isFinished { usleep(1000) }
        if !reader.isFinished {
            // The command never opened the FIFO: release the reader rather than hang.
            Issue.record("render did not write to the FIFO")
            close(open(fifo, O_WRONLY | O_NONBLOCK))
            while !reader.isFinished { usleep(1000) }
        }
        #expect(String(decoding: read.withLock { $0 }, as: UTF8.self).contains("</svg>"))
        #expect(isFIFO(fifo), "the FIFO is still a FIFO")
    }

    private func isFIFO(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO
    }
}
