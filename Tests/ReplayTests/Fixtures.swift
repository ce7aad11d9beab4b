import Foundation
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker

enum Fixtures {
    static let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
    static let goldenDirectory = Bundle.module.url(forResource: "Golden", withExtension: nil)!

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func recording(_ name: String) throws -> Recording {
        try RecordingReader.read(path: path(name))
    }

    /// `../shared/recordings` beside the repository, when present.
    static var sharedRecordings: URL? {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }  // file, ReplayTests, Tests
        let shared = dir.deletingLastPathComponent().appendingPathComponent("shared/recordings")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }

    /// The JSON lines `strokes replay` prints for `recording` (`--hover`: with hover events).
    static func transcript(_ recording: Recording, hover: Bool = false) throws -> [String] {
        var replayer = try Replayer(recording: recording)
        let events = try replayer.runToEnd().filter { e in
            if case .hover = e.kind { return hover }
            return true
        }
        var lines = events.map { $0.json(geometry: replayer.tracker.geometry(of: $0.device)!) }
        let live = replayer.tracker.live.map { String($0.id.rawValue) }.joined(separator: ",")
        lines.append("{\"type\":\"replayEnded\",\"frames\":\(replayer.finalSummary.frames),\"stillActive\":[\(live)]}")
        return lines
    }
}
