import HostSystem
import Testing

struct TerminationStatusTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var raw: CInt
        var expected: TerminationStatus
        var shell: CInt
        var testDescription: String { "0x\(String(raw, radix: 16)) → \(expected)" }
    }

    @Test(arguments: [
        Case(raw: 0x0000, expected: .exited(0), shell: 0),
        Case(raw: 0x0100, expected: .exited(1), shell: 1),
        Case(raw: 0x4600, expected: .exited(70), shell: 70),
        Case(raw: 0x000F, expected: .signaled(.terminate, coreDumped: false), shell: 143),
        Case(raw: 0x0009, expected: .signaled(.kill, coreDumped: false), shell: 137),
        Case(raw: 0x0086, expected: .signaled(.abort, coreDumped: true), shell: 134),
    ])
    func decodesTheWaitStatusWordByHand(_ test: Case) {
        let status = TerminationStatus(waitStatus: test.raw)
        #expect(status == test.expected)
        #expect(status.shellStatus == test.shell)
    }

    @Test func describesItselfForReports() {
        #expect(TerminationStatus.exited(3).description == "exited 3")
        #expect(TerminationStatus.signaled(.kill, coreDumped: false).description == "killed by SIGKILL")
    }
}
