import Foundation
import Testing

/// `strokes render` as a user runs it: files out, PNG through rsvg-convert, clear errors.
@Suite struct RenderCLITests {
    static let small = CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu")

    /// The stroke paths of an SVG `strokes render` wrote: id → (class, d).
    static func paths(_ svg: String) -> [String: (state: String, d: String)] {
        let regex = try! NSRegularExpression(pattern: #"<path class="stroke (\w+)" data-stroke="(\d+)"[^>]* d="([^"]*)"/>"#)
        var out: [String: (String, String)] = [:]
        let ns = svg as NSString
        for m in regex.matches(in: svg, range: NSRange(location: 0, length: ns.length)) {
            out[ns.substring(with: m.range(at: 2))] = (ns.substring(with: m.range(at: 1)), ns.substring(with: m.range(at: 3)))
        }
        return out
    }

    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "strokes-render-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func writesSVGToAFileAndToStandardOutput() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["render", Self.small, "-o", dir + "/out.svg"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        let svg = try String(contentsOfFile: dir + "/out.svg", encoding: .utf8)
        #expect(Self.paths(svg).count == 4)
        let stdout = try CLI.run(["render", Self.small, "-o", "-"])
        #expect(stdout.stdout == svg)
    }

    /// PNG through rsvg-convert (set up by Scripts/setup.sh): a real PNG, as large as the SVG says.
    @Test func writesPNG() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["render", Self.small, "-o", dir + "/out.png"])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/out.png")))
        try #require(png.count > 33)
        #expect(Array(png[0..<8]) == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        #expect(String(decoding: png[12..<16], as: UTF8.self) == "IHDR")
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let svg = try CLI.run(["render", Self.small, "-o", "-"]).stdout
        #expect(svg.contains(#"width="\#(be32(16))" height="\#(be32(20))""#))
        // --format wins over the extension.
        let forced = try CLI.run(["render", Self.small, "-o", dir + "/picture.img", "--format", "png"])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/picture.img")).starts(with: [0x89, 0x50]))
    }

    @Test func filtersByStrokeAndTime() throws {
        let one = Self.paths(try CLI.run(["render", Self.small, "-o", "-", "--stroke", "2", "--stroke", "4"]).stdout)
        #expect(one.keys.sorted() == ["2", "4"])
        let all = Self.paths(try CLI.run(["render", Self.small, "-o", "-"]).stdout)
        #expect(one["2"]!.d == all["2"]!.d)
        // Stroke 4 begins at 0.11 s: a window ending at 0.1 s has the other three only.
        let early = Self.paths(try CLI.run(["render", Self.small, "-o", "-", "--to", "0.1"]).stdout)
        #expect(early.keys.sorted() == ["1", "2", "3"])
    }

    @Test func badInputGetsAClearErrorAndAStatus() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let broken = dir + "/broken.evemu"
        var text = try String(contentsOfFile: Self.small, encoding: .utf8)
        text += "E: 1.000 0003 0035 banana\n"
        try text.write(toFile: broken, atomically: true, encoding: .utf8)
        let malformed = try CLI.run(["render", broken, "-o", dir + "/x.svg"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("broken.evemu:"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.svg"))

        #expect(try CLI.run(["render", dir + "/missing.evemu", "-o", "-"]).status == 66)
        let noSource = try CLI.run(["render", "-o", "-"])
        #expect(noSource.status == 64)
        #expect(noSource.stderr.contains("--socket"))
        #expect(try CLI.run(["render", Self.small, "-o", "-", "--follow", "1"]).status == 64)
        #expect(try CLI.run(["render", Self.small, "-o", "-", "--from", "2", "--to", "1"]).status == 64)
        let noDaemon = try CLI.run(["render", "--socket", dir + "/none.sock", "-o", "-"])
        #expect(noDaemon.status == 69)
        #expect(noDaemon.stderr.contains("cannot connect to \(dir)/none.sock"))
        let unwritable = try CLI.run(["render", Self.small, "-o", dir + "/no/such/dir/x.svg"])
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr.contains("cannot write"))
    }
}
