import Foundation
import InputCore
import MultitouchDecoder
import StrokePipeline
import StrokeRecording
import StrokeTracker
import Testing

/// Decoding frames in place from reads (`FrameAssembler.feed(_:_:)`, `DevicePipeline.process` of a
/// `FrameViewInput`) gives the very stroke events, diagnostics and history that decoding assembled
/// frames one at a time gives.
@Suite struct FrameViewPipelineTests {
    @Test(arguments: CompactHistoryTests.files)
    func readsDecodeAsFramesDo(path: String) throws {
        let recording = try RecordingReader.read(path: path)
        for recorded in recording.devices {
            let expected = try run(recorded, readSize: nil)
            for size in [1, 3, 64, 170, 1 << 20] {
                let got = try run(recorded, readSize: size)
                #expect(got.events == expected.events, "\(path), reads of \(size)")
                #expect(got.diagnostics == expected.diagnostics, "\(path), reads of \(size)")
                #expect(got.completed == expected.completed, "\(path), reads of \(size)")
            }
        }
    }

    private func run(
        _ recorded: RecordedDevice, readSize: Int?
    ) throws -> (events: [StrokeEvent], diagnostics: DecoderDiagnostics, completed: [Stroke]) {
        var tracker = StrokeTracker(historyLimit: 1 << 20)
        var pipeline = try DevicePipeline(
            id: DeviceID(1), description: recorded.description, geometry: DeviceGeometry(description: recorded.description),
            tracker: &tracker)
        var assembler = FrameAssembler()
        var out: [StrokeEvent] = []
        if let readSize {
            recorded.events.withUnsafeBufferPointer { all in
                var offset = 0
                while offset < all.count {
                    let read = UnsafeBufferPointer(rebasing: all[offset..<min(offset + readSize, all.count)])
                    offset += read.count
                    assembler.feed(read) { pipeline.process($0, tracker: &tracker, into: &out) }
                }
            }
        } else {
            for event in recorded.events {
                guard let input = assembler.feed(event) else { continue }
                pipeline.process(input, tracker: &tracker, into: &out)
            }
        }
        return (out, pipeline.diagnostics, tracker.completed.map(\.stroke))
    }
}
