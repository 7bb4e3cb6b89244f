import ExtHostTestSupport
import ExtHostTesting
import Foundation
import Testing

/// What `TestDevice` tells a user's test that asks for something the device does not hold: an
/// error naming what is missing, before anything runs.
@Suite(.timeLimit(.minutes(2)))
struct TestDeviceErrorTests {
    struct BodyFailure: Error, Equatable {}

    @Test func anEmptyDeviceNamesWhatIsMissing() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        #expect(FileManager.default.fileExists(atPath: device.root.url.path))
        #expect(
            FileManager.default.fileExists(
                atPath: TestDevice.packageDirectory.appendingPathComponent("Package.swift").path))
        let noExtension = await #expect(throws: TestDeviceError.self) {
            try await device.share(itemsAt: TestSupport.demoItems)
        }
        #expect(noExtension?.description == "no extension is installed on the device")
        let noApp = #expect(throws: TestDeviceError.self) { try device.inbox(group: TestSupport.group) }
        #expect(noApp?.description == "no installed app is entitled to \(TestSupport.group)")
        // A name that is no App Group identifier is refused by AppGroups, naming it.
        let badGroup = #expect(throws: (any Error).self) { try device.inbox(group: "not a group") }
        #expect(badGroup.map { "\($0)" }?.contains("not a group") == true)
        #expect(device.groupContainer(TestSupport.group) == nil)
        device.remove()
        #expect(!FileManager.default.fileExists(atPath: device.root.url.path))
    }

    @Test func anExtensionThatIsNotInstalledIsNamed() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: try TestDeviceTests.app(in: device.root.url))
        let error = await #expect(throws: TestDeviceError.self) {
            try await device.share(preset: "safari-webpage", extension: "com.example.not-installed")
        }
        #expect(error?.description == "no extension 'com.example.not-installed' is installed on the device")
    }

    /// The app runs on its own (its launch lists what it holds), and an error the body of
    /// `withRunningApp` throws reaches the caller after the app is stopped.
    @Test func runAppAndABodyThatThrows() async throws {
        let device = try TestDevice()
        defer { device.remove() }
        try device.install(appAt: try TestDeviceTests.app(in: device.root.url))
        let run = try await device.runApp("com.example.carddrop")
        #expect(run.output.contains("0 received files in Documents/Received"), "\(run.output)")
        await #expect(throws: BodyFailure.self) {
            try await device.withRunningApp("com.example.carddrop") { _ in throw BodyFailure() }
        }
        let socket = AppLaunchServer.socketPath("com.example.carddrop", on: device.root)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
