import ExtHostTesting
import Foundation
import Testing

/// The extension through the real pipeline: installed on a fresh device, run as a separate,
/// sandboxed, memory-limited process; then the app, reading the group.
@Test(.timeLimit(.minutes(2))) func theExtensionSavesEverySharedItemAndTheAppSeesThem() async throws {
    let device = try TestDevice()
    defer { device.remove() }
    let package = TestDevice.packageDirectory
    try device.install(appAt: package.appendingPathComponent("MyApp.app"))

    let report = try await device.share(itemsAt: package.appendingPathComponent("items"))
    #expect(report.activated)
    #expect(report.completed, "\(report.extension?.reason ?? "did not run")\n\(report.log)")
    #expect(report.mistakes.isEmpty, "\(report.mistakes)")

    let saved = try device.defaults(group: "group.com.example.MyApp")["lastShare"] as? [String]
    #expect(saved == ["note.txt", "photo.png"])
    let app = try await device.runApp("com.example.MyApp")
    #expect(app.succeeded, "\(app.output)")
    #expect(app.output.contains("MyApp: 2 shared item(s)"))
}

/// A preset of what Safari shares: the link arrives as a URL object, as on a device.
@Test(.timeLimit(.minutes(2))) func aSafariPageIsSavedAsALink() async throws {
    let device = try TestDevice()
    defer { device.remove() }
    try device.install(appAt: TestDevice.packageDirectory.appendingPathComponent("MyApp.app"))
    let report = try await device.share(preset: "safari-webpage")
    #expect(report.completed, "\(report.log)")
    #expect(try device.defaults(group: "group.com.example.MyApp")["lastShare"] as? [String] == ["example.com.url"])
}

/// A document opened in the app: at launch it arrives in `scene(_:willConnectTo:options:)`, while
/// the app runs in `scene(_:openURLContexts:)`.
@Test(.timeLimit(.minutes(2))) func theAppOpensADocumentColdAndWarm() async throws {
    let device = try TestDevice()
    defer { device.remove() }
    let package = TestDevice.packageDirectory
    try device.install(appAt: package.appendingPathComponent("MyApp.app"))
    let note = package.appendingPathComponent("documents/hello.mynote")

    let cold = try await device.open(fileAt: note)
    #expect(cold.start == "cold")
    #expect(cold.delivery.method == .willConnectTo, "\(cold.delivery.detail)")
    #expect(cold.run?.output.contains("MyApp opened hello.mynote at launch: A note for MyApp.") == true)

    let app = try await device.withRunningApp("com.example.MyApp") { _ in
        let warm = try await device.open(fileAt: note)
        #expect(warm.start == "warm")
        #expect(warm.delivery.method == .openURLContexts, "\(warm.delivery.detail)")
    }
    #expect(app.output.contains("MyApp opened hello-1.mynote while running: A note for MyApp."), "\(app.output)")
}
