import AppGroups
import ExtHostTestSupport
import Foundation
import HostSystem
import LaunchServices
import Testing

@testable import ExtHostCommands

/// Devices that live anywhere, installing and uninstalling apps, and the default device a user in
/// an empty folder meets.
@Suite(.timeLimit(.minutes(2)))
struct DeviceCommandsTests {
    /// A scratch folder standing for the user's data directory.
    struct Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID().uuidString)")
        var environment: [String: String] {
            ["XDG_DATA_HOME": url.appendingPathComponent("data").path, "HOME": url.path]
        }

        func run(_ arguments: [String], in directory: URL? = nil) async -> (ExitCode, String, String) {
            let context = CommandContext.collecting(
                environment: environment, currentDirectory: (directory ?? url).path)
            let code = await ExtHostCommands.main(arguments: arguments, context: context)
            return (code, context.collectedOutput, context.collectedError)
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// An app bundle with a share extension, written into `folder`; `mutate` spoils it.
    static func writeApp(in folder: URL, _ mutate: (URL) throws -> Void = { _ in }) throws -> URL {
        let template = TestSupport.packageRoot.appendingPathComponent("Scripts/templates/init/MyApp.app")
        let app = folder.appendingPathComponent("MyApp.app")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: template, to: app)
        // Programs standing for what `swift build` made.
        let products = folder.appendingPathComponent("products")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        for name in ["MyApp", "MyShare"] {
            let program = products.appendingPathComponent(name)
            try Data("#!/bin/sh\necho \(name)\n".utf8).write(to: program)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        }
        try mutate(app)
        return app
    }

    @Test func devicesAreMadeListedErasedAndDeleted() async throws {
        let home = Home()
        defer { home.remove() }
        let (made, out, err) = await home.run(["device", "create", "iPhone-A", "--ios", "16.4", "--json"])
        #expect(made == .success, "\(err)")
        let info = try JSONDecoder().decode(DeviceReports.Device.self, from: Data(out.utf8))
        #expect(info.iosVersion == "16.4")
        let root = info.root
        #expect(root.hasPrefix(home.url.appendingPathComponent("data/exthost/Devices").path))
        #expect(await home.run(["device", "create", "iPhone-A"]).0 == .usage)
        #expect(await home.run(["device", "create", "../escape"]).0 == .usage)
        #expect(await home.run(["device", "list"]).1.contains("iPhone-A"))
        let (listed, listJSON, _) = await home.run(["device", "list", "--json"])
        #expect(listed == .success)
        let list = try JSONDecoder().decode(DeviceReports.List.self, from: Data(listJSON.utf8))
        #expect(list.directory == home.url.appendingPathComponent("data/exthost/Devices").path)
        #expect(list.devices == [info])
        // `device show` reports the iOS version, the one property behaviours that changed between
        // versions read (DeviceRoot.iosVersion); a device made without --ios runs the current iOS.
        let (shown, showJSON, _) = await home.run(["device", "show", "iPhone-A", "--json"])
        #expect(shown == .success)
        #expect(try JSONDecoder().decode(DeviceReports.Device.self, from: Data(showJSON.utf8)) == info)
        #expect(await home.run(["device", "show", "iPhone-A"]).1.contains("iPhone-A: iOS 16.4"))
        #expect(await home.run(["device", "show", "nobody"]).0 == .usage)
        #expect(DeviceRoot(url: URL(fileURLWithPath: root)).iosVersion == IOSVersion(major: 16, minor: 4))
        #expect(DeviceRoot(url: URL(fileURLWithPath: root)).iosVersion.opensURLsThroughOpenURLSelector)
        #expect(await home.run(["device", "create", "iPhone-B", "--json"]).0 == .success)
        let current = DeviceRoot(url: home.url.appendingPathComponent("data/exthost/Devices/iPhone-B"))
        #expect(current.iosVersion == .current && !current.iosVersion.opensURLsThroughOpenURLSelector)
        #expect(await home.run(["device", "create", "iPhone-C", "--ios", "18.x"]).0 == .usage)
        #expect(await home.run(["device", "delete", "iPhone-B"]).0 == .success)

        let folder = home.url.appendingPathComponent("work")
        let app = try Self.writeApp(in: folder)
        let (installed, _, installError) = await home.run(
            ["install", app.path, "--device", "iPhone-A", "--products", folder.appendingPathComponent("products").path])
        #expect(installed == .success, "\(installError)")
        #expect(FileManager.default.fileExists(atPath: root + "/Bundles/MyApp.app/PlugIns/MyShare.appex/MyShare"))
        // The install order is recorded and shown; erasing the device starts it again.
        let (_, showInstalled, _) = await home.run(["device", "show", "iPhone-A", "--json"])
        let withApp = try JSONDecoder().decode(DeviceReports.Device.self, from: Data(showInstalled.utf8))
        #expect(withApp.installOrder.map(\.order) == ["install #1"], "\(showInstalled)")
        #expect(await home.run(["device", "show", "iPhone-A"]).1.contains(": install #1, team none"))
        #expect(await home.run(["device", "erase", "iPhone-A"]).0 == .success)
        #expect(!FileManager.default.fileExists(atPath: root + "/InstallRecords.plist"))
        #expect(!FileManager.default.fileExists(atPath: root + "/Bundles/MyApp.app"))
        #expect(FileManager.default.fileExists(atPath: root + "/device.plist"))
        #expect(await home.run(["device", "delete", "iPhone-A"]).0 == .success)
        #expect(!FileManager.default.fileExists(atPath: root))
        #expect(await home.run(["device", "erase", "iPhone-A"]).0 == .usage)
    }

    @Test func installMakesTheContainersSoTheAppCanWriteItsGroupAtOnce() async throws {
        let home = Home()
        defer { home.remove() }
        let folder = home.url.appendingPathComponent("work")
        let app = try Self.writeApp(in: folder)
        let products = folder.appendingPathComponent("products").path
        let (code, out, err) = await home.run(["install", app.path, "--products", products, "--json"], in: folder)
        #expect(code == .success, "\(err)")
        let report = try JSONDecoder().decode(DeviceReports.Install.self, from: Data(out.utf8))
        let groups = report.groupContainers
        #expect(groups.keys.sorted() == ["group.com.example.MyApp"])
        #expect(report.executables.keys == ["com.example.MyApp", "com.example.MyApp.MyShare"], "sorted")
        #expect(report.root.hasSuffix("exthost/Devices/default"), "the default device")
        let (set, _, setError) = await home.run(
            ["container", "defaults", "group.com.example.MyApp", "set", "onboarded", "true"], in: folder)
        #expect(set == .success, "\(setError)")
        #expect(
            await home.run(["container", "defaults", "group.com.example.MyApp", "get", "onboarded"], in: folder).1
                .contains("true"))

        // Reinstalling keeps the containers; uninstalling removes the app, its containers and its group.
        #expect(await home.run(["install", app.path, "--products", products], in: folder).1.contains("reinstalled"))
        let (removed, _, removeError) = await home.run(["uninstall", "com.example.MyApp"], in: folder)
        #expect(removed == .success, "\(removeError)")
        #expect(!FileManager.default.fileExists(atPath: groups["group.com.example.MyApp"] ?? "/"))
        #expect(await home.run(["uninstall", "com.example.MyApp"], in: folder).0 == .usage)
    }

    struct BadBundle: Sendable, CustomTestStringConvertible {
        let name: String
        let file: String
        let spoil: @Sendable (URL) throws -> Void
        var testDescription: String { name }
    }

    static let badBundles: [BadBundle] = [
        BadBundle(name: "no Info.plist", file: "MyApp.app/Info.plist") { app in
            try FileManager.default.removeItem(at: app.appendingPathComponent("Info.plist"))
        },
        BadBundle(name: "a missing executable", file: "MyShare.appex/Info.plist") { app in
            let info = app.appendingPathComponent("PlugIns/MyShare.appex/Info.plist")
            let text = try String(contentsOf: info, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "<string>MyShare</string>", with: "<string>Nowhere</string>").utf8)
                .write(to: info)
        },
        BadBundle(name: "entitlements that are not a plist", file: "MyShare.appex/MyShare.entitlements") { app in
            try Data("<plist><dict><key>oops".utf8).write(
                to: app.appendingPathComponent("PlugIns/MyShare.appex/MyShare.entitlements"))
        },
    ]

    @Test(arguments: badBundles) func aBadBundleExitsTwoNamingTheFileAndInstallsNothing(_ bad: BadBundle) async throws {
        let home = Home()
        defer { home.remove() }
        let folder = home.url.appendingPathComponent("work")
        let app = try Self.writeApp(in: folder, bad.spoil)
        let root = home.url.appendingPathComponent("root")
        let (code, _, err) = await home.run(
            ["install", app.path, "--root", root.path, "--products", folder.appendingPathComponent("products").path])
        #expect(code == .usage, "\(err)")
        #expect(err.contains(bad.file), "\(err)")
        let left = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
        #expect(left.filter { $0 != "Bundles" }.isEmpty, "left behind: \(left)")
    }

    /// The main command in a folder that is not this repository, with nothing installed: the
    /// default device is made, the generic app installed, the share completes, the inbox lists it.
    @Test func aShareInAnEmptyFolderUsesTheDefaultDeviceAndItsInboxListsTheItems() async throws {
        let home = Home()
        defer { home.remove() }
        let folder = home.url.appendingPathComponent("empty")
        let items = folder.appendingPathComponent("items")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: items.appendingPathComponent("a.txt"))
        try Data([0x63, 0x61, 0x66, 0xE9]).write(to: items.appendingPathComponent("latin1.txt"))
        try FileManager.default.copyItem(
            at: TestSupport.packageRoot.appendingPathComponent("Scripts/templates/init/rule.plist"),
            to: folder.appendingPathComponent("rule.plist"))
        let (code, out, err) = await home.run(["share", "--rule", "rule.plist", "items/"], in: folder)
        #expect(code == .success, "\(err)\n\(out)")
        #expect(err.contains("generic app"))
        #expect(out.contains("completed"))
        let (listed, inbox, inboxError) = await home.run(["app", "inbox"], in: folder)
        #expect(listed == .success, "\(inboxError)")
        #expect(inbox.contains("a.txt") && inbox.contains("latin1.txt"), "\(inbox)")
    }
}
