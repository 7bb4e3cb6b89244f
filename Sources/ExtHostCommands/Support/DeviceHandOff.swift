import AppGroups
import ExtensionHost
import ExtensionIPC
import Foundation
import LaunchServices
import ShareSheet

/// The hand-over of a URL an extension asks to open, on a device: Launch Services chooses the app
/// (the one whose `CFBundleURLTypes` list the scheme), and the URL is delivered as `exthost open`
/// delivers it — warm to the running app, else by launching it — to the app's program or the
/// built-in app.
enum DeviceHandOff {
    /// The hand-over on `root`.
    /// - Throws: ``CommandError`` when the exthost executable or the sandbox launcher is not found.
    static func make(on root: DeviceRoot) throws -> URLHandOff {
        let programs = try Executables.programs()
        let options = try AppHandOff.options(programs)
        return URLHandOff(
            resolve: { url in
                let decision = InstalledBundles(root: root).handlers(forURL: url)
                guard let chosen = decision.chosen, !decision.handlers.isEmpty else {
                    let scheme = url.scheme?.lowercased() ?? ""
                    if scheme == "http" || scheme == "https" {
                        return (
                            nil,
                            "a web link opens in Safari on iOS; exthost's device has no Safari, so no app here received it"
                        )
                    }
                    return (nil, "\(decision.reason): iOS opens nothing and the completion gets false")
                }
                return (chosen, decision.reason)
            },
            deliver: { url, app in
                try await AppLaunchServer.deliver(
                    [OpenURLContextDescription(url: url.absoluteString, openInPlace: false)], to: app, on: root,
                    launcher: programs.launcher, options: options)
            })
    }
}
