// exthost-uikit-only: a program that links UIKit and not the app runtime (as an extension does, or
// an app whose package forgot the ExtHostApp product). UIKitTests run it: `UIApplicationMain` and
// `UIActivityViewController` must say which product is missing, never trap.
//   exthost-uikit-only            runs UIApplicationMain (exit 1, the reason on standard error)
//   exthost-uikit-only sheet      asks a UIActivityViewController for its sheet (exit 1, the reason)

import Foundation
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {}

if CommandLine.arguments.dropFirst().first == "sheet" {
    let controller = UIActivityViewController(activityItems: ["hello"], applicationActivities: nil)
    do {
        _ = try controller.sheet(on: URL(fileURLWithPath: FileManager.default.temporaryDirectory.path))
        print("sheet: shown")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("sheet: \(error)\n".utf8))
        exit(1)
    }
}
exit(UIApplicationMain(CommandLine.argc, CommandLine.unsafeArgv, nil, NSStringFromClass(AppDelegate.self)))
