import AppGroups
import ExtensionHost
import Foundation
import HostSystem
import LaunchServices

/// `exthost airdrop`: one device sends a file to another over a real loopback TCP connection; the
/// receiver is a separate process listening on 127.0.0.1 that checks the transfer and routes it
/// (``AirDropTransfer`` does both; this maps options and renders).
enum AirDropCommand {
    static let receiveName = InstalledPrograms.Role.airDropReceiver.rawValue

    static var all: [CommandSpec] { [airdrop, receive] }

    static let airdrop = CommandSpec(
        ["airdrop"],
        summary: "AirDrop a file from one device to another over loopback (exit 0, 1, 2, 3).",
        arguments: "FILE", positionalCount: 1...1,
        options: [
            .value(
                .from, "DEVICE",
                "The sending device (a name from 'exthost device list', or a root folder; default: the default device)."
            ),
            .value(.to, "DEVICE", "The receiving device (a name, or a root folder)."),
            .flag(.accept, "The receiver accepts (and opens with the first app, or --with)."),
            .flag(.decline, "The receiver declines (the default)."),
            .value(.with, "BUNDLE-ID", "The app chosen on the receiver."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            The sender types the file with its own installed apps' declarations and announces its name, type
            identifier, size and SHA-256; the receiver (exthost __airdrop-receive, a separate process listening
            on 127.0.0.1) refuses a name that is not a plain file name (empty, '.', a folder, a NUL), a size
            beyond its free space, more or fewer bytes than announced, a digest that does not match, or a sender
            that sends nothing for 30 s mid-transfer, leaving nothing behind; the sender reports the refusal. Two
            transfers of one name never replace each other (the second is numbered -1). It types the file by the
            sender's identifier when one of its apps declares it, else by the filename extension. iOS 17+ (the
            receiver's device.plist; a root folder without one is iOS 18): saved to Downloads, then Move to App… into the app's Documents/Inbox. Before:
            Open with the app, the file moved into its Inbox. No app: the file requires an app (kept in Downloads
            only when accepted, as Save to Files). Exit: 0 accepted, 1 refused, 2 bad input, 3 declined or
            requires an app.
            """,
        examples: [
            "exthost init Demo && exthost device create Bob && exthost airdrop Demo/items/photo.png --to Bob --accept  "
                + "# exit 3: no app on Bob opens a PNG, so it is saved to Downloads"
        ]
    ) { parsed, context in
        guard let toName = parsed[.to] else {
            throw CommandError.usage(
                "exthost airdrop needs --to DEVICE, the receiving device (make one with 'exthost device create NAME')")
        }
        let fromName = parsed[.from] ?? DeviceSet.defaultName
        let from = try device(fromName, context)
        let to = try device(toName, context)
        let programs = try Executables.programs()
        let offer: AirDropOffer
        let report: AirDropReport
        do throws(AirDropError) {
            (offer, report) = try await AirDropTransfer.send(
                context.resolve(parsed.positionals.first ?? ""), from: from,
                senderName: from.deviceInfo?.name ?? fromName, to: to, accept: parsed[.accept] && !parsed[.decline],
                chosenApp: parsed[.with], programs: programs)
        } catch {
            switch error.kind {
            case .badInput: throw CommandError.input(error.message)
            case .failed: throw CommandError.failed(error.message)
            }
        }
        let receipt = report.receipt
        if parsed[.json] {
            try context.printJSON(encoding: report)
        } else {
            context.print("\(offer.name) (\(offer.typeIdentifier), \(offer.bytes) bytes) from \(offer.sender)")
            context.print("\(receipt.outcome) [\(receipt.flow)]: \(receipt.reason)")
            for handler in receipt.handlers {
                context.print("  open with \(handler.bundleIdentifier) [\(handler.rank)]")
            }
            if let path = receipt.path { context.print("at \(path) in \(to.url.path)") }
            if let launch = receipt.delivery?.app {
                context.print(
                    AppHandOff.line(
                        launch.delivery, start: launch.start, bundle: launch.bundleIdentifier, pid: launch.pid))
            }
        }
        switch receipt.outcome {
        case "accepted": return .success
        case "refused": return .failure
        default: return .no
        }
    }

    static let receive = CommandSpec(
        [receiveName], summary: "The receiving side of 'exthost airdrop' (a listening process).",
        options: [
            .value(.root, "DIR", "The receiving device's root."),
            .flag(.accept, "Accept."), .value(.with, "BUNDLE-ID", "The app chosen."),
            .value(
                .stallLimit, "SECONDS", "Refuse a sender that sends nothing for this long mid-transfer (default 30)."),
        ],
        discussion: "Needs the loopback listener 'exthost airdrop' binds on descriptor 3."
    ) { parsed, context in
        guard let rootPath = parsed[.root] else { throw CommandError.usage("needs --root") }
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(adopting: FileDescriptor(rawValue: AirDropTransfer.listeningDescriptor))
        } catch {
            throw CommandError.usage("needs the listener 'exthost airdrop' binds on descriptor 3 (\(error))")
        }
        var stallLimit = Duration.seconds(30)
        if let seconds = try parsed.value(.stallLimit) {
            guard seconds > 0 else { throw CommandError.usage("--stall-limit must be positive") }
            stallLimit = .milliseconds(Int(seconds * 1000))
        }
        let receipt: AirDropReceipt
        do throws(AirDropError) {
            receipt = try await AirDropTransfer.receive(
                on: listener, root: DeviceRoot(url: URL(fileURLWithPath: rootPath)), accept: parsed[.accept],
                chosenApp: parsed[.with], programs: InstalledPrograms.nextToExecutable(), stallLimit: stallLimit)
        } catch {
            throw CommandError.failed(error.message)
        }
        context.print((try? JSONValue(encoding: receipt).rendered(pretty: false)) ?? "{}")
        return receipt.outcome == "refused" ? .failure : .success
    }

    /// A device by name (`exthost device list`), else by root folder.
    static func device(_ name: String, _ context: CommandContext) throws -> DeviceRoot {
        let devices = DeviceSet.user(environment: context.environment)
        let named = devices.root(named: name)
        if !name.contains("/"), FileManager.default.fileExists(atPath: named.url.path) { return named }
        // The default device is there on first use, as for every other command.
        if name == DeviceSet.defaultName, !FileManager.default.fileExists(atPath: context.resolve(name).path) {
            return try ContainerSupport.mapped { try devices.existing(orNew: name) }
        }
        var isDirectory: ObjCBool = false
        let asPath = context.resolve(name)
        guard FileManager.default.fileExists(atPath: asPath.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw CommandError.input(
                "no device \(name) (make it with 'exthost device create \(name)', or give a folder)")
        }
        return DeviceRoot(url: asPath)
    }
}
