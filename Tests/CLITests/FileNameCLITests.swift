import Foundation
import SystemSupport
import Testing

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
