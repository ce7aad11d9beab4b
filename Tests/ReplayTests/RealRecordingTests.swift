import Foundation
import MultitouchDecoder
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// Every real recording, bundled or in ../shared/recordings, checked against the figures its
/// MANIFEST gives (contacts = new tracking ids, max touches) and the lifecycle invariant. A touch
/// jump (docs/decoder.md) splits a contact into two strokes, so strokes = contacts + jumps.
@Suite struct RealRecordingTests {
    /// file prefix -> (contacts, most concurrent, still active at the end)
    static let manifest: [String: (contacts: Int, most: Int, active: Int)] = [
        "01": (66, 10, 0), "02": (12, 5, 0), "03": (4, 4, 0), "04": (34, 10, 2), "05": (12, 4, 0),
        "09": (3, 2, 0), "10": (2, 2, 0), "11": (2, 2, 0), "12": (45, 1, 0), "14": (15, 2, 0),
        // Pens: strokes = the pen touching (MANIFEST: 16 two, 17 a pen and an eraser stroke, 18 seven, 19 one).
        "16": (2, 1, 0), "17": (2, 1, 0), "18": (7, 1, 0), "19": (1, 1, 0),
    ]

    /// Touch jumps split by default: recording 14's firmware keeps a tracking id while one finger
    /// lifts and the other lands ~40 mm away (MANIFEST; `strokes render` shows the diagonals
    /// gone). With detection forced on, the touchscreen recordings have none either.
    static let jumps: [String: Int] = ["14": 19]

    static var files: [String] {
        var out = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path))?
            .filter { $0.hasSuffix(".evemu") }.map { Fixtures.path($0) } ?? []
        if let shared = Fixtures.sharedRecordings,
            let names = try? FileManager.default.contentsOfDirectory(atPath: shared.path)
        {
            out += names.filter { $0.first!.isNumber }.map { shared.appendingPathComponent($0).path }
        }
        return out.sorted()
    }

    @Test(arguments: files)
    func recordingMatchesItsManifestAndKeepsTheInvariant(path: String) throws {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let expected = try #require(Self.manifest[String(name.prefix(2))])
        var replayer = try Replayer(recording: RecordingReader.read(path: path))
        let events = try replayer.runToEnd()
        var open = Set<StrokeID>()
        for e in events {
            switch e.kind {
            case .began: #expect(open.insert(e.stroke).inserted)
            case .moved: #expect(open.contains(e.stroke))
            case .ended, .cancelled: #expect(open.remove(e.stroke) != nil)
            case .hover: #expect(!open.contains(e.stroke), "hover never carries a stroke's id")
            }
        }
        let summary = replayer.finalSummary
        #expect(summary.began - summary.jumps == expected.contacts, "\(name)")
        #expect(summary.jumps == (Self.jumps[String(name.prefix(2))] ?? 0), "\(name)")
        #expect(summary.mostConcurrent == expected.most, "\(name)")
        #expect(summary.stillActive == expected.active && open.count == expected.active, "\(name)")
        #expect(summary.cancelled.isEmpty, "no recording has drops or palms")
    }

    @Test func bundledFixturesAreAttributed() throws {
        let readme = try String(contentsOf: Fixtures.directory.appendingPathComponent("README.md"), encoding: .utf8)
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path).filter { $0 != "README.md" }
        for file in files { #expect(readme.contains(file), "\(file) has no attribution in Fixtures/README.md") }
    }
}
