import Foundation
import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// Every input a fuzzer once broke (`Regressions/<target>/`, written by `Scripts/fuzz.sh`) and
/// every fixture, through the fuzz targets' oracles, in an ordinary test run.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repo = directory.deletingLastPathComponent().deletingLastPathComponent()

    static func files(_ dir: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.lastPathComponent != "README.md" }
            .sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzOracles.Target.allCases)
    func regressionsStayFixed(target: FuzzOracles.Target) throws {
        for file in Self.files(Self.directory.appendingPathComponent("Regressions/" + target.rawValue)) {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(FuzzOracles.check(target, bytes) == nil, "\(target.rawValue)/\(file.lastPathComponent)")
        }
    }

    /// The seeds of the reader targets, and the crafted hostile files, pass the oracles too.
    @Test func fixturesPassTheReaderOracles() throws {
        var checked = 0
        for dir in ["Tests/ReplayTests/Fixtures", "Tests/StrokeRecordingTests/Hostile"] {
            for file in Self.files(Self.repo.appendingPathComponent(dir)) {
                let name = file.lastPathComponent
                let target: FuzzOracles.Target =
                    name.hasSuffix(".yml") ? .libinputRecord : name.contains("evtest") ? .evtest : .evemu
                let bytes = try [UInt8](Data(contentsOf: file))
                #expect(FuzzOracles.check(target, bytes) == nil, "\(dir)/\(name)")
                if target == .libinputRecord { #expect(FuzzOracles.check(.yaml, bytes) == nil, "yaml: \(dir)/\(name)") }
                checked += 1
            }
        }
        #expect(checked > 20)
        let config = try [UInt8](Data(contentsOf: Self.repo.appendingPathComponent("config/strokes.yaml")))
        #expect(FuzzOracles.check(.yaml, config) == nil, "config/strokes.yaml")
    }

    @Test func theLifecycleOracleCatchesABrokenStream() {
        let description = DeviceDescription(name: "d", id: InputID(bustype: 0, vendor: 0, product: 0, version: 0))
        let point = StrokePoint(time: .zero, sample: ContactSample(), geometry: DeviceGeometry(description: description))
        func event(_ kind: StrokeEvent.Kind, _ id: UInt64) -> StrokeEvent {
            StrokeEvent(kind: kind, stroke: StrokeID(rawValue: id), device: DeviceID(1), frame: 1, slot: 0, trackingID: nil, point: point, flags: [])
        }
        #expect(FuzzOracles.checkLifecycle([event(.began, 1), event(.ended, 1)], live: []) == nil)
        #expect(FuzzOracles.checkLifecycle([event(.moved, 1)], live: []) != nil)
        #expect(FuzzOracles.checkLifecycle([event(.began, 1), event(.ended, 1), event(.cancelled(.eventsDropped), 1)], live: []) != nil)
        #expect(FuzzOracles.checkLifecycle([event(.began, 1)], live: []) != nil)
    }
}
