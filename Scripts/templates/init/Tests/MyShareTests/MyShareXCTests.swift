import ExtHostTesting
import Foundation
import XCTest

/// The same pipeline from XCTest.
final class MyShareXCTests: XCTestCase {
    func testTheRuleRefusesAnEmptyShare() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: TestDevice.packageDirectory.appendingPathComponent("MyApp.app"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let report = try await device.share(itemsAt: empty)
        XCTAssertFalse(report.activated, "an empty share does not show the extension")
        XCTAssertNil(report.extension)
    }
}
