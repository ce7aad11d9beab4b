#if canImport(Glibc)
import Glibc
#endif
import SystemSupport
import Testing

struct DescriptorLimitTests {
    private func limits() -> rlimit {
        var limit = rlimit()
        _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return limit
    }

    /// Never lowered (the test process shares its limit with every other test), raised to the
    /// hard limit by default, and what it returns is what is in force.
    @Test func raisesTheSoftLimitUpToTheHardOneAndNeverLowersIt() {
        let before = limits()
        #expect(DescriptorLimit.raiseSoft(to: 3) == before.rlim_cur)
        #expect(limits().rlim_cur == before.rlim_cur)
        let raised = DescriptorLimit.raiseSoft()
        #expect(raised == before.rlim_max)
        #expect(limits().rlim_cur == before.rlim_max)
        #expect(limits().rlim_max == before.rlim_max)
    }
}
