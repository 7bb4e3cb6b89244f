import Foundation
import Testing
import UIKit

/// `UIImage(named:in:compatibleWith:)` and `UIColor(named:in:compatibleWith:)` reading a bundle's
/// asset catalog as Xcode writes it (`NAME.imageset`, `NAME.colorset` with `Contents.json`) and
/// loose image files: the 3× variant first on the headless phone, the universal (light) colour.
@MainActor
struct AssetCatalogTests {
    /// A 3 × 2 PNG.
    static let png =
        Data(
            base64Encoded:
                "iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAAEUlEQVR4nGM4ocH1H4YZkDkAmGML1322ScUAAAAASUVORK5CYII="
        ) ?? Data()

    func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func bundle() throws -> (URL, Bundle) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("assets-\(UUID().uuidString)/Demo.app", isDirectory: true)
        let catalog = folder.appendingPathComponent("Assets.xcassets")
        try write(
            #"{"images": [{"filename": "logo.png", "scale": "1x"}, {"scale": "2x"},"#
                + #" {"filename": "logo@3x.png", "scale": "3x"}], "info": {"version": 1}}"#,
            to: catalog.appendingPathComponent("Logo.imageset/Contents.json"))
        try Self.png.write(to: catalog.appendingPathComponent("Logo.imageset/logo.png"))
        try Self.png.write(to: catalog.appendingPathComponent("Logo.imageset/logo@3x.png"))
        try write(#"{"images": []}"#, to: catalog.appendingPathComponent("Empty.imageset/Contents.json"))
        try Self.png.write(to: folder.appendingPathComponent("icon@2x.png"))
        try Self.png.write(to: folder.appendingPathComponent("banner.png"))
        try write(
            """
            {"colors": [
              {"appearances": [{"appearance": "luminosity", "value": "dark"}],
               "color": {"color-space": "srgb", "components": {"red": "0x00", "green": "0x00", "blue": "0x00"}}},
              {"color": {"color-space": "srgb",
                         "components": {"red": "0xFF", "green": "51", "blue": "0.500", "alpha": "0.25"}}}
            ]}
            """, to: catalog.appendingPathComponent("Brand.colorset/Contents.json"))
        try write(
            #"{"colors": [{"color": {"components": {"red": 0.2, "green": 0.4, "blue": 1}}}]}"#,
            to: catalog.appendingPathComponent("Plain.colorset/Contents.json"))
        try write(
            #"{"colors": [{"color": {"components": {"red": "lots", "green": 0, "blue": 0}}}]}"#,
            to: catalog.appendingPathComponent("Broken.colorset/Contents.json"))
        try write(
            #"{"colors": [{"idiom": "universal"}]}"#, to: catalog.appendingPathComponent("Bare.colorset/Contents.json"))
        return (folder.deletingLastPathComponent(), try #require(Bundle(path: folder.path)))
    }

    @Test func imagesComeFromTheCatalogOrLooseFilesBestScaleFirst() throws {
        let (scratch, bundle) = try bundle()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let logo = try #require(UIImage(named: "Logo", in: bundle, compatibleWith: nil))
        #expect(logo.scale == 3, "the 3x variant of the image set")
        #expect(logo.size == CGSize(width: 1, height: 2.0 / 3.0))
        let icon = try #require(UIImage(named: "icon", in: bundle, compatibleWith: nil))
        #expect(icon.scale == 2 && icon.size == CGSize(width: 1.5, height: 1))
        #expect(UIImage(named: "banner.png", in: bundle, compatibleWith: nil)?.scale == 1)
        #expect(UIImage(named: "Empty", in: bundle, compatibleWith: nil) == nil, "an image set with no file")
        #expect(UIImage(named: "Missing", in: bundle, compatibleWith: nil) == nil)
    }

    @Test func aColourSetGivesItsUniversalComponents() throws {
        let (scratch, bundle) = try bundle()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let brand = try #require(UIColor(named: "Brand", in: bundle, compatibleWith: nil))
        var red: CGFloat = 0
        var green: CGFloat = 0
        var blue: CGFloat = 0
        var alpha: CGFloat = 0
        brand.getRed(&red, green: &green, blue: &blue, alpha: &alpha)
        // Hex bytes and whole numbers are out of 255; a decimal is the component itself.
        #expect(red == 1 && green == 51.0 / 255 && blue == 0.5 && alpha == 0.25)
        #expect(UIColor(named: "Plain", in: bundle, compatibleWith: nil)?.hexString == "#3366FF")
        #expect(UIColor(named: "Broken", in: bundle, compatibleWith: nil) == nil, "a component that is no number")
        #expect(UIColor(named: "Bare", in: bundle, compatibleWith: nil) == nil, "no components")
        #expect(UIColor(named: "Missing", in: bundle, compatibleWith: nil) == nil)
    }
}
