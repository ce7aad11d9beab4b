import MultitouchDecoder
import Testing

/// The sample's size is a performance contract (`ContactSample.padding`): four whole 16-byte
/// blocks, so that no copy of it ends in a block overlapping another.
@Suite struct ContactSampleLayoutTests {
    @Test func aSampleIsFourWholeBlocks() {
        #expect(MemoryLayout<ContactSample>.size == 64)
        #expect(MemoryLayout<ContactSample>.stride == 64)
    }

    @Test func thePaddingIsInvisible() {
        var a = ContactSample(x: 1, y: 2)
        let b = a
        a.x = 1
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }
}
