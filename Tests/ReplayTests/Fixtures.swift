import Foundation
import GestureRecognizer
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

    /// The JSON lines `strokes replay` prints for `recording` (`--hover`: with hover events,
    /// `--gestures`: with gesture events after the stroke events of each frame).
    static func transcript(_ recording: Recording, hover: Bool = false, gestures: Bool = false) throws -> [String] {
        var replayer = try Replayer(recording: recording)
        var recognizers = GestureRecognizers()
        for d in replayer.devices { recognizers.add(d.id, geometry: d.geometry, kind: d.description.kind) }
        var lines: [String] = []
        var events: [StrokeEvent] = []
        var steps: [Gesture] = []
        while let step = try replayer.next(into: &events) {
            for e in events {
                if case .hover = e.kind, !hover { continue }
                lines.append(e.json(geometry: replayer.tracker.geometry(of: e.device)!))
            }
            if gestures {
                recognizers.process(events, device: step.device, time: step.time, into: &steps)
                lines += steps.map { $0.json() }
                steps.removeAll()
            }
            events.removeAll()
        }
        let live = replayer.tracker.live.map { String($0.id.rawValue) }.joined(separator: ",")
        lines.append("{\"type\":\"replayEnded\",\"frames\":\(replayer.finalSummary.frames),\"stillActive\":[\(live)]}")
        return lines
    }
}
