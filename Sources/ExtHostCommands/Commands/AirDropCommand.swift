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
        summary: "AirDrop files, a folder or a link from one device to another over loopback (exit 0, 1, 2, 3).",
        arguments: "FILE... | FOLDER", positionalCount: 0...Int.max,
        options: [
            .value(
                .from, "DEVICE",
                "The sending device (a name from 'exthost device list', or a root folder; default: the default device)."
            ),
            .value(.to, "DEVICE", "The receiving device (a name, or a root folder)."),
            .value(.url, "URL", "Send this link instead of files (it needs a scheme: https:, carddrop:, …)."),
            .flag(.accept, "The receiver accepts."),
            .flag(.decline, "The receiver declines (the default)."),
            .value(.moveToApp, "BUNDLE-ID", "iOS 17+: after Accept, Move to App… into this app (implies --accept)."),
            .value(.with, "BUNDLE-ID", "Before iOS 17: Open with this app in the alert (implies --accept)."),
            .flag(.saveToFiles, "Before iOS 17: Save to Files in the alert (implies --accept)."),
            .flag(.json, "Print one JSON report."),
        ],
        discussion: """
            Sends several files, one folder (every file under it, hidden ones left out), or a link (--url). The
            sender types each file with its own installed apps' declarations and announces its name, type
            identifier, size and SHA-256; the receiver (exthost __airdrop-receive, a separate process listening on
            127.0.0.1) refuses the whole transfer when one entry lies (a name that is not a plain file name, a
            size beyond its free space, more or fewer bytes than announced, a digest that does not match, a
            sender silent for 30 s mid-transfer), leaving nothing behind; two transfers of one name never replace
            each other (the second is numbered -1). It types each file by the sender's
            identifier when it knows it, else by the filename extension, and tries sharingd's handlers in order:
            Calendar, Contacts, Photos (images and videos), Books (PDFs, EPUBs) take files before any third-party
            app; then GenericFiles offers the apps that open every file (a folder: the apps for public.folder,
            among them Files); else the files require an app (Get App for the declared type; Save to Files keeps
            them in Downloads). iOS 17+ (the receiver's device.plist; a root folder without one is iOS 18):
            accepted files are saved to Downloads and opened in Files; --move-to-app moves them into the app's
            Documents/Inbox and launches it. Before 17: the alert offers Open with each app (--with; the first by
            default) and Save to Files. A link with a custom scheme opens in the app that registers it; http(s)
            opens in Safari (exthost does not model universal links). Exit: 0 accepted, 1 refused, 2 bad input
            (zero files, a link without a scheme, a choice the device does not offer), 3 declined or requires an
            app.
            """,
        examples: [
            "exthost init Demo && exthost device create Bob && exthost airdrop Demo/items/photo.png --to Bob --accept  "
                + "# Photos takes it: Media/DCIM/100APPLE/photo.png",
            "exthost device create Bob && exthost airdrop --url carddrop://card/alice --to Bob --accept  # exit 3: no app on Bob registers carddrop:",
        ]
    ) { parsed, context in
        guard let toName = parsed[.to] else {
            throw CommandError.usage(
                "exthost airdrop needs --to DEVICE, the receiving device (make one with 'exthost device create NAME')")
        }
        let payload = try payload(parsed, context)
        let fromName = parsed[.from] ?? DeviceSet.defaultName
        let from = try device(fromName, context)
        let to = try device(toName, context)
        let response = AirDropResponse(
            accept: (parsed[.accept] || parsed[.moveToApp] != nil || parsed[.with] != nil || parsed[.saveToFiles])
                && !parsed[.decline],
            openWith: parsed[.with], moveToApp: parsed[.moveToApp], saveToFiles: parsed[.saveToFiles])
        try check(response, on: to)
        let programs = try Executables.programs()
        let announcement: AirDropAnnouncement
        let report: AirDropReport
        do throws(AirDropError) {
            (announcement, report) = try await AirDropTransfer.send(
                payload, from: from, senderName: from.deviceInfo?.name ?? fromName, to: to, response: response,
                programs: programs)
        } catch {
            switch error.kind {
            case .badInput: throw CommandError.input(error.message)
            case .failed: throw CommandError.failed(error.message)
            }
        }
        if parsed[.json] {
            try context.printJSON(encoding: report)
        } else {
            render(announcement, report, to: to, context)
        }
        switch report.receipt.outcome {
        case "accepted": return .success
        case "refused": return .failure
        default: return .no
        }
    }

    /// What the positionals and `--url` name.
    static func payload(_ parsed: ParsedArguments, _ context: CommandContext) throws -> AirDropPayload {
        if let link = parsed[.url] {
            guard parsed.positionals.isEmpty else {
                throw CommandError.usage("exthost airdrop sends files or a link (--url), not both")
            }
            if let refusal = AirDropReceiver.linkRefusal(link) { throw CommandError.input(refusal) }
            return .link(link)
        }
        guard !parsed.positionals.isEmpty else {
            throw CommandError.input("a transfer of zero files: name the files or the folder to send, or --url URL")
        }
        let urls = parsed.positionals.map { context.resolve($0) }
        let folders = urls.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if folders.isEmpty { return .files(urls) }
        guard urls.count == 1, let folder = folders.first else {
            throw CommandError.input(
                "AirDrop sends one folder on its own, or files: \(folders[0].path) is a folder among \(urls.count) items"
            )
        }
        return .folder(folder)
    }

    /// Refuses (exit 2) a choice the receiving device does not offer on its iOS version.
    static func check(_ response: AirDropResponse, on root: DeviceRoot) throws {
        let version = root.iosVersion
        if response.moveToApp != nil, version.major < 17 {
            throw CommandError.input(
                "--move-to-app: Move to App… exists from iOS 17; the receiving device runs iOS \(version) (use --with)")
        }
        if response.openWith != nil || response.saveToFiles, version.major >= 17 {
            throw CommandError.input(
                "\(response.openWith != nil ? "--with" : "--save-to-files"): the receiving device runs iOS \(version), "
                    + "which saves AirDropped files to Downloads and opens them in Files (use --move-to-app BUNDLE-ID)")
        }
        if response.openWith != nil, response.saveToFiles {
            throw CommandError.input("--with and --save-to-files are two different choices in the alert")
        }
    }

    /// The text report.
    static func render(
        _ announcement: AirDropAnnouncement, _ report: AirDropReport, to: DeviceRoot, _ context: CommandContext
    ) {
        let receipt = report.receipt
        if let link = announcement.url {
            context.print("link \(link) from \(announcement.sender)")
        } else {
            let what = announcement.folder.map { "folder \($0) (\(announcement.files.count) files)" }
            let count = announcement.files.count
            context.print("\(what ?? "\(count) file\(count == 1 ? "" : "s")") from \(announcement.sender):")
            for file in receipt.files {
                let type =
                    file.typeIdentifier == file.declaredType
                    ? file.declaredType : "declared \(file.declaredType), \(file.typeIdentifier) on the receiver"
                context.print("  \(file.name) (\(type), \(file.bytes) bytes) → \(file.path ?? "not kept")")
            }
        }
        context.print("iOS \(receipt.iosVersion ?? "?"): \(receipt.outcome) [\(receipt.flow)]: \(receipt.reason)")
        if let handler = receipt.handler {
            context.print("handler \(handler.name)\(handler.app.map { " (\($0))" } ?? ""): \(handler.reason)")
            if !handler.declined.isEmpty { context.print("  tried first: \(handler.declined.joined(separator: ", "))") }
        }
        if !receipt.actions.isEmpty { context.print("offered: \(receipt.actions.joined(separator: ", "))") }
        if let getApp = receipt.getApp { context.print("Get App: \(getApp)") }
        for handler in receipt.handlers {
            context.print("  app \(handler.bundleIdentifier) [\(handler.rank)]")
        }
        if let path = receipt.path { context.print("at \(path) in \(to.url.path)") }
        if let launch = receipt.delivery?.app {
            context.print(
                AppHandOff.line(launch.delivery, start: launch.start, bundle: launch.bundleIdentifier, pid: launch.pid))
            context.print(
                AppHandOff.sourceLine(
                    launch.sourceApplication, reason: "sharingd opens the received file; its team is Apple's"))
            for line in AppHandOff.refusalLines(launch) { context.print(line) }
        }
        let completion = report.senderCompletion
        context.print(
            "sender: completionWithItemsHandler(activityType: \(completion.activityType), completed: "
                + "\(completion.completed), returnedItems: nil, activityError: \(completion.activityError ?? "nil"))")
    }

    static let receive = CommandSpec(
        [receiveName], summary: "The receiving side of 'exthost airdrop' (a listening process).",
        options: [
            .value(.root, "DIR", "The receiving device's root."),
            .flag(.accept, "Accept."), .value(.with, "BUNDLE-ID", "Before iOS 17: Open with this app."),
            .value(.moveToApp, "BUNDLE-ID", "iOS 17+: Move to App… into this app."),
            .flag(.saveToFiles, "Before iOS 17: Save to Files."),
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
                on: listener, root: DeviceRoot(url: URL(fileURLWithPath: rootPath)),
                response: AirDropResponse(
                    accept: parsed[.accept], openWith: parsed[.with], moveToApp: parsed[.moveToApp],
                    saveToFiles: parsed[.saveToFiles]),
                programs: InstalledPrograms.nextToExecutable(), stallLimit: stallLimit)
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
