import AppGroups
import Foundation
import LaunchServices

/// `exthost device …`, `exthost install`, `exthost uninstall`: devices that live anywhere, as
/// `xcrun simctl` users know them.
enum DeviceCommands {
    static var all: [CommandSpec] { [create, list, show, erase, delete, install, uninstall] }

    static func devices(_ context: CommandContext) -> DeviceSet {
        DeviceSet.user(
            environment: context.environment.isEmpty ? ProcessInfo.processInfo.environment : context.environment)
    }

    static let create = CommandSpec(
        ["device", "create"], summary: "Make a device (an empty device root under the user's data directory).",
        arguments: "NAME", positionalCount: 1...1,
        options: [
            .value(.ios, "VERSION", "The iOS version it emulates (default \(DeviceSet.defaultIOSVersion))."),
            .flag(.json, "Machine output."),
        ],
        discussion: "Devices live in $XDG_DATA_HOME/exthost/Devices/NAME (~/.local/share/… when unset).",
        examples: ["exthost device create Bob && exthost device show Bob"]
    ) { parsed, context in
        let name = parsed.positionals[0]
        let info = try ContainerSupport.mappedNaming {
            try devices(context).create(named: name, iosVersion: parsed[.ios] ?? DeviceSet.defaultIOSVersion)
        }
        let root = devices(context).root(named: name)
        if parsed[.json] {
            try context.printJSON(encoding: DeviceReports.Device(info, root: root))
        } else {
            context.print("\(info.name) (\(info.udid), iOS \(info.iosVersion)): \(root.url.path)")
        }
        return .success
    }

    static let list = CommandSpec(
        ["device", "list"], summary: "List the devices.", options: [.flag(.json, "Machine output.")],
        examples: ["exthost device list"]
    ) { parsed, context in
        let set = devices(context)
        let found = set.list()
        if parsed[.json] {
            try context.printJSON(
                encoding: DeviceReports.List(
                    directory: set.directory.path,
                    devices: found.map { DeviceReports.Device($0, root: set.root(named: $0.name)) }))
        } else if found.isEmpty {
            context.print("no devices under \(set.directory.path) (the default one is made on first use)")
        } else {
            for info in found {
                let apps = set.root(named: info.name).bundleURLs().filter { $0.pathExtension == "app" }.count
                context.print(
                    "\(info.name.padded(16)) iOS \(info.iosVersion.padded(6)) \(info.udid)  \(apps) app\(apps == 1 ? "" : "s")"
                )
            }
        }
        return .success
    }

    static let show = CommandSpec(
        ["device", "show"], summary: "Show a device: its identifier, iOS version, root and installed apps.",
        arguments: "NAME", positionalCount: 1...1, options: [.flag(.json, "Machine output.")],
        discussion: """
            The iOS version decides the behaviours that changed between versions: from iOS 18 on, openURL: sent
            through an extension's responder chain opens nothing (UIApplication.open(_:options:completionHandler:)
            still does).
            """
    ) { parsed, context in
        let name = parsed.positionals[0]
        let set = devices(context)
        guard let info = set.info(named: name) else {
            throw CommandError.input(
                "no device named '\(name)' under \(set.directory.path); make it with 'exthost device create \(name)'")
        }
        let device = DeviceReports.Device(info, root: set.root(named: name))
        if parsed[.json] {
            try context.printJSON(encoding: device)
        } else {
            context.print("\(info.name): iOS \(info.iosVersion), \(info.udid)")
            context.print("  root \(device.root)")
            context.print("  apps: \(device.apps.isEmpty ? "none" : device.apps.joined(separator: ", "))")
            for app in device.installOrder {
                context.print("    \(app.bundleIdentifier): \(app.order), team \(app.teamIdentifier ?? "none")")
            }
        }
        return .success
    }

    static let erase = CommandSpec(
        ["device", "erase"], summary: "Erase a device: every app and container goes, the device stays.",
        arguments: "NAME", positionalCount: 1...1
    ) { parsed, context in
        let name = parsed.positionals[0]
        try ContainerSupport.mappedNaming { try devices(context).erase(named: name) }
        context.print("erased \(name)")
        return .success
    }

