import InputCore
import NIOCore
@testable import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import Testing

/// What a slow client gets for a merged `moved` or hover `motion`: the shared line's bytes with
/// `,"merged":n` where the writer said it goes (docs/protocol.md, "Slow clients").
@Suite struct MergedLineTests {
    /// The text splice this replaced, kept as the reference for the bytes on the wire: `merged`
    /// after `seq` (a hover: after `phase`).
    static func spliced(_ line: String, _ merged: Int) -> String {
        guard let r = line.range(of: ",\"stroke\":") ?? line.range(of: ",\"device\":") else { return line }
        var out = line
        out.insert(contentsOf: ",\"merged\":\(merged)", at: r.lowerBound)
        return out
    }

    @Test(arguments: ["16-wacom-cintiq13hd-pen-hover-tilt.evemu", TestDaemon.tenFingers])
    func mergedLinesAreTheSharedLineWithTheCountAfterSeqOrPhase(recording name: String) throws {
        let recording = try RecordingReader.read(path: TestDaemon.fixture(name))
        var hub = Hub(historyLimit: 8, resumeLimit: 8)
        let (id, _) = try hub.addDevice(path: name, description: recording.devices[0].description)
        var out: [Broadcast] = []
        var assembler = FrameAssembler()
        for input in recording.devices[0].events.compactMap({ assembler.feed($0) }) {
            hub.process(input, device: id, into: &out)
        }
        let mergeable = out.filter { $0.mergeKey != nil }
        #expect(mergeable.contains { $0.isHover } == name.contains("hover"))
        #expect(mergeable.contains { !$0.isHover })
        for b in mergeable {
            let offset = try #require(b.mergedOffset)
            for count in [1, 7, 12345] {
                let buffer = Outgoing.merged(Outgoing.lineBuffer(b.line), at: offset, count: count)
                let text = String(buffer: buffer)
                #expect(text == Self.spliced(b.line, count) + "\n")
                switch try ServerMessage(line: text.dropLast()) {
                case .stroke(let e): #expect(e.kind == .moved && e.merged == count)
                case .hover(let h): #expect(h.phase == .motion && h.merged == count)
                default: Issue.record("not a merged move or motion: \(text)")
                }
            }
        }
    }
}
