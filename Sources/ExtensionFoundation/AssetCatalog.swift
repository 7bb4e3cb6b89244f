package import Foundation

/// Named images and colours of a bundle, as `UIImage(named:)` and `UIColor(named:)` find them: an
/// asset catalog's folders (`Assets.xcassets/NAME.imageset`, `NAME.colorset`, as Xcode writes them)
/// or loose files next to the code.
package enum AssetCatalog {
    /// The path of the image named `name` in `bundle`, the variant best for a 3× screen first.
    package static func imagePath(named name: String, in bundle: Bundle) -> String? {
        let fileManager = FileManager.default
        let roots = searchRoots(bundle)
        if (name as NSString).pathExtension.isEmpty == false {
            for root in roots where fileManager.fileExists(atPath: root + "/" + name) { return root + "/" + name }
        }
        for root in roots {
            for catalog in catalogs(in: root) {
                if let path = imageSetPath(catalog + "/" + name + ".imageset") { return path }
            }
            for suffix in ["@3x.png", "@2x.png", ".png", "@3x.jpg", "@2x.jpg", ".jpg", ".jpeg"] {
                let path = root + "/" + name + suffix
                if fileManager.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }

    /// The colour set `name` of `bundle`: its universal (light) sRGB components.
    package static func colorComponents(named name: String, in bundle: Bundle) -> (
        red: Double, green: Double, blue: Double, alpha: Double
    )? {
        for root in searchRoots(bundle) {
            for catalog in catalogs(in: root) {
                let file = catalog + "/" + name + ".colorset/Contents.json"
                guard let data = FileManager.default.contents(atPath: file),
                    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let colors = json["colors"] as? [[String: Any]]
                else { continue }
                let light = colors.first { ($0["appearances"] as? [Any]) == nil } ?? colors.first
                guard let components = (light?["color"] as? [String: Any])?["components"] as? [String: Any] else {
                    continue
                }
                func value(_ key: String) -> Double? {
                    guard let raw = components[key] else { return nil }
                    if let number = raw as? Double { return number }
                    guard let text = raw as? String else { return nil }
                    if text.hasPrefix("0x") || text.hasPrefix("0X") {
                        return Int(text.dropFirst(2), radix: 16).map { Double($0) / 255 }
                    }
                    guard let number = Double(text) else { return nil }
                    return number > 1 && !text.contains(".") ? number / 255 : number
                }
                guard let red = value("red"), let green = value("green"), let blue = value("blue") else { continue }
                return (red, green, blue, value("alpha") ?? 1)
            }
        }
        return nil
    }

    /// The scale a file's name says (`@2x`, `@3x`), else 1.
    package static func scale(ofFileNamed path: String) -> CGFloat {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if base.hasSuffix("@3x") { return 3 }
        if base.hasSuffix("@2x") { return 2 }
        return 1
    }

    private static func searchRoots(_ bundle: Bundle) -> [String] {
        var roots: [String] = []
        if let resources = bundle.resourcePath { roots.append(resources) }
        if !roots.contains(bundle.bundlePath) { roots.append(bundle.bundlePath) }
        return roots
    }

    private static func catalogs(in root: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.filter { $0.hasSuffix(".xcassets") }.sorted().map { root + "/" + $0 }
    }

    private static func imageSetPath(_ folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: folder + "/Contents.json"),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let images = json["images"] as? [[String: Any]]
        else { return nil }
        let named = images.compactMap { image -> (scale: Int, file: String)? in
            guard let file = image["filename"] as? String else { return nil }
            let scale = (image["scale"] as? String).flatMap { Int($0.dropLast()) } ?? 1
            return (scale, file)
        }
        guard let best = named.max(by: { $0.scale < $1.scale }) else { return nil }
        return folder + "/" + best.file
    }
}
