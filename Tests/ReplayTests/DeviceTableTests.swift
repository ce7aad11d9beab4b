import StrokeTracker
import Testing

@Suite struct DeviceTableTests {
    @Test func valuesAreAddedReplacedRemovedAndChangedInPlace() {
        var t = DeviceTable<[Int]>()
        t[id: DeviceID(3)] = [3]
        t[id: DeviceID(1)] = [1]
        t[id: DeviceID(2)] = [2]
        #expect(t.devices == [DeviceID(3), DeviceID(1), DeviceID(2)])
        t[id: DeviceID(1)] = [10]
        #expect(t.all == [[3], [10], [2]])
        let i = try! #require(t.index(of: DeviceID(2)))
        t[i].append(20)
        #expect(t[id: DeviceID(2)] == [2, 20])
        t[id: DeviceID(3)] = nil
        #expect(t.devices == [DeviceID(1), DeviceID(2)] && !t.contains(DeviceID(3)) && t[id: DeviceID(3)] == nil)
        t[id: DeviceID(9)] = nil
        #expect(t.all == [[10], [2, 20]])
    }
}
