import AppGroups
import Foundation
import HostSystem
import Testing

@testable import ExtensionHost

/// The stress runner as a library call: the same seed draws the same run, and a run on a device
/// with nothing installed stresses the generic app in a scratch copy, with real reader processes.
struct ShareStressTests {
    @Test func theSameSeedDrawsTheSameAttachments() throws {
        var first = SplitMix64(seed: 99)
        var second = SplitMix64(seed: 99)
        let folders = try (0..<2).map { _ in
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("stress-plan-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }
        let a = try ShareStress.makeItems(
            in: folders[0], count: 50, random: &first, rates: (0.2, 0.2), maxSize: 10_000, maxDelay: 5)
        let b = try ShareStress.makeItems(
            in: folders[1], count: 50, random: &second, rates: (0.2, 0.2), maxSize: 10_000, maxDelay: 5)
        #expect(a.map(\.sha256) == b.map(\.sha256))
        #expect(a.map(\.fault) == b.map(\.fault))
        #expect(Set(a.map(\.kind)).count == 3)
        let manifestA = try Data(contentsOf: folders[0].appendingPathComponent("share.json"))
        let manifestB = try Data(contentsOf: folders[1].appendingPathComponent("share.json"))
        #expect(manifestA == manifestB)
    }

    @Test func aRunOnAnEmptyDeviceStressesTheGenericAppAndFindsNothingWrong() async throws {
        let programs = try #require(InstalledPrograms.nextToExecutable())
        let source = DeviceRoot(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stress-none-\(UUID().uuidString)"))
        var stress = ShareStress(seed: 4242)
        stress.attachments = 25
        stress.readers = 1
        stress.failureRate = 0.2
        stress.cancelRate = 0.1
        stress.maxSize = 50_000
        var notes: [ShareStress.Note] = []
        let summary = try await stress.run(source: source, rootDescription: "none", programs: programs) {
            notes.append($0)
        }
        #expect(notes.count == 1, "the generic app stood in")
        #expect(summary.problems.isEmpty, "\(summary.problems)")
        #expect(summary.committed + summary.injected == 25)
        #expect(summary.injected > 0)
        #expect(summary.work == nil)
        #expect(!FileManager.default.fileExists(atPath: source.url.path), "the source device is only read")
    }

    @Test func aConfigurationOutOfRangeIsBadInput() async throws {
        let programs = try #require(InstalledPrograms.nextToExecutable())
        var stress = ShareStress(seed: 1)
        stress.failureRate = 0.8
        stress.cancelRate = 0.8
        await #expect {
            _ = try await stress.run(
                source: DeviceRoot(url: URL(fileURLWithPath: "/nonexistent")), rootDescription: "x", programs: programs)
        } throws: { error in
            (error as? ShareError)?.kind == .badInput
        }
    }
}
