import AppGroups
import ExtensionHost
import Foundation
import UniformTypes

extension AirDropReceiver {
    /// Routes a received transfer of files (staged, checked) and keeps it where the handler and the
    /// person's choice put it; on a write error, what was already moved is removed again.
    func route(_ announcement: AirDropAnnouncement, staged: [URL], staging: URL, receipt: AirDropReceipt) throws
        -> AirDropReceipt
    {
        var receipt = receipt
        let bundles = InstalledBundles(root: root)
        let routing = AirDropFileRouting.route(
            zip(announcement.files, receipt.files).map {
                (name: $0.0.name, type: UniformTypeIdentifier($0.1.typeIdentifier), declared: $0.0.typeIdentifier)
            }, folder: announcement.folder, bundles: bundles)
        receipt.handler = routing.handler
        receipt.handlers = routing.apps
        receipt.typeIdentifier = announcement.folder == nil ? receipt.files.first?.typeIdentifier : "public.folder"
        receipt.getApp = routing.getApp
        let legacyAutomatic = routing.legacyAutomatic
        if let system = routing.system {
            receipt.flow = "system"
            receipt.actions = ["Accept", "Decline"]
            receipt.app = system.app
        } else if routing.apps.isEmpty {
            if routing.getApp == nil {
                receipt.actions = ["Save to Files"]
            } else {
                receipt.actions = ["Get App", "Save to Files"]
                receipt.typeIdentifier = routing.requiredType
            }
        } else if savesToDownloads {
            receipt.actions = ["Open in Files", "Move to App…"]
        } else if legacyAutomatic {
            receipt.actions = []
        } else {
            receipt.actions = routing.apps.map {
                "Open with \(bundles.app($0.bundleIdentifier)?.title ?? $0.bundleIdentifier)"
            }
            if !routing.apps.contains(where: { $0.bundleIdentifier == AirDropSystemHandler.filesApp }) {
                receipt.actions.append("Save to Files")
            }
        }
        guard response.accept else {
            receipt.outcome = "declined"
            receipt.action = "Decline"
            receipt.reason = "the person declined; nothing is kept"
            return receipt
        }
        if let refusal = choiceRefusal(routing: routing, legacyAutomatic: legacyAutomatic) {
            receipt.reason = refusal + "; nothing is kept"
            return receipt
        }
        var kept: [URL] = []
        do {
            return try keep(
                announcement, staged: staged, staging: staging, routing: routing, legacyAutomatic: legacyAutomatic,
                bundles: bundles, receipt: receipt, kept: &kept)
        } catch {
            for url in kept { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    /// Why the person's choice (``response``) is not one this device offers for `announcement`, or
    /// nil: what the receiver would refuse after the bytes, told before any is sent.
    public func choiceRefusal(for announcement: AirDropAnnouncement) -> String? {
        if announcement.url != nil {
            return response.moveToApp != nil || response.openWith != nil || response.saveToFiles
                ? "a link is opened by the app that handles it: there is no app or Files to choose" : nil
        }
        guard response.accept else { return nil }
        let bundles = InstalledBundles(root: root)
        let routing = AirDropFileRouting.route(
            announcement.files.map {
                (name: $0.name, type: Self.receiverType($0, registry: bundles.registry), declared: $0.typeIdentifier)
            }, folder: announcement.folder, bundles: bundles)
        return choiceRefusal(routing: routing, legacyAutomatic: routing.legacyAutomatic)
    }

    /// Why the person's choice is not one the device offers for this transfer, or nil.
    func choiceRefusal(routing: AirDropFileRouting, legacyAutomatic: Bool) -> String? {
        let offered = routing.apps.map(\.bundleIdentifier)
        if let app = response.moveToApp {
            guard savesToDownloads else {
                return "Move to App… exists from iOS 17; this device runs iOS \(iosVersion), whose alert offers "
                    + "Open with each app"
            }
            guard routing.system == nil, offered.contains(app) else {
                return "Move to App… does not offer \(app): "
                    + (offered.isEmpty ? "no app opens these files" : "it opens \(offered.joined(separator: ", "))")
            }
            if response.saveToFiles { return "Move to App… and Save to Files are two different choices" }
        }
        if let app = response.openWith {
            guard !savesToDownloads else {
                return "iOS \(iosVersion) offers no Open with for AirDrop: the file opens in Files, and "
                    + "Move to App… moves it into an app"
            }
            guard routing.system == nil, offered.contains(app), !legacyAutomatic else {
                return "the alert offers no Open with \(app): "
                    + (offered.isEmpty
                        ? "no app opens these files" : "it opens with \(offered.joined(separator: ", "))")
            }
            if response.saveToFiles { return "Open with and Save to Files are two different choices" }
        }
        if response.saveToFiles, routing.system != nil {
            return "\(routing.handler.name) takes these files into \(routing.system?.title ?? "its app"): there is no "
                + "Save to Files"
        }
        return nil
    }

    /// Keeps an accepted transfer as the handler and the person's choice say.
    func keep(
        _ announcement: AirDropAnnouncement, staged: [URL], staging: URL, routing: AirDropFileRouting,
        legacyAutomatic: Bool, bundles: InstalledBundles, receipt: AirDropReceipt, kept: inout [URL]
    ) throws -> AirDropReceipt {
        var receipt = receipt
        receipt.outcome = "accepted"
        if let system = routing.system {
            let folder = root.url.appendingPathComponent(system.folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (index, file) in staged.enumerated() {
                let target = try InstalledBundles.moveUnique(
                    file, named: announcement.files[index].name, into: folder)
                kept.append(target)
                receipt.files[index].path = relative(target)
            }
            receipt.action = "Accept"
            receipt.path = receipt.files.first?.path
            receipt.reason =
                "\(system.title) takes the \(staged.count == 1 ? "file" : "\(staged.count) files") into \(system.folder) "
                + "(exthost runs no system app: the files are kept in the folder that stands for its library)"
            return receipt
        }
        // Every other flow saves to Downloads first, or opens with an app from the staging folder.
        let openWith: String? =
            if savesToDownloads || routing.apps.isEmpty || response.saveToFiles { nil } else {
                response.openWith ?? routing.apps[0].bundleIdentifier
            }
        let units = announcement.folder.map { [staging.appendingPathComponent($0)] } ?? staged
        let unitNames = announcement.folder.map { [$0] } ?? announcement.files.map(\.name)
        if let app = openWith, app != AirDropSystemHandler.filesApp {
            // Before iOS 17: Open with the app; each file is moved (LSMoveDocumentOnOpenKey) into its Inbox.
            try deliver(units, names: unitNames, to: app, bundles: bundles, receipt: &receipt, kept: &kept)
            receipt.action = "Open with \(app)"
            receipt.app = app
            receipt.reason =
                legacyAutomatic
                ? "\(app) is the only app and Apple's: it opens automatically"
                : "Open with \(app): the \(units.count == 1 ? "file is" : "files are") moved into its Documents/Inbox"
            return receipt
        }
        let downloads = root.url.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        var saved: [URL] = []
        for (unit, name) in zip(units, unitNames) {
            let target = try InstalledBundles.moveUnique(unit, named: name, into: downloads)
            kept.append(target)
            saved.append(target)
        }
        record(saved, receipt: &receipt)
        if routing.apps.isEmpty {
            receipt.outcome = "requires-app"
            receipt.action = "Save to Files"
            receipt.reason =
                "\(announcement.sender) is sending you "
                + (units.count == 1 ? "a file that requires an app: " : "files that require an app: ")
                + routing.handler.reason + "; saved to Downloads (Save to Files)"
                + (routing.getApp.map { "; Get App opens \($0)" } ?? "")
            return receipt
        }
        if let app = response.moveToApp {
            // "Move to App…": the share into the app succeeds and the Downloads copy is gone.
            try deliver(saved, names: unitNames, to: app, bundles: bundles, receipt: &receipt, kept: &kept)
            receipt.action = "Move to App… \(app)"
            receipt.app = app
            receipt.reason =
                "saved to Downloads and opened in Files, then Move to App… \(app): moved into its Documents/Inbox "
                + "(the Downloads copy is removed)"
            return receipt
        }
        receipt.app = AirDropSystemHandler.filesApp
        if savesToDownloads {
            receipt.action = "Open in Files"
            receipt.reason =
                "iOS \(iosVersion) saves AirDropped files to Downloads and opens them in Files (shareddocuments://); "
                + "Move to App… would move them into "
                + routing.apps.map(\.bundleIdentifier).joined(separator: " or ")
        } else if response.saveToFiles {
            receipt.action = "Save to Files"
            receipt.reason = "Save to Files: kept in Downloads"
        } else {
            receipt.action = "Open with Files"
            receipt.reason = "the Files app is the only app and Apple's: it opens automatically, from Downloads"
        }
        return receipt
    }

    /// Moves `units` into `app`'s Inbox and records where each file ended and the URL the app gets.
    func deliver(
        _ units: [URL], names: [String], to app: String, bundles: InstalledBundles, receipt: inout AirDropReceipt,
        kept: inout [URL]
    ) throws {
        var moved: [URL] = []
        for (unit, name) in zip(units, names) {
            let delivery = try bundles.deliver(file: unit, to: app, on: root, moving: true, named: name)
            let target = URL(fileURLWithPath: delivery.path)
            kept.append(target)
            moved.append(target)
            receipt.appURLs.append(delivery.url)
            if receipt.delivery == nil { receipt.delivery = delivery }
        }
        record(moved, receipt: &receipt)
    }

    func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Records where the files ended: each file of `targets`, or — when the one target is a
    /// folder — each entry inside it.
    func record(_ targets: [URL], receipt: inout AirDropReceipt) {
        if targets.count == 1, isFolder(targets[0]) {
            for index in receipt.files.indices {
                receipt.files[index].path = relative(targets[0].appendingPathComponent(receipt.files[index].name))
            }
        } else {
            for (index, target) in targets.enumerated() where index < receipt.files.count {
                receipt.files[index].path = relative(target)
            }
        }
        receipt.path = targets.first.map(relative)
    }

    /// Routes a received link.
    func receiveLink(_ url: URL, receipt: AirDropReceipt) throws -> AirDropReceipt {
        var receipt = receipt
        let routing = AirDropLinkRouting.route(url, bundles: InstalledBundles(root: root))
        receipt.url = url.absoluteString
        receipt.handler = routing.handler
        receipt.handlers = routing.apps
        receipt.getApp = routing.getApp
        receipt.actions = routing.getApp == nil ? ["Accept", "Decline"] : ["Get App"]
        guard response.accept else {
            receipt.outcome = "declined"
            receipt.action = "Decline"
            receipt.reason = "the person declined; nothing is opened"
            return receipt
        }
        if let refusal = choiceRefusal(for: AirDropAnnouncement(sender: "", files: [], url: url.absoluteString)) {
            receipt.reason = refusal
            return receipt
        }
        guard let app = routing.handler.app else {
            receipt.outcome = "requires-app"
            receipt.reason =
                "\(routing.handler.reason); Get App opens \(routing.getApp ?? "the App Store"); nothing is kept"
            return receipt
        }
        receipt.outcome = "accepted"
        receipt.action = "Accept"
        receipt.app = app
        if routing.app != nil {
            receipt.delivery = FileDelivery(url: url.absoluteString, openInPlace: false, inbox: nil)
            receipt.appURLs = [url.absoluteString]
            receipt.reason = "\(routing.handler.reason): the app receives the URL"
        } else {
            receipt.reason = "\(routing.handler.reason) (exthost runs no system app: nothing else happens)"
        }
        return receipt
    }

    func relative(_ url: URL) -> String {
        let base = root.url.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }
}
