import Foundation
import InputCore
import MultitouchDecoder
import StrokeRecording
import Testing

/// The daemon picks the devices it serves with `DeviceDescription.touchDecoding` and the decoder
/// accepts devices by the same rule: on every device of every bundled fixture and every real
/// recording, and on variants of each with its touch axes taken away, they agree.
@Suite struct TouchDecodingTests {
    static var files: [String] {
        var out = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.directory.path))?
            .filter { !$0.hasSuffix(".md") }.map { Fixtures.path($0) } ?? []
        if let shared = Fixtures.sharedRecordings,
            let names = try? FileManager.default.contentsOfDirectory(atPath: shared.path)
        {
            out += names.filter { $0.first!.isNumber }.map { shared.appendingPathComponent($0).path }
        }
        return out.sorted()
    }

    /// The description and what is left when each touch-defining code is removed in turn.
    static func variants(_ d: DeviceDescription) -> [DeviceDescription] {
        var out = [d]
        let absCodes: [UInt16] = [AbsCode.mtSlot, AbsCode.x, AbsCode.y, AbsCode.mtPositionX, AbsCode.mtPositionY]
        for code in absCodes where d.has(.abs, code) {
            var v = d
            v.codes[.abs]?.remove(code)
            v.absInfo[code] = nil
            out.append(v)
        }
        for code in [KeyCode.btnTouch] + d.penToolKeys where d.has(.key, code) {
            var v = d
            v.codes[.key]?.remove(code)
            out.append(v)
        }
        if d.has(.abs, AbsCode.mtSlot) {
            var many = d
            many.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: Int32(DeviceDescription.maxSlots))
            out.append(many)
        }
        return out
    }

    @Test(arguments: files)
    func classifierAndDecoderAgree(path: String) throws {
        let recording = try RecordingReader.read(path: path)
        #expect(!recording.devices.isEmpty)
        for device in recording.devices {
            #expect(device.description.touchDecoding.isDecodable, "\(path): a real touch device")
            for d in TouchDecodingTests.variants(device.description) {
                let decoder = Result { () throws(DecoderError) in try MultitouchDecoder(description: d) }
                switch (d.touchDecoding, decoder) {
                case (.slots(let count), .success(let m)): #expect(m.mode == .slots(count: count))
                case (.singleTouch, .success(let m)): #expect(m.mode == .singleTouch)
                case (.tool, .success(let m)): #expect(m.mode == .tool)
                case (.refused(.protocolAWithoutSingleTouch), .failure(.protocolAUnsupported)),
                    (.refused(.notATouchDevice), .failure(.notATouchDevice)),
                    (.refused(.tooManySlots), .failure(.tooManySlots)):
                    break
                case (let rule, let outcome):
                    Issue.record("\(path) \(d.name): classified \(rule), decoder gave \(outcome)")
                }
            }
        }
    }

    @Test func aDeviceWithoutTouchAxesIsRefused() {
        let keyboard = DeviceDescription(name: "kbd", id: InputID(bustype: 3, vendor: 1, product: 1, version: 1), codes: [.key: [30, 31]])
        #expect(keyboard.touchDecoding == .refused(.notATouchDevice))
        #expect(throws: DecoderError.notATouchDevice(deviceName: "kbd")) { try MultitouchDecoder(description: keyboard) }
    }
}
