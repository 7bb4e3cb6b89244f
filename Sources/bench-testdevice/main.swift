// bench-testdevice: small shares through ExtHostTesting's TestDevice, the way a user's test suite
// runs them (a benchmark, not a test; Scripts/bench-goals runs it from a release build).
//
// Usage: bench-testdevice APP ITEMS [--shares N] [--in-a-row M]
// Installs the app bundle APP on one fresh TestDevice, shares ITEMS with its extension N times
// (default 50; the first is a warm-up, not counted) and then M times in a row (default 200), each
// share a real sandboxed extension process, and prints one JSON object: each counted share's wall
// milliseconds, the M shares' total seconds, and the entries committed. Exit 1 when a share does
// not complete, 2 for bad usage.
import ExtHostTesting
import Foundation

struct Usage: Error { let message: String }
struct Incomplete: Error, CustomStringConvertible { let description: String }

func arguments() throws(Usage) -> (app: URL, items: URL, shares: Int, inARow: Int) {
    var rest = CommandLine.arguments.dropFirst()
    var positional: [String] = []
    var shares = 50
    var inARow = 200
    while let argument = rest.popFirst() {
        switch argument {
        case "--shares", "--in-a-row":
            guard let text = rest.popFirst(), let count = Int(text), count >= 0 else {
                throw Usage(message: "\(argument) needs a count")
            }
            if argument == "--shares" { shares = count } else { inARow = count }
        default: positional.append(argument)
        }
    }
    guard positional.count == 2 else {
        throw Usage(message: "usage: bench-testdevice APP ITEMS [--shares N] [--in-a-row M]")
    }
    return (URL(fileURLWithPath: positional[0]), URL(fileURLWithPath: positional[1]), shares, inARow)
}

@MainActor
func run() async -> Int32 {
    let options: (app: URL, items: URL, shares: Int, inARow: Int)
    do { options = try arguments() } catch {
        FileHandle.standardError.write(Data("bench-testdevice: \(error.message)\n".utf8))
        return 2
    }
    do {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: options.app)
        var committed = 0
        func share() async throws -> Double {
            let started = ContinuousClock.now
            let report = try await device.share(itemsAt: options.items)
            let elapsed = ContinuousClock.now - started
            guard report.completed else {
                throw Incomplete(
                    description: "a share did not complete: \(report.extension?.reason ?? "no extension run")")
            }
            committed += report.committed
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        _ = try await share()  // warm-up: the first share pays for the page cache and the first fork
        var each: [Double] = []
        for _ in 0..<options.shares { each.append(try await share()) }
        let rowStarted = ContinuousClock.now
        for _ in 0..<options.inARow { _ = try await share() }
        let row = ContinuousClock.now - rowStarted
        let result: [String: Any] = [
            "sharesMilliseconds": each,
            "inARow": options.inARow,
            "inARowSeconds": Double(row.components.seconds) + Double(row.components.attoseconds) / 1e18,
            "committed": committed,
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
        return 0
    } catch {
        FileHandle.standardError.write(Data("bench-testdevice: \(error)\n".utf8))
        return 1
    }
}

exit(await run())
