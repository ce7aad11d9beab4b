import Foundation
import StrokeRecording
import StrokeRender

enum RenderFixtures {
    static let repo: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }  // file, RenderTests, Tests
        return dir
    }()

    /// The recordings ReplayTests bundles (with their attribution in Fixtures/README.md).
    static func path(_ name: String) -> String { repo.appendingPathComponent("Tests/ReplayTests/Fixtures/" + name).path }

    /// `../shared/recordings` beside the repository, when present.
    static var sharedRecordings: URL? {
        let shared = repo.deletingLastPathComponent().appendingPathComponent("shared/recordings")
        return FileManager.default.fileExists(atPath: shared.path) ? shared : nil
    }

    static let goldenDirectory = Bundle.module.url(forResource: "Golden", withExtension: nil)!

    static func scene(_ name: String) throws -> RenderScene {
        try RenderScene(recording: try RecordingReader.read(path: path(name)), title: name)
    }

    static let all = [
        "01-wacom-dth2242-touchscreen-10finger.evemu", "02-dell-canvas-cooltouch-touchscreen-5finger.evemu",
        "03-atmel-maxtouch-touchscreen-4finger-drag.evemu", "03+11-two-devices.libinput.yml",
        "05-nexus4-touch_dev-mt-only-4finger.evemu", "09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu",
        "10-wacom-intuos5-touch-indirect-2finger-circle.evemu", "11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu",
        "12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu",
    ]
}