    static let delete = CommandSpec(
        ["device", "delete"], summary: "Delete a device and everything on it.", arguments: "NAME",
        positionalCount: 1...1
    ) { parsed, context in
        let name = parsed.positionals[0]
        try ContainerSupport.mappedNaming { try devices(context).delete(named: name) }
        context.print("deleted \(name)")
        return .success
    }

    static let install = CommandSpec(
        ["install"], summary: "Install an app bundle (and its extensions) on a device, making its containers.",
        arguments: "APP.app", positionalCount: 1...1,
        options: [
            ContainerSupport.rootOption, ContainerSupport.deviceOption,
            .values(.products, "DIR", "Where CFBundleExecutable programs are built (default: ./.build/debug)."),
            ContainerSupport.defineOption, .flag(.json, "Machine output."),
        ],
        discussion: """
            Copies APP.app to <root>/Bundles, with each bundle's CFBundleExecutable taken from the bundle or from
            --products (what 'swift build' made), and makes the app's data container and every App Group container
            the app's and its extensions' entitlements name, as a device does at install. Everything is checked and
            staged first: a bad bundle (no Info.plist, entitlements that are not a plist, a missing executable)
            exits 2 naming the file and leaves the device as it was. Reinstalling keeps the containers. The install
            is recorded in <root>/InstallRecords.plist (written atomically): its number in the device's install
            sequence (the later install wins a filename extension two apps declare different types for; an update
            takes a new number) and the app's team ID (com.apple.developer.team-identifier, else the prefix of
            application-identifier before its first '.'; an undefined $(AppIdentifierPrefix) leaves it unknown).
            """,
        examples: ["exthost init Demo && cd Demo && swift build && exthost install MyApp.app"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let defines = try ContainerSupport.mapped { try BuildSettings.parseDefines(parsed[.define]) }
        var products = parsed[.products].map { context.resolve($0) }
        if products.isEmpty { products = [context.resolve(".build/debug")] }
        let report = try ContainerSupport.mapped {
            try root.install(
                appAt: context.resolve(parsed.positionals[0]), productDirectories: products, defines: defines)
        }
        if parsed[.json] {
            try context.printJSON(encoding: DeviceReports.Install(report, root: root))
        } else {
            context.print(
                "\(report.replaced ? "reinstalled" : "installed") \(report.bundleIdentifier) on \(root.url.path)")
            context.print(
                "  install #\(report.sequence), team \(report.teamIdentifier ?? "none (no application-identifier)")")
            for identifier in report.extensions { context.print("  extension \(identifier)") }
            for (identifier, path) in report.executables.sorted(by: { $0.key < $1.key }) {
                context.print("  program of \(identifier): \(path)")
            }
            context.print("  data container \(report.dataContainer)")
            for group in report.groupContainers.keys.sorted() {
                context.print("  group \(group): \(report.groupContainers[group] ?? "")")
            }
        }
        return .success
    }

    static let uninstall = CommandSpec(
        ["uninstall"], summary: "Remove an installed app, its containers, and groups no other app uses.",
        arguments: "BUNDLE-ID", positionalCount: 1...1,
        options: [ContainerSupport.rootOption, ContainerSupport.deviceOption],
        discussion: """
            Removes the app's bundle and install record: a filename extension it took from an earlier install
            (both declaring a type for it) goes back to that app, as on a device.
            """,
        examples: ["exthost init Demo && exthost share Demo/items && exthost uninstall io.exthost.Generic"]
    ) { parsed, context in
        let root = try ContainerSupport.root(parsed, context)
        let removed = try ContainerSupport.mappedNaming { try root.uninstall(bundleIdentifier: parsed.positionals[0]) }
        context.print(
            "uninstalled \(parsed.positionals[0]) (\(removed.count) item\(removed.count == 1 ? "" : "s") removed)")
        return .success
    }
}
