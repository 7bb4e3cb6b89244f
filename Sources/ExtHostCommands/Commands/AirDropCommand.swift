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
            .value(.from, "DEVICE", "The sending device (a name from 'exthost device list', or a root folder)."),
            .value(.to, "DEVICE", "The receiving device (a name, or a root folder)."),
            .flag(.accept, "The receiver accepts (and opens with the first app, or --with)."),
            .flag(.decline, "The receiver declines (the default)."),
            .value(.with, "BUNDLE-ID", "The app chosen on the receiver."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            The sender types the file with its own installed apps' declarations and announces its name, type
            identifier, size and SHA-256; the receiver (exthost __airdrop-receive, a separate process listening
            on 127.0.0.1) refuses a name with a folder in it, more or fewer bytes than announced, or a digest that
            does not match, leaving nothing behind. It types the file by the sender's identifier when one of its
            apps declares it, else by the filename extension. iOS 17+ (the receiver's device.plist; a root folder
            without one is iOS 18): saved to Downloads, then Move to App… into the app's Documents/Inbox. Before:
            Open with the app, the file moved into its Inbox. No app: the file requires an app (kept in Downloads
            only when accepted, as Save to Files). Exit: 0 accepted, 1 refused, 2 bad input, 3 declined or
            requires an app.
            """
    ) { parsed, context in
        guard let fromName = parsed[.from], let toName = parsed[.to] else {
            throw CommandError.usage("exthost airdrop needs --from DEVICE and --to DEVICE")
        }
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
                context.print(
                    AppHandOff.sourceLine(
                        launch.sourceApplication, reason: "sharingd opens the received file; its team is Apple's"))
                for line in AppHandOff.refusalLines(launch) { context.print(line) }
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
        let receipt: AirDropReceipt
        do throws(AirDropError) {
            receipt = try await AirDropTransfer.receive(
                on: listener, root: DeviceRoot(url: URL(fileURLWithPath: rootPath)), accept: parsed[.accept],
                chosenApp: parsed[.with], programs: InstalledPrograms.nextToExecutable())
        } catch {
            throw CommandError.failed(error.message)
        }
        context.print((try? JSONValue(encoding: receipt).rendered(pretty: false)) ?? "{}")
        return receipt.outcome == "refused" ? .failure : .success
    }

    /// A device by name (`exthost device list`), else by root folder.
    static func device(_ name: String, _ context: CommandContext) throws -> DeviceRoot {
        let named = DeviceSet.user(environment: context.environment).root(named: name)
        if !name.contains("/"), FileManager.default.fileExists(atPath: named.url.path) { return named }
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
